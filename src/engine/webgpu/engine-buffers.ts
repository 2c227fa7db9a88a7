// Every buffer the GPU engine holds, sized for a maximum batch maxB x maxT: all of them for a
// training engine, the forward's alone for a score-only one. The allocation is written once, generic
// over what "allocating" means: on a device it creates GPUBuffers, in planEngineMemory it only adds
// up bytes, so the memory figure reported for a configuration is the one the engine would really
// allocate.

import { mlpWidth, type ModelConfig } from '../../model/config.ts';
import { buildLayout } from '../../model/parameter-layout.ts';
import { SLICE_ALIGNMENT } from './tensor-slice.ts';

export type Allocate<T> = (label: string, elements: number) => T;

/** What one block's forward writes (kept for the backward when training). */
export interface BlockActivations<T> {
  ln1y: T; ln1mean: T; ln1rstd: T;
  q: T; k: T; v: T;
  att: T; probs: T;
  x2: T;
  ln2y: T; ln2mean: T; ln2rstd: T;
  fcPre: T; fcAct: T;
}

/** Forward caches of one block (kept for the backward) and its KV cache for decoding. */
export interface LayerBuffers<T> extends BlockActivations<T> {
  /** [maxB, contextLength, C] */
  kCache: T; vCache: T;
}

/** What a decoding call keeps on the GPU besides the KV caches (src/engine/webgpu/decoder.ts). */
export interface DecodeBuffers<T> {
  /** one token step's residual stream and queries [maxB, C] */
  x: T; q: T;
  /** one token step's logits [maxB, V] */
  logits: T;
  /** RowState of each sequence (src/gpu/kernels/decode-state.wgsl), 4 u32 a row */
  state: T;
  /** the uniforms of every step: [contextLength, B] for a call of B sequences */
  uniforms: T;
  /** sampled tokens and their log-probs' float bits [contextLength, B, 2] */
  history: T;
}

/**
 * What an engine allocates for: 'train' is the policy's (forward, LM head, backward, AdamW, decoding);
 * 'score' is the frozen world model's, which only runs the score forward (transformer, final
 * LayerNorm, score head) and so holds ForwardBuffers alone.
 */
export type EnginePurpose = 'train' | 'score';

/** What the forward and the score head read and write: all that a 'score' engine holds. */
export interface ForwardBuffers<T> {
  params: T;
  /** per layer: attn.wqkv split into Wq, Wk, Wv [C, C] and bqkv into bq, bk, bv (see qkv-split.ts) */
  qkvMirror: T;
  tokens: T;
  /** residual stream: resid[0] = embedding, resid[l + 1] = output of block l; [maxBT, C] each (two buffers in turn when scoring) */
  resid: T[];
  /** per block (one set shared by all blocks when scoring) */
  layers: BlockActivations<T>[];
  proj: T;
  lnfY: T; lnfMean: T; lnfRstd: T;
  /** each sequence's last row of lnfY [maxB, C], and its score [maxB] */
  scoreRows: T; scores: T;
}

export interface EngineBuffers<T> extends ForwardBuffers<T> {
  grads: T; adamM: T; adamV: T;
  /** the qkv mirror's split layout for one layer's gradients, scattered into grads after use */
  qkvGrad: T;
  /** [norm, clip scale] from the global-norm kernels */
  clip: T;
  /** [loss] of the last update, computed on the GPU */
  loss: T;
  layers: LayerBuffers<T>[];
  targets: T;
  logits: T; lse: T; logprobs: T; dlogp: T; dlogits: T;
  dHidden: T; dxA: T; dxB: T; dtmp: T; dFcAct: T; dFcPre: T; dAtt: T; dq: T; dk: T; dv: T; dscores: T;
  negTargets: T; scoreErr: T; dScores: T; dScoreRows: T; scoreGrad: T; scoreScale: T;
  decode: DecodeBuffers<T>;
}

export function alignUp(n: number, a: number = SLICE_ALIGNMENT): number {
  return Math.ceil(n / a) * a;
}

/** Offsets (floats) inside one layer's segment of the qkv mirror. */
export interface QkvSplitLayout {
  w: [number, number, number];
  b: [number, number, number];
  /** floats per layer segment */
  stride: number;
}

export function qkvSplitLayout(C: number): QkvSplitLayout {
  const ws = alignUp(C * C);
  const bs = alignUp(C);
  return { w: [0, ws, 2 * ws], b: [3 * ws, 3 * ws + bs, 3 * ws + 2 * bs], stride: 3 * ws + 3 * bs };
}

/**
 * The forward's buffers. Training keeps every block's activations and the whole residual stream for
 * the backward; a score forward reads each only until the next block has run, so its blocks share one
 * set of activations and its residual stream alternates between two buffers.
 */
function allocateForwardBuffers<T>(config: ModelConfig, maxB: number, maxT: number, alloc: Allocate<T>, purpose: EnginePurpose): ForwardBuffers<T> {
  const { dModel: C, nHeads: H, nLayers: L } = config;
  const F = mlpWidth(config);
  const BT = maxB * maxT;
  const block = (prefix: string): BlockActivations<T> => {
    const a = (name: string, n: number): T => alloc(`${prefix}.${name}`, n);
    return {
      ln1y: a('ln1y', BT * C), ln1mean: a('ln1mean', BT), ln1rstd: a('ln1rstd', BT),
      q: a('q', BT * C), k: a('k', BT * C), v: a('v', BT * C),
      att: a('att', BT * C), probs: a('probs', maxB * H * maxT * maxT),
      x2: a('x2', BT * C),
      ln2y: a('ln2y', BT * C), ln2mean: a('ln2mean', BT), ln2rstd: a('ln2rstd', BT),
      fcPre: a('fcPre', BT * F), fcAct: a('fcAct', BT * F),
    };
  };
  let layers: BlockActivations<T>[];
  let resid: T[];
  if (purpose === 'train') {
    layers = Array.from({ length: L }, (_, l) => block(`h${l}`));
    resid = Array.from({ length: L + 1 }, (_, i) => alloc(`resid${i}`, BT * C));
  } else {
    const shared = block('blocks');
    layers = Array.from({ length: L }, () => shared);
    const pair = [alloc('resid.even', BT * C), alloc('resid.odd', BT * C)];
    resid = Array.from({ length: L + 1 }, (_, i) => pair[i % 2]);
  }
  return {
    params: alloc('params', buildLayout(config).totalLength), qkvMirror: alloc('qkvMirror', L * qkvSplitLayout(C).stride),
    tokens: alloc('tokens', BT),
    resid, layers,
    proj: alloc('proj', BT * C),
    lnfY: alloc('lnfY', BT * C), lnfMean: alloc('lnfMean', BT), lnfRstd: alloc('lnfRstd', BT),
    scoreRows: alloc('scoreRows', maxB * C), scores: alloc('scores', maxB),
  };
}

/** Every buffer an engine of `purpose` holds: ForwardBuffers for 'score', EngineBuffers for 'train'. */
export function allocateEngineBuffers<T>(config: ModelConfig, maxB: number, maxT: number, alloc: Allocate<T>, purpose: 'train'): EngineBuffers<T>;
export function allocateEngineBuffers<T>(config: ModelConfig, maxB: number, maxT: number, alloc: Allocate<T>, purpose: 'score'): ForwardBuffers<T>;
export function allocateEngineBuffers<T>(config: ModelConfig, maxB: number, maxT: number, alloc: Allocate<T>, purpose: EnginePurpose): ForwardBuffers<T>;
export function allocateEngineBuffers<T>(config: ModelConfig, maxB: number, maxT: number, alloc: Allocate<T>, purpose: EnginePurpose): ForwardBuffers<T> {
  if (!(maxT >= 1 && maxT <= config.contextLength)) throw new Error(`engine: maxT ${maxT} is outside 1..${config.contextLength}`);
  if (!(maxB >= 1)) throw new Error(`engine: maxB must be at least 1, got ${maxB}`);
  const forward = allocateForwardBuffers(config, maxB, maxT, alloc, purpose);
  if (purpose === 'score') return forward;
  const { dModel: C, nHeads: H, vocabSize: V, contextLength: Tctx } = config;
  const F = mlpWidth(config);
  const P = buildLayout(config).totalLength;
  const BT = maxB * maxT;
  const layers: LayerBuffers<T>[] = forward.layers.map((activations, l) => ({
    ...activations, kCache: alloc(`h${l}.kCache`, maxB * Tctx * C), vCache: alloc(`h${l}.vCache`, maxB * Tctx * C),
  }));
  const d = (name: string, n: number): T => alloc(`decode.${name}`, n);
  const decode: DecodeBuffers<T> = {
    x: d('x', maxB * C), q: d('q', maxB * C), logits: d('logits', maxB * V), state: d('state', 4 * maxB),
    uniforms: d('uniforms', Tctx * maxB), history: d('history', 2 * Tctx * maxB),
  };
  const buffers: EngineBuffers<T> = {
    ...forward,
    layers,
    grads: alloc('grads', P), adamM: alloc('adam.m', P), adamV: alloc('adam.v', P),
    qkvGrad: alloc('qkvGrad', qkvSplitLayout(C).stride),
    clip: alloc('clip', 2), loss: alloc('loss', 1),
    targets: alloc('targets', BT),
    logits: alloc('logits', BT * V), lse: alloc('lse', BT), logprobs: alloc('logprobs', BT),
    dlogp: alloc('dlogp', BT), dlogits: alloc('dlogits', BT * V),
    dHidden: alloc('dHidden', BT * C), dxA: alloc('dxA', BT * C), dxB: alloc('dxB', BT * C), dtmp: alloc('dtmp', BT * C),
    dFcAct: alloc('dFcAct', BT * F), dFcPre: alloc('dFcPre', BT * F),
    dAtt: alloc('dAtt', BT * C), dq: alloc('dq', BT * C), dk: alloc('dk', BT * C), dv: alloc('dv', BT * C),
    dscores: alloc('dscores', maxB * H * maxT * maxT),
    negTargets: alloc('negTargets', maxB), scoreErr: alloc('scoreErr', maxB), dScores: alloc('dScores', maxB),
    dScoreRows: alloc('dScoreRows', maxB * C), scoreGrad: alloc('scoreGrad', C + 1), scoreScale: alloc('scoreScale', 1),
    decode,
  };
  return buffers;
}

export interface MemoryPlan {
  /** bytes of all buffers (each padded to 4 bytes, at least 4) */
  totalBytes: number;
  /** bytes per group: parameters and optimiser state, training activations, decoding */
  parametersAndOptimizer: number;
  activations: number;
  decoding: number;
  largestBuffer: { label: string; bytes: number };
}

export function bufferBytes(elements: number): number {
  return Math.max(4, elements * 4);
}

/** What an engine of `purpose` allocates for this configuration and maximum batch, without a device. */
export function planEngineMemory(config: ModelConfig, maxB: number, maxT: number, purpose: EnginePurpose = 'train'): MemoryPlan {
  const plan: MemoryPlan = { totalBytes: 0, parametersAndOptimizer: 0, activations: 0, decoding: 0, largestBuffer: { label: '', bytes: 0 } };
  allocateEngineBuffers(config, maxB, maxT, (label, n) => {
    const bytes = bufferBytes(n);
    plan.totalBytes += bytes;
    if (/^(params|grads|adam\.|qkv)/.test(label)) plan.parametersAndOptimizer += bytes;
    else if (label.startsWith('decode.') || /Cache$/.test(label)) plan.decoding += bytes;
    else plan.activations += bytes;
    if (bytes > plan.largestBuffer.bytes) plan.largestBuffer = { label, bytes };
    return bytes;
  }, purpose);
  return plan;
}
