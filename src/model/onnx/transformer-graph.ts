// Emits the decoder of ../transformer.ts as ONNX nodes: embeddings, pre-LayerNorm blocks (causal
// multi-head attention, tanh-GELU MLP), final LayerNorm, and the two heads (tied LM logits, sigmoid
// score at the last real token). The same emission serves the exported inference models, the
// incremental-decoding model (past keys and values) and the training graphs, which also keep the
// intermediate values that the hand-derived backward in ./training-graph.ts needs.
//
// Activations are [B, T, C]; linear layers are MatMul of a 3-D activation by a 2-D [in, out] weight,
// exactly as the flat parameter layout stores it.

import type { ModelConfig } from '../config.ts';
import { headDim } from '../config.ts';
import type { ParameterLayout } from '../parameter-layout.ts';
import { layerViewNames } from '../parameter-layout.ts';
import type { LayerViewNames } from '../parameter-layout.ts';
import type { GraphBuilder } from './graph-builder.ts';
import { floatTensor } from './graph-builder.ts';

/** Returns the graph value holding the named parameter tensor, with its layout shape. */
export type WeightRef = (name: string) => string;

/** Large negative bias that zeroes a masked attention weight after softmax (exp underflows to 0). */
export const MASKED_BIAS = -1e9;

/** Weights stored in the model as initializers (exported, frozen models); only those the graph uses. */
export function initializerWeights(g: GraphBuilder, layout: ParameterLayout, params: Float32Array): WeightRef {
  const names = new Map<string, string>();
  return (name) => {
    let value = names.get(name);
    if (!value) {
      const v = layout.byName.get(name);
      if (!v) throw new Error(`transformer graph: no weight named '${name}'`);
      value = g.initializer(floatTensor(v.name, v.shape, params.slice(v.offset, v.offset + v.size)));
      names.set(name, value);
    }
    return value;
  };
}

/**
 * Weights fed at run time as ONE flat float input (the project's parameter array, alignment gaps
 * included), sliced and reshaped inside the graph: the caller hands its Float32Array over unchanged.
 */
export function flatInputWeights(g: GraphBuilder, layout: ParameterLayout, inputName = 'params'): WeightRef {
  g.input(inputName, 'float', [layout.totalLength]);
  const names = new Map<string, string>();
  for (const v of layout.views) {
    const sliced = g.op('Slice', [inputName, g.i64([v.offset]), g.i64([v.offset + v.size]), g.i64([0])]);
    const value = v.shape.length === 1 ? sliced : g.op('Reshape', [sliced, g.i64(v.shape)]);
    names.set(v.name, g.op('Identity', [value], {}, `w.${v.name}`));
  }
  return (name) => lookup(names, name);
}

function lookup(names: Map<string, string>, name: string): string {
  const v = names.get(name);
  if (!v) throw new Error(`transformer graph: no weight named '${name}'`);
  return v;
}

export interface LayerNormValues {
  y: string;
  /** [.., 1] */
  mean: string;
  /** [.., 1], 1/sqrt(var + eps) */
  rstd: string;
}

export function layerNorm(g: GraphBuilder, x: string, gamma: string, beta: string, eps: number): LayerNormValues {
  const [y, mean, rstd] = g.ops('LayerNormalization', [x, gamma, beta], [g.fresh('ln_y'), g.fresh('ln_mean'), g.fresh('ln_rstd')], {
    axis: -1,
    epsilon: { float: eps },
  });
  return { y, mean, rstd };
}

const GELU_S = Math.sqrt(2 / Math.PI);
const GELU_C = 0.044715;

/** tanh-GELU from primitives (opset 17 has no Gelu); returns the output and tanh(u) for the backward. */
export function gelu(g: GraphBuilder, x: string): { y: string; tanh: string } {
  const x3 = g.op('Mul', [g.op('Mul', [x, x]), x]);
  const u = g.op('Mul', [g.op('Add', [x, g.op('Mul', [x3, g.f32([GELU_C])])]), g.f32([GELU_S])]);
  const t = g.op('Tanh', [u]);
  const y = g.op('Mul', [g.op('Mul', [x, g.f32([0.5])]), g.op('Add', [t, g.f32([1])])]);
  return { y, tanh: t };
}

export interface LayerValues {
  names: LayerViewNames;
  /** block input [B, T, C] */
  x: string;
  ln1: LayerNormValues;
  /** [B, H, T, Dh] */
  q: string;
  /** [B, H, L, Dh] (L = past + T) */
  k: string;
  v: string;
  /** softmax weights [B, H, T, L] */
  probs: string;
  /** attention output, heads merged [B, T, C] */
  att: string;
  x2: string;
  ln2: LayerNormValues;
  fcPre: string;
  fcTanh: string;
  fcAct: string;
}

export interface DecoderValues {
  layers: LayerValues[];
  xFinal: string;
  lnf: LayerNormValues;
  /** final hidden state [B, T, C] */
  hidden: string;
}

export interface AttentionInputs {
  /** added to the scaled scores [B, H, T, L]; broadcastable: [T, L] or [B, 1, T, L] */
  bias: string;
  /** per layer past keys and values [B, H, P, Dh], concatenated before the new ones */
  past?: { k: string; v: string }[];
}

/** Token plus position embedding: x[b, t] = wte[tokens[b, t]] + pos[b?, t]. */
export function embed(g: GraphBuilder, w: WeightRef, tokens: string, positionRows: string): string {
  return g.op('Add', [g.op('Gather', [w('wte'), tokens], { axis: 0 }), positionRows]);
}

/** wpe rows 0..T-1 for a [B, T] token input, [T, C]. */
export function leadingPositions(g: GraphBuilder, w: WeightRef, tokens: string): string {
  const T = g.op('Slice', [g.op('Shape', [tokens]), g.i64([1]), g.i64([2]), g.i64([0])]);
  return g.op('Slice', [w('wpe'), g.i64([0]), T, g.i64([0])]);
}

/** Causal bias [T, T] for a [B, T] token input: 0 on and below the diagonal, MASKED_BIAS above. */
export function causalBias(g: GraphBuilder, config: ModelConfig, tokens: string): string {
  const Tmax = config.contextLength;
  const full = new Float32Array(Tmax * Tmax);
  for (let i = 0; i < Tmax; i++) for (let j = i + 1; j < Tmax; j++) full[i * Tmax + j] = MASKED_BIAS;
  const maskName = g.initializer(floatTensor(g.fresh('causal_bias'), [Tmax, Tmax], full));
  const T = g.op('Slice', [g.op('Shape', [tokens]), g.i64([1]), g.i64([2]), g.i64([0])]);
  const TT = g.op('Concat', [T, T], { axis: 0 });
  return g.op('Slice', [maskName, g.i64([0, 0]), TT, g.i64([0, 1])]);
}

/** The decoder stack on embeddings x0 [B, T, C]. */
export function decoder(g: GraphBuilder, config: ModelConfig, w: WeightRef, x0: string, attn: AttentionInputs): DecoderValues {
  const C = config.dModel;
  const H = config.nHeads;
  const Dh = headDim(config);
  const eps = config.layerNormEps;
  const scale = g.f32([1 / Math.sqrt(Dh)]);
  const layers: LayerValues[] = [];
  let x = x0;
  for (let l = 0; l < config.nLayers; l++) {
    const n = layerViewNames(l);
    const ln1 = layerNorm(g, x, w(n.ln1g), w(n.ln1b), eps);
    const qkv = g.op('Add', [g.op('MatMul', [ln1.y, w(n.wqkv)]), w(n.bqkv)]);
    // [B, T, 3C] -> [B, T, 3, H, Dh] -> [3, B, H, T, Dh]
    const split = g.op('Transpose', [g.op('Reshape', [qkv, g.i64([0, 0, 3, H, Dh])])], { perm: [2, 0, 3, 1, 4] });
    const q = g.op('Gather', [split, g.i64([0], true)], { axis: 0 });
    let k = g.op('Gather', [split, g.i64([1], true)], { axis: 0 });
    let v = g.op('Gather', [split, g.i64([2], true)], { axis: 0 });
    const past = attn.past?.[l];
    if (past) {
      k = g.op('Concat', [past.k, k], { axis: 2 });
      v = g.op('Concat', [past.v, v], { axis: 2 });
    }
    const scores = g.op('Add', [g.op('Mul', [g.op('MatMul', [q, g.op('Transpose', [k], { perm: [0, 1, 3, 2] })]), scale]), attn.bias]);
    const probs = g.op('Softmax', [scores], { axis: -1 });
    const heads = g.op('MatMul', [probs, v]);
    const att = g.op('Reshape', [g.op('Transpose', [heads], { perm: [0, 2, 1, 3] }), g.i64([0, 0, C])]);
    const x2 = g.op('Add', [x, g.op('Add', [g.op('MatMul', [att, w(n.wo)]), w(n.bo)])]);
    const ln2 = layerNorm(g, x2, w(n.ln2g), w(n.ln2b), eps);
    const fcPre = g.op('Add', [g.op('MatMul', [ln2.y, w(n.wfc)]), w(n.bfc)]);
    const act = gelu(g, fcPre);
    const x3 = g.op('Add', [x2, g.op('Add', [g.op('MatMul', [act.y, w(n.wproj)]), w(n.bproj)])]);
    layers.push({ names: n, x, ln1, q, k, v, probs, att, x2, ln2, fcPre, fcTanh: act.tanh, fcAct: act.y });
    x = x3;
  }
  const lnf = layerNorm(g, x, w('lnf.g'), w('lnf.b'), eps);
  return { layers, xFinal: x, lnf, hidden: lnf.y };
}

/** Tied LM head: logits [B, T, V] = hidden wte^T. Also returns the 2-D forms [BT, C], [BT, V]. */
export function lmHead(g: GraphBuilder, config: ModelConfig, w: WeightRef, hidden: string, tokens: string): { logits: string; hidden2d: string; logits2d: string } {
  const hidden2d = g.op('Reshape', [hidden, g.i64([-1, config.dModel])]);
  const logits2d = g.op('Gemm', [hidden2d, w('wte')], { transB: 1 });
  const outShape = g.op('Concat', [g.op('Shape', [tokens]), g.i64([config.vocabSize])], { axis: 0 });
  return { logits: g.op('Reshape', [logits2d, outShape]), hidden2d, logits2d };
}

export interface ScoreValues {
  /** [B] in (0, 1) */
  score: string;
  /** one-hot of the last real position [B, T] */
  lastOneHot: string;
  /** hidden state at the last real position [B, C] */
  hLast: string;
  /** the logit before the sigmoid [B] */
  logit: string;
}

/** Score head: sigmoid(score.w . hidden[b, lengths[b] - 1] + score.b), as in transformer.ts scoreHead. */
export function scoreHead(g: GraphBuilder, config: ModelConfig, w: WeightRef, hidden: string, tokens: string, lengths: string): ScoreValues {
  const T = g.op('Slice', [g.op('Shape', [tokens]), g.i64([1]), g.i64([2]), g.i64([0])]);
  const last = g.op('Sub', [lengths, g.i64([1], true)]);
  const lastOneHot = g.op('OneHot', [last, T, g.f32([0, 1], [2])], { axis: -1 });
  const picked = g.op('MatMul', [g.op('Unsqueeze', [lastOneHot, g.i64([1])]), hidden]);
  const hLast = g.op('Reshape', [picked, g.i64([-1, config.dModel])]);
  const z = g.op('Add', [g.op('MatMul', [hLast, w('score.w')]), w('score.b')]);
  return { score: g.op('Sigmoid', [z]), lastOneHot, hLast, logit: z };
}

