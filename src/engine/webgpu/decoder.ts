// Autoregressive sampling on the GPU with a KV cache: one prefill (the training forward over the
// prompt, whose keys and values are copied into the cache), then one decoding step per new token
// (KV append + single-query attention), each ending in the sampling kernel. Every sequence has its
// own seeded generator and uses exactly one uniform per generated token, as the reference sampler
// (src/model/sampling.ts) does, so the tokens agree with it whenever the logits do.

import { headDim } from '../../model/config.ts';
import type { Uniform } from '../../model/init.ts';
import { samplingCandidates, samplingWeights } from '../../model/ops/sampling.ts';
import { readFloat32, readInt32, writeBuffer } from '../../gpu/buffers.ts';
import { encodeEmbeddingForward } from '../../gpu/embedding.ts';
import { encodeKvAppend, encodeKvDecode } from '../../gpu/kvCache.ts';
import { encodeLayerNormForward } from '../../gpu/layernorm.ts';
import { encodeMatmul } from '../../gpu/matmul.ts';
import { encodeSample } from '../../gpu/sampling.ts';
import { alignUp } from './engine-buffers.ts';
import type { GpuModel } from './gpu-model.ts';
import { encodeBlockForward } from './block-forward.ts';
import { encodeForward } from './training-pass.ts';
import { copyFloats } from './tensor-slice.ts';

export interface DecodeOptions {
  maxNewTokens: number;
  /** > 0 scales logits; 0 is greedy. */
  temperature: number;
  /** 0 keeps all tokens */
  topK: number;
  /** generation of a sequence ends after this token (included) */
  stopToken: number;
  /** read back every this many steps to stop early once every sequence has stopped (default 16) */
  checkEvery?: number;
}

export interface DecodedSequence {
  /** generated tokens only */
  tokens: number[];
  /** log-prob of each token under the distribution it was drawn from (temperature, top-k; 0 when greedy) */
  logProbs: number[];
  stopped: boolean;
}

/**
 * Samples one continuation per row; all prompts must have the same length (the KV-cache kernels
 * share one position across the batch). rngs[b] supplies row b's uniforms.
 */
export async function decodeBatch(model: GpuModel, prompts: readonly (readonly number[])[], rngs: readonly Uniform[],
  options: DecodeOptions): Promise<DecodedSequence[]> {
  const { device, config } = model;
  const B = prompts.length;
  const Tp = prompts[0]?.length ?? 0;
  if (B < 1 || B > model.maxB) throw new Error(`sampling: batch of ${B} prompts is outside 1..${model.maxB}`);
  if (rngs.length !== B) throw new Error(`sampling: ${rngs.length} generators for ${B} prompts`);
  if (Tp < 1) throw new Error('sampling: the prompt must hold at least one token (bos)');
  if (prompts.some((p) => p.length !== Tp)) throw new Error('sampling: prompts of one batch must have the same length');
  if (Tp > model.maxT) throw new Error(`sampling: prompt of ${Tp} tokens exceeds the engine's ${model.maxT}`);
  if (!(options.temperature >= 0)) throw new Error(`sampling: temperature must be >= 0, got ${options.temperature}`);
  for (const p of prompts) for (const t of p) {
    if (!(Number.isInteger(t) && t >= 0 && t < config.vocabSize)) throw new Error(`sampling: token ${t} is outside the vocabulary`);
  }
  const Tctx = config.contextLength;
  const steps = Math.max(0, Math.min(options.maxNewTokens, Tctx - Tp));
  if (steps === 0) return prompts.map(() => ({ tokens: [], logProbs: [], stopped: false }));

  const bufs = model.buffers;
  const dec = bufs.decode;
  const C = config.dModel;
  const V = config.vocabSize;
  const stride = alignUp(model.maxB);
  // one uniform per generated token and sequence, drawn in each sequence's own order
  const uniforms = new Float32Array(steps * stride);
  for (let s = 0; s < steps; s++) for (let b = 0; b < B; b++) uniforms[s * stride + b] = rngs[b]();
  writeBuffer(device, dec.uniforms, uniforms);
  writeBuffer(device, bufs.tokens, Int32Array.from(prompts.flat()));

  const cfg = { temperature: options.temperature, topK: options.topK };
  const finishStep = (enc: GPUCommandEncoder, s: number): void => {
    encodeMatmul(enc, device, { a: dec.h, b: model.param('wte'), c: dec.logits, M: B, K: C, N: V, transB: true });
    copyFloats(enc, dec.uniforms, s * stride, dec.u, 0, B);
    encodeSample(enc, device, { logits: dec.logits, uniforms: dec.u, tokens: dec.tokens, rows: B, V }, cfg);
    copyFloats(enc, dec.tokens, 0, dec.historyTokens, s * B, B);
    copyFloats(enc, dec.logits, 0, dec.historyLogits, s * B * V, B * V);
  };

  // prefill: the training forward over the prompts, keys and values into the cache, last rows' logits
  let enc = device.createCommandEncoder({ label: 'prefill' });
  encodeForward(enc, model, B, Tp);
  for (let l = 0; l < config.nLayers; l++) {
    const c = bufs.layers[l];
    for (let b = 0; b < B; b++) {
      copyFloats(enc, c.k, b * Tp * C, c.kCache, b * Tctx * C, Tp * C);
      copyFloats(enc, c.v, b * Tp * C, c.vCache, b * Tctx * C, Tp * C);
    }
  }
  for (let b = 0; b < B; b++) copyFloats(enc, bufs.lnfY, (b * Tp + Tp - 1) * C, dec.h, b * C, C);
  finishStep(enc, 0);

  const checkEvery = Math.max(1, options.checkEvery ?? 16);
  let done = 1;
  let pending = true;
  while (done < steps) {
    if (!pending) enc = device.createCommandEncoder({ label: 'decode' });
    pending = true;
    const pos = Tp + done - 1; // position of the token sampled at step done - 1
    encodeDecodeStep(enc, model, B, pos);
    finishStep(enc, done);
    done++;
    if (done % checkEvery === 0 && done < steps) {
      device.queue.submit([enc.finish()]);
      pending = false;
      if (allStopped(await readInt32(device, dec.historyTokens, done * B), B, done, options.stopToken)) break;
    }
  }
  if (pending) device.queue.submit([enc.finish()]);
  const tokens = await readInt32(device, dec.historyTokens, done * B);
  const logits = await readFloat32(device, dec.historyLogits, done * B * V);
  return prompts.map((_, b) => {
    const out: DecodedSequence = { tokens: [], logProbs: [], stopped: false };
    for (let s = 0; s < done; s++) {
      out.tokens.push(tokens[s * B + b]);
      out.logProbs.push(sampledLogProb(logits.subarray((s * B + b) * V, (s * B + b + 1) * V), tokens[s * B + b], cfg));
      if (tokens[s * B + b] === options.stopToken) {
        out.stopped = true;
        break;
      }
    }
    return out;
  });
}

/** As sampleFromLogits in src/model/sampling.ts: log-prob under the tempered, top-k distribution; 0 when greedy. */
function sampledLogProb(logits: Float32Array, token: number, cfg: { temperature: number; topK: number }): number {
  if (cfg.temperature <= 0) return 0;
  const candidates = samplingCandidates(logits, cfg.topK);
  const i = candidates.indexOf(token);
  if (i < 0) return -Infinity;
  const weights = samplingWeights(logits, candidates, cfg.temperature);
  return Math.log(weights[i] / weights.reduce((a, w) => a + w, 0));
}

function allStopped(history: Int32Array, B: number, steps: number, stop: number): boolean {
  for (let b = 0; b < B; b++) {
    let stopped = false;
    for (let s = 0; s < steps && !stopped; s++) stopped = history[s * B + b] === stop;
    if (!stopped) return false;
  }
  return true;
}

/** One decoding step: decode.tokens at position pos through every block into decode.h. */
function encodeDecodeStep(enc: GPUCommandEncoder, model: GpuModel, B: number, pos: number): void {
  const { device, config } = model;
  const bufs = model.buffers;
  const dec = bufs.decode;
  const C = config.dModel;
  const eps = config.layerNormEps;
  const kv = { B, maxT: config.contextLength, H: config.nHeads, Dh: headDim(config) };
  const wpe = model.layout.byName.get('wpe')!;
  // the embedding kernel adds wpe row t of a [T, C] table; with T = 1 it reads row 0 of this copy
  copyFloats(enc, bufs.params, wpe.offset + pos * C, dec.wpeRow, 0, C);
  encodeEmbeddingForward(enc, device, dec.tokens, model.param('wte'), dec.wpeRow, dec.x, { B, T: 1, C, V: config.vocabSize });
  // the block's scratch is shared: ln1 and ln2 write the same rows, x2 and out alternate with x
  const scratch = { x: dec.x, ln1y: dec.ln, ln1mean: dec.mean, ln1rstd: dec.rstd, q: dec.q, k: dec.k, v: dec.v, att: dec.att,
    proj: dec.proj, x2: dec.x2, ln2y: dec.ln, ln2mean: dec.mean, ln2rstd: dec.rstd, fcPre: dec.fc, fcAct: dec.fcAct, out: dec.x };
  for (let l = 0; l < config.nLayers; l++) {
    const c = bufs.layers[l];
    encodeBlockForward(enc, model, l, B, scratch, (e) => {
      encodeKvAppend(e, device, dec.k, dec.v, c.kCache, c.vCache, kv, pos);
      encodeKvDecode(e, device, dec.q, c.kCache, c.vCache, dec.att, kv, pos);
    });
  }
  encodeLayerNormForward(enc, device, { x: dec.x, gamma: model.param('lnf.g'), beta: model.param('lnf.b'),
    y: dec.h, mean: dec.mean, rstd: dec.rstd, rows: B, dim: C, eps });
}
