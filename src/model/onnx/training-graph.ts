// Forward-and-backward training graphs: one onnxruntime run returns the loss and the gradient of
// every parameter. The backward is derived by hand, node for node, mirroring transformer.ts's
// backward (MatMul/Gemm with transposes, LayerNorm backward from primitives, tanh-GELU derivative,
// softmax backward, ReduceSum for biases, ScatterElements with add for the embedding rows).
//
// Two losses:
//  'lm'  inputs  params [N], tokens [B, T], targets [B, T] (token predicted by each row), coef [B, T]
//        loss = -sum_{b,t} coef[b, t] * log p(targets[b, t] | tokens[b, <=t])
//        outputs loss, logp [B, T], grad.<tensor> for every tensor but the score head.
//        SFT, RL (per-sequence weights and masks) and any per-token surrogate are choices of coef.
//  'wm'  inputs  params [N], tokens [B, T], lengths [B], targets [B] in [0, 1]
//        loss = mean_b (score_b - targets_b)^2; outputs loss, score [B], grad.<tensor> for every tensor.
//  'wm-bce'  as 'wm', loss = -mean_b [t log s + (1 - t) log(1 - s)] (s clipped for the value only);
//        the gradient on the head's logit is (s - t) / B.
//  'wm-logit-grad'  inputs params [N], tokens [B, T], lengths [B], dlogit [B]: the caller's gradient
//        of its loss on each row's logit z (a loss that couples rows, such as the pairwise one,
//        which a run over a chunk of rows cannot compute); loss = sum_b dlogit_b * z_b, whose
//        parameter gradients are the caller's loss's; outputs loss, score [B], logit [B], grad.<tensor>.
// grad.wpe covers positions 0..T-1 only ([T, C]); the caller places it in the flat array.

import type { ModelConfig } from '../config.ts';
import { headDim, mlpWidth } from '../config.ts';
import { BCE_EPS } from '../losses.ts';
import type { ParameterLayout } from '../parameter-layout.ts';
import { GraphBuilder } from './graph-builder.ts';
import type { DecoderValues, LayerNormValues, ScoreValues, WeightRef } from './transformer-graph.ts';
import { causalBias, decoder, embed, flatInputWeights, leadingPositions, lmHead, scoreHead } from './transformer-graph.ts';

export type TrainingLoss = 'lm' | 'wm' | 'wm-bce' | 'wm-logit-grad';

export const gradName = (tensor: string): string => `grad.${tensor}`;

/** Accumulates gradient contributions per tensor and sums them once at the end. */
class GradSink {
  private readonly parts = new Map<string, string[]>();
  add(tensor: string, value: string): void {
    const list = this.parts.get(tensor) ?? [];
    list.push(value);
    this.parts.set(tensor, list);
  }
  emit(g: GraphBuilder, layout: ParameterLayout): string[] {
    const names: string[] = [];
    for (const v of layout.views) {
      const list = this.parts.get(v.name);
      if (!list) continue;
      const total = list.length === 1 ? list[0] : g.op('Sum', list);
      const dims = v.name === 'wpe' ? ['T', v.shape[1]] : v.shape;
      names.push(g.output(total, gradName(v.name), 'float', dims));
    }
    return names;
  }
}

const reduceSum = (g: GraphBuilder, x: string, axes: number[], keepdims = 0): string => g.op('ReduceSum', [x, g.i64(axes)], { keepdims });

/** x [B, T, n] -> [BT, n] */
const flatten2d = (g: GraphBuilder, x: string, n: number): string => g.op('Reshape', [x, g.i64([-1, n])]);

/**
 * Backward of y = x W + b for x [B, T, nIn]: adds dW, db into the sink and returns dx [B, T, nIn].
 */
function linearBackward(g: GraphBuilder, w: WeightRef, sink: GradSink, dy: string, x: string, wName: string, bName: string, nIn: number, nOut: number): string {
  const dy2d = flatten2d(g, dy, nOut);
  sink.add(wName, g.op('Gemm', [flatten2d(g, x, nIn), dy2d], { transA: 1 }));
  sink.add(bName, reduceSum(g, dy2d, [0]));
  const dx2d = g.op('Gemm', [dy2d, w(wName)], { transB: 1 });
  return g.op('Reshape', [dx2d, g.op('Shape', [x])]);
}

/** Backward of LayerNormalization over the last axis; adds dgamma, dbeta; returns dx. */
function layerNormBackward(g: GraphBuilder, w: WeightRef, sink: GradSink, dy: string, x: string, ln: LayerNormValues, gName: string, bName: string): string {
  const xhat = g.op('Mul', [g.op('Sub', [x, ln.mean]), ln.rstd]);
  sink.add(gName, reduceSum(g, g.op('Mul', [dy, xhat]), [0, 1]));
  sink.add(bName, reduceSum(g, dy, [0, 1]));
  const gdy = g.op('Mul', [dy, w(gName)]);
  const meanG = g.op('ReduceMean', [gdy], { axes: [-1], keepdims: 1 });
  const meanGX = g.op('ReduceMean', [g.op('Mul', [gdy, xhat])], { axes: [-1], keepdims: 1 });
  return g.op('Mul', [g.op('Sub', [g.op('Sub', [gdy, meanG]), g.op('Mul', [xhat, meanGX])]), ln.rstd]);
}

const GELU_S = Math.sqrt(2 / Math.PI);
const GELU_C = 0.044715;

/** d gelu(x) / dx * dy with t = tanh(s (x + c x^3)) kept from the forward. */
function geluBackward(g: GraphBuilder, dy: string, x: string, t: string): string {
  const x2 = g.op('Mul', [x, x]);
  const du = g.op('Mul', [g.op('Add', [g.op('Mul', [x2, g.f32([3 * GELU_C])]), g.f32([1])]), g.f32([GELU_S])]);
  const dt = g.op('Mul', [g.op('Sub', [g.f32([1]), g.op('Mul', [t, t])]), du]);
  const local = g.op('Add', [g.op('Mul', [g.op('Add', [t, g.f32([1])]), g.f32([0.5])]), g.op('Mul', [g.op('Mul', [x, g.f32([0.5])]), dt])]);
  return g.op('Mul', [dy, local]);
}

/** Backward through the decoder stack and the embeddings, from dHidden [B, T, C]. */
function decoderBackward(g: GraphBuilder, config: ModelConfig, w: WeightRef, sink: GradSink, dec: DecoderValues, dHidden: string, tokens: string): void {
  const C = config.dModel;
  const H = config.nHeads;
  const Dh = headDim(config);
  const F = mlpWidth(config);
  const scale = g.f32([1 / Math.sqrt(Dh)]);
  const swapLast = { perm: [0, 1, 3, 2] };
  let dx = layerNormBackward(g, w, sink, dHidden, dec.xFinal, dec.lnf, 'lnf.g', 'lnf.b');
  for (let l = config.nLayers - 1; l >= 0; l--) {
    const c = dec.layers[l];
    const n = c.names;
    // MLP: x3 = x2 + gelu(ln2(x2) Wfc + bfc) Wproj + bproj
    const dAct = linearBackward(g, w, sink, dx, c.fcAct, n.wproj, n.bproj, F, C);
    const dPre = geluBackward(g, dAct, c.fcPre, c.fcTanh);
    const dLn2 = linearBackward(g, w, sink, dPre, c.ln2.y, n.wfc, n.bfc, C, F);
    const dx2 = g.op('Add', [dx, layerNormBackward(g, w, sink, dLn2, c.x2, c.ln2, n.ln2g, n.ln2b)]);
    // Attention: x2 = x + attn(ln1(x)) Wo + bo
    const dAtt = linearBackward(g, w, sink, dx2, c.att, n.wo, n.bo, C, C);
    const dHeads = g.op('Transpose', [g.op('Reshape', [dAtt, g.i64([0, 0, H, Dh])])], { perm: [0, 2, 1, 3] });
    const dProbs = g.op('MatMul', [dHeads, g.op('Transpose', [c.v], swapLast)]);
    const dv = g.op('MatMul', [g.op('Transpose', [c.probs], swapLast), dHeads]);
    const rowDot = g.op('ReduceSum', [g.op('Mul', [dProbs, c.probs]), g.i64([-1])], { keepdims: 1 });
    const dScores = g.op('Mul', [g.op('Mul', [c.probs, g.op('Sub', [dProbs, rowDot])]), scale]);
    const dq = g.op('MatMul', [dScores, c.k]);
    const dk = g.op('MatMul', [g.op('Transpose', [dScores], swapLast), c.q]);
    const zero = g.i64([0]);
    const stacked = g.op('Concat', [g.op('Unsqueeze', [dq, zero]), g.op('Unsqueeze', [dk, zero]), g.op('Unsqueeze', [dv, zero])], { axis: 0 });
    // [3, B, H, T, Dh] -> [B, T, 3, H, Dh] -> [B, T, 3C]: the inverse of the forward split
    const dqkv = g.op('Reshape', [g.op('Transpose', [stacked], { perm: [1, 3, 0, 2, 4] }), g.i64([0, 0, 3 * C])]);
    const dLn1 = linearBackward(g, w, sink, dqkv, c.ln1.y, n.wqkv, n.bqkv, C, 3 * C);
    dx = g.op('Add', [dx2, layerNormBackward(g, w, sink, dLn1, c.x, c.ln1, n.ln1g, n.ln1b)]);
  }
  // Embeddings: rows of wte receive the gradient of every position holding that token.
  const dx2d = flatten2d(g, dx, C);
  const rows = g.op('Expand', [g.op('Reshape', [tokens, g.i64([-1, 1])]), g.i64([1, C])]);
  const zeros = g.op('ConstantOfShape', [g.i64([config.vocabSize, C])], { value: { tensor: { dims: [1], dataType: 1, floatData: [0] } } });
  sink.add('wte', g.op('ScatterElements', [zeros, rows, dx2d], { axis: 0, reduction: 'add' }));
  sink.add('wpe', reduceSum(g, dx, [0]));
}

/** The score head's backward from dL/dz [B]: adds dw, db into the sink; returns dHidden [B, T, C]. */
function scoreHeadBackwardFromLogit(g: GraphBuilder, config: ModelConfig, w: WeightRef, sink: GradSink, head: ScoreValues, dz: string): string {
  sink.add('score.w', g.op('Reshape', [g.op('MatMul', [g.op('Unsqueeze', [dz, g.i64([0])]), head.hLast]), g.i64([config.dModel])]));
  sink.add('score.b', reduceSum(g, dz, [0], 1));
  const dhLast = g.op('Mul', [g.op('Unsqueeze', [dz, g.i64([1])]), w('score.w')]);
  return g.op('Mul', [g.op('Unsqueeze', [head.lastOneHot, g.i64([2])]), g.op('Unsqueeze', [dhLast, g.i64([1])])]);
}

export interface TrainingGraph {
  bytes: Uint8Array;
  loss: TrainingLoss;
  /** names of the gradient outputs, grad.<tensor> */
  gradOutputs: string[];
}

/**
 * The graph for one loss; with `backward: false` only the loss and logp/score outputs (a cheap
 * forward used for current or old-policy log-probabilities).
 */
export function buildTrainingGraph(config: ModelConfig, layout: ParameterLayout, loss: TrainingLoss, backward = true): TrainingGraph {
  const g = new GraphBuilder(`wmrl_${backward ? 'train' : 'eval'}_${loss}`);
  const w = flatInputWeights(g, layout);
  const tokens = g.input('tokens', 'int64', ['B', 'T']);
  const x0 = embed(g, w, tokens, leadingPositions(g, w, tokens));
  const dec = decoder(g, config, w, x0, { bias: causalBias(g, config, tokens) });
  const sink = new GradSink();
  let headBackward: () => string;
  if (loss === 'lm') {
    const targets = g.input('targets', 'int64', ['B', 'T']);
    const coef = g.input('coef', 'float', ['B', 'T']);
    const { hidden2d, logits2d } = lmHead(g, config, w, dec.hidden, tokens);
    const logsm = g.op('LogSoftmax', [logits2d], { axis: 1 });
    const target1 = g.op('Reshape', [targets, g.i64([-1])]);
    const logp2d = g.op('GatherElements', [logsm, g.op('Unsqueeze', [target1, g.i64([1])])], { axis: 1 });
    const coef2d = g.op('Reshape', [coef, g.i64([-1, 1])]);
    const total = g.op('Neg', [g.op('ReduceSum', [g.op('Mul', [coef2d, logp2d])], { keepdims: 0 })]);
    g.output(total, 'loss', 'float', []);
    g.output(g.op('Reshape', [logp2d, g.op('Shape', [tokens])]), 'logp', 'float', ['B', 'T']);
    // dL/dlogits = coef * (softmax - onehot(target)): scale the softmax, then subtract coef at the
    // target column only (a scatter of one value per row is far cheaper than a [BT, V] one-hot).
    headBackward = () => {
      const scaled = g.op('Mul', [g.op('Exp', [logsm]), coef2d]);
      const targetCol = g.op('Unsqueeze', [target1, g.i64([1])]);
      const atTarget = g.op('Sub', [g.op('GatherElements', [scaled, targetCol], { axis: 1 }), coef2d]);
      const dLogits = g.op('ScatterElements', [scaled, targetCol, atTarget], { axis: 1 });
      sink.add('wte', g.op('Gemm', [dLogits, hidden2d], { transA: 1 }));
      return g.op('Reshape', [g.op('MatMul', [dLogits, w('wte')]), g.op('Shape', [dec.hidden])]);
    };
  } else if (loss === 'wm-logit-grad') {
    const lengths = g.input('lengths', 'int64', ['B']);
    const dz = g.input('dlogit', 'float', ['B']);
    const head = scoreHead(g, config, w, dec.hidden, tokens, lengths);
    g.output(g.op('ReduceSum', [g.op('Mul', [dz, head.logit])], { keepdims: 0 }), 'loss', 'float', []);
    g.output(head.score, 'score', 'float', ['B']);
    g.output(g.op('Identity', [head.logit]), 'logit', 'float', ['B']);
    headBackward = () => scoreHeadBackwardFromLogit(g, config, w, sink, head, dz);
  } else {
    const lengths = g.input('lengths', 'int64', ['B']);
    const targets = g.input('targets', 'float', ['B']);
    const head = scoreHead(g, config, w, dec.hidden, tokens, lengths);
    const err = g.op('Sub', [head.score, targets]);
    if (loss === 'wm') g.output(g.op('ReduceMean', [g.op('Mul', [err, err])], { keepdims: 0 }), 'loss', 'float', []);
    else {
      const s = g.op('Min', [g.op('Max', [head.score, g.f32([BCE_EPS])]), g.f32([1 - BCE_EPS])]);
      const one = g.f32([1]);
      const ll = g.op('Add', [g.op('Mul', [targets, g.op('Log', [s])]), g.op('Mul', [g.op('Sub', [one, targets]), g.op('Log', [g.op('Sub', [one, s])])])]);
      g.output(g.op('Neg', [g.op('ReduceMean', [ll], { keepdims: 0 })]), 'loss', 'float', []);
    }
    g.output(head.score, 'score', 'float', ['B']);
    headBackward = () => {
      const batch = g.op('Cast', [g.op('Shape', [head.score])], { to: 1 });
      const dz = loss === 'wm'
        ? g.op('Mul', [g.op('Div', [g.op('Mul', [err, g.f32([2])]), batch]), g.op('Mul', [head.score, g.op('Sub', [g.f32([1]), head.score])])])
        : g.op('Div', [err, batch]);
      return scoreHeadBackwardFromLogit(g, config, w, sink, head, dz);
    };
  }
  if (!backward) return { bytes: g.encode(`WMRL evaluation graph (${loss}): loss only.`), loss, gradOutputs: [] };
  decoderBackward(g, config, w, sink, dec, headBackward(), tokens);
  const gradOutputs = sink.emit(g, layout);
  return { bytes: g.encode(`WMRL training graph (${loss}): loss and the gradient of every parameter.`), loss, gradOutputs };
}
