// The plain TypeScript reference forward and backward of the decoder, composed from the primitive
// ops in ./ops.ts. This is the oracle every engine is tested against, so it is written for clarity:
// each step keeps what its backward needs in a cache, and backward walks the same steps in reverse.

import { headDim, mlpWidth } from './config.ts';
import type { Model } from './init.ts';
import {
  add,
  addBias,
  addColumnSums,
  attentionBackward,
  attentionForward,
  embeddingBackward,
  embeddingForward,
  geluBackward,
  geluForward,
  layerNormBackward,
  layerNormForward,
  matmul,
} from './ops/reference-ops.ts';
import type { LayerNormForward } from './ops/reference-ops.ts';
import { scoreHeadBackward as scoreHeadOpBackward, scoreHeadForward, scoreHeadLogitBackward as scoreHeadOpLogitBackward, scoreHeadLogits as scoreHeadOpLogits } from './ops/score-head.ts';
import { layerViewNames, view } from './parameter-layout.ts';

export interface LayerCache {
  /** input of the block (residual stream) [BT, C] */
  x: Float32Array;
  ln1: LayerNormForward;
  q: Float32Array;
  k: Float32Array;
  v: Float32Array;
  /** attention output before the projection [BT, C] */
  att: Float32Array;
  probs: Float32Array;
  /** residual after attention [BT, C] */
  x2: Float32Array;
  ln2: LayerNormForward;
  /** MLP pre-activation [BT, F] */
  fcPre: Float32Array;
  /** GELU output [BT, F] */
  fcAct: Float32Array;
}

export interface ForwardCache {
  B: number;
  T: number;
  tokens: Int32Array;
  layers: LayerCache[];
  /** residual stream after the last block [BT, C] */
  xFinal: Float32Array;
  lnf: LayerNormForward;
  /** final layer-normed hidden state [BT, C]: the input of both heads */
  hidden: Float32Array;
}

function addInto(acc: Float32Array, g: Float32Array): void {
  for (let i = 0; i < g.length; i++) acc[i] += g[i];
}

function checkTokens(model: Model, tokens: Int32Array, B: number, T: number): void {
  const { vocabSize, contextLength } = model.config;
  if (T < 1 || T > contextLength) throw new Error(`forward: sequence length ${T} is outside 1..${contextLength}`);
  if (tokens.length !== B * T) throw new Error(`forward: tokens has ${tokens.length} entries, expected B*T = ${B * T}`);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t < 0 || t >= vocabSize) throw new Error(`forward: token ${t} at ${i} is outside the vocabulary (size ${vocabSize})`);
  }
}

/** Runs the decoder on tokens [B, T] and returns the final hidden states with everything backward needs. */
export function forward(model: Model, tokens: Int32Array, B: number, T: number): ForwardCache {
  checkTokens(model, tokens, B, T);
  const { config, layout, params } = model;
  const C = config.dModel;
  const H = config.nHeads;
  const Dh = headDim(config);
  const F = mlpWidth(config);
  const BT = B * T;
  const eps = config.layerNormEps;
  const p = (name: string): Float32Array => view(layout, params, name);

  let x = embeddingForward(tokens, p('wte'), p('wpe'), B, T, C);
  const layers: LayerCache[] = [];
  for (let l = 0; l < config.nLayers; l++) {
    const n = layerViewNames(l);
    const ln1 = layerNormForward(x, p(n.ln1g), p(n.ln1b), BT, C, eps);
    const qkv = matmul(ln1.y, p(n.wqkv), BT, C, 3 * C);
    addBias(qkv, p(n.bqkv), BT, 3 * C);
    const q = new Float32Array(BT * C);
    const k = new Float32Array(BT * C);
    const v = new Float32Array(BT * C);
    for (let r = 0; r < BT; r++) {
      q.set(qkv.subarray(r * 3 * C, r * 3 * C + C), r * C);
      k.set(qkv.subarray(r * 3 * C + C, r * 3 * C + 2 * C), r * C);
      v.set(qkv.subarray(r * 3 * C + 2 * C, r * 3 * C + 3 * C), r * C);
    }
    const attn = attentionForward(q, k, v, B, T, H, Dh);
    const proj = matmul(attn.out, p(n.wo), BT, C, C);
    addBias(proj, p(n.bo), BT, C);
    const x2 = add(x, proj);
    const ln2 = layerNormForward(x2, p(n.ln2g), p(n.ln2b), BT, C, eps);
    const fcPre = matmul(ln2.y, p(n.wfc), BT, C, F);
    addBias(fcPre, p(n.bfc), BT, F);
    const fcAct = geluForward(fcPre);
    const mlpOut = matmul(fcAct, p(n.wproj), BT, F, C);
    addBias(mlpOut, p(n.bproj), BT, C);
    layers.push({ x, ln1, q, k, v, att: attn.out, probs: attn.probs, x2, ln2, fcPre, fcAct });
    x = add(x2, mlpOut);
  }
  const lnf = layerNormForward(x, p('lnf.g'), p('lnf.b'), BT, C, eps);
  return { B, T, tokens, layers, xFinal: x, lnf, hidden: lnf.y };
}

/**
 * Backpropagates dHidden [BT, C] (gradient of the loss with respect to cache.hidden) through the
 * decoder and ADDS the parameter gradients into grads (flat, same layout as the parameters).
 */
export function backward(model: Model, cache: ForwardCache, dHidden: Float32Array, grads: Float32Array): void {
  const { config, layout, params } = model;
  const { B, T, tokens } = cache;
  const C = config.dModel;
  const H = config.nHeads;
  const Dh = headDim(config);
  const F = mlpWidth(config);
  const BT = B * T;
  const p = (name: string): Float32Array => view(layout, params, name);
  const g = (name: string): Float32Array => view(layout, grads, name);

  const lnf = layerNormBackward(dHidden, cache.xFinal, p('lnf.g'), cache.lnf.mean, cache.lnf.rstd, BT, C);
  addInto(g('lnf.g'), lnf.dgamma);
  addInto(g('lnf.b'), lnf.dbeta);
  let dx = lnf.dx;

  for (let l = config.nLayers - 1; l >= 0; l--) {
    const n = layerViewNames(l);
    const c = cache.layers[l];
    // MLP: x3 = x2 + gelu(ln2(x2) Wfc + bfc) Wproj + bproj
    const dMlpOut = dx;
    addColumnSums(g(n.bproj), dMlpOut, BT, C);
    addInto(g(n.wproj), matmul(c.fcAct, dMlpOut, F, BT, C, true));
    const dFcAct = matmul(dMlpOut, p(n.wproj), BT, C, F, false, true);
    const dFcPre = geluBackward(dFcAct, c.fcPre);
    addColumnSums(g(n.bfc), dFcPre, BT, F);
    addInto(g(n.wfc), matmul(c.ln2.y, dFcPre, C, BT, F, true));
    const dLn2 = matmul(dFcPre, p(n.wfc), BT, F, C, false, true);
    const ln2 = layerNormBackward(dLn2, c.x2, p(n.ln2g), c.ln2.mean, c.ln2.rstd, BT, C);
    addInto(g(n.ln2g), ln2.dgamma);
    addInto(g(n.ln2b), ln2.dbeta);
    const dx2 = add(dx, ln2.dx);

    // Attention: x2 = x + attn(ln1(x)) Wo + bo
    addColumnSums(g(n.bo), dx2, BT, C);
    addInto(g(n.wo), matmul(c.att, dx2, C, BT, C, true));
    const dAtt = matmul(dx2, p(n.wo), BT, C, C, false, true);
    const { dq, dk, dv } = attentionBackward(dAtt, c.q, c.k, c.v, c.probs, B, T, H, Dh);
    const dqkv = new Float32Array(BT * 3 * C);
    for (let r = 0; r < BT; r++) {
      dqkv.set(dq.subarray(r * C, r * C + C), r * 3 * C);
      dqkv.set(dk.subarray(r * C, r * C + C), r * 3 * C + C);
      dqkv.set(dv.subarray(r * C, r * C + C), r * 3 * C + 2 * C);
    }
    addColumnSums(g(n.bqkv), dqkv, BT, 3 * C);
    addInto(g(n.wqkv), matmul(c.ln1.y, dqkv, C, BT, 3 * C, true));
    const dLn1 = matmul(dqkv, p(n.wqkv), BT, 3 * C, C, false, true);
    const ln1 = layerNormBackward(dLn1, c.x, p(n.ln1g), c.ln1.mean, c.ln1.rstd, BT, C);
    addInto(g(n.ln1g), ln1.dgamma);
    addInto(g(n.ln1b), ln1.dbeta);
    dx = add(dx2, ln1.dx);
  }

  const emb = embeddingBackward(dx, tokens, B, T, C, config.vocabSize);
  addInto(g('wte'), emb.dwte);
  // dwpe covers positions 0..T-1 only; later positions get no gradient.
  addInto(g('wpe').subarray(0, T * C), emb.dwpe);
}

/** Logits of the tied language-model head for selected rows of the hidden state: [rows.length, V]. */
export function lmLogits(model: Model, hidden: Float32Array, rows: ArrayLike<number>): { h: Float32Array; logits: Float32Array } {
  const C = model.config.dModel;
  const h = gatherRows(hidden, rows, C);
  const wte = view(model.layout, model.params, 'wte');
  return { h, logits: matmul(h, wte, rows.length, C, model.config.vocabSize, false, true) };
}

/**
 * Backward of lmLogits: adds the head's share of the tied embedding gradient into grads and
 * scatters dh into dHidden at the selected rows.
 */
export function lmLogitsBackward(
  model: Model,
  h: Float32Array,
  rows: ArrayLike<number>,
  dLogits: Float32Array,
  dHidden: Float32Array,
  grads: Float32Array,
): void {
  const C = model.config.dModel;
  const V = model.config.vocabSize;
  const R = rows.length;
  const wte = view(model.layout, model.params, 'wte');
  addInto(view(model.layout, grads, 'wte'), matmul(dLogits, h, V, R, C, true));
  const dh = matmul(dLogits, wte, R, V, C);
  for (let i = 0; i < R; i++) {
    const o = rows[i] * C;
    for (let c = 0; c < C; c++) dHidden[o + c] += dh[i * C + c];
  }
}

export function gatherRows(x: Float32Array, rows: ArrayLike<number>, width: number): Float32Array {
  const out = new Float32Array(rows.length * width);
  for (let i = 0; i < rows.length; i++) out.set(x.subarray(rows[i] * width, rows[i] * width + width), i * width);
  return out;
}

/** World-model score per sequence: sigmoid(w . hidden[b, lengths[b]-1] + b), in (0, 1). */
export function scoreHead(model: Model, cache: ForwardCache, lengths: Int32Array): Float32Array {
  const C = model.config.dModel;
  const w = view(model.layout, model.params, 'score.w');
  const bias = view(model.layout, model.params, 'score.b')[0];
  const h = gatherRows(cache.hidden, lastRows(cache, lengths), C);
  return scoreHeadForward(h, w, bias, cache.B, C);
}

/** Backward of scoreHead given dScores [B]: adds into grads and dHidden. */
export function scoreHeadBackward(
  model: Model,
  cache: ForwardCache,
  lengths: Int32Array,
  scores: Float32Array,
  dScores: Float32Array,
  dHidden: Float32Array,
  grads: Float32Array,
): void {
  const C = model.config.dModel;
  const w = view(model.layout, model.params, 'score.w');
  const rows = lastRows(cache, lengths);
  const h = gatherRows(cache.hidden, rows, C);
  addScoreHeadGrads(model, rows, scoreHeadOpBackward(dScores, scores, h, w, cache.B, C), dHidden, grads);
}

/** The score head's logits z [B] (score = sigmoid(z)), for losses written on the logits. */
export function scoreHeadLogits(model: Model, cache: ForwardCache, lengths: Int32Array): Float64Array {
  const C = model.config.dModel;
  const w = view(model.layout, model.params, 'score.w');
  const bias = view(model.layout, model.params, 'score.b')[0];
  return scoreHeadOpLogits(gatherRows(cache.hidden, lastRows(cache, lengths), C), w, bias, cache.B, C);
}

/** Backward of scoreHeadLogits given dz [B] (the loss's gradient on each logit): adds into grads and dHidden. */
export function scoreHeadLogitBackward(model: Model, cache: ForwardCache, lengths: Int32Array, dz: ArrayLike<number>, dHidden: Float32Array, grads: Float32Array): void {
  const C = model.config.dModel;
  const w = view(model.layout, model.params, 'score.w');
  const rows = lastRows(cache, lengths);
  addScoreHeadGrads(model, rows, scoreHeadOpLogitBackward(dz, gatherRows(cache.hidden, rows, C), w, cache.B, C), dHidden, grads);
}

function addScoreHeadGrads(model: Model, rows: readonly number[], g: { dx: Float32Array; dw: Float32Array; db: number }, dHidden: Float32Array, grads: Float32Array): void {
  const C = model.config.dModel;
  addInto(view(model.layout, grads, 'score.w'), g.dw);
  view(model.layout, grads, 'score.b')[0] += g.db;
  for (let b = 0; b < rows.length; b++) {
    const o = rows[b] * C;
    for (let c = 0; c < C; c++) dHidden[o + c] += g.dx[b * C + c];
  }
}

function lastRows(cache: ForwardCache, lengths: Int32Array): number[] {
  return Array.from({ length: cache.B }, (_, b) => lastRow(cache, lengths, b));
}

function lastRow(cache: ForwardCache, lengths: Int32Array, b: number): number {
  const len = lengths[b];
  if (!(len >= 1 && len <= cache.T)) throw new Error(`score head: length ${len} of sequence ${b} is outside 1..${cache.T}`);
  return b * cache.T + len - 1;
}
