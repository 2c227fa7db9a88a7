// Autoregressive sampling on the GPU with a KV cache, for a batch of prompts of any lengths: one
// prefill (the training forward over the right-padded prompts; its keys and values go to the caches),
// then token steps, each a fixed list of fused kernels (2 a layer, the head, the sampler) recorded
// into a compute pass with the same bind groups every step. Positions, input tokens and the stop
// state live per sequence on the GPU (src/gpu/kernels/decode-state.wgsl): the sampled token is fed
// back there, so the host only submits, checks every few steps whether all sequences have finished,
// and reads the tokens and their log-probs at the end. Every sequence has its own seeded generator and
// uses exactly one uniform per generated token, as the reference sampler (src/model/sampling.ts)
// does, so the tokens agree with it whenever the logits do.

import { mlpWidth } from '../../model/config.ts';
import type { Uniform } from '../../model/init.ts';
import { layerViewNames } from '../../model/parameter-layout.ts';
import { encodeReadback, writeBuffer } from '../../gpu/buffers.ts';
import { decodeAttnMlpKernel } from '../../gpu/decode-attn-mlp.ts';
import { decodeLogitsKernel } from '../../gpu/decode-logits.ts';
import { decodeQkvKernel } from '../../gpu/decode-qkv.ts';
import type { DecodeDims } from '../../gpu/decode-row.ts';
import { type Dispatch, encodeDispatches } from '../../gpu/kernel.ts';
import { kvFillKernel } from '../../gpu/kv-cache.ts';
import { NO_STOP_TOKEN, samplingKernel } from '../../gpu/sampling.ts';
import type { GpuModel } from './gpu-model.ts';
import { encodeForward } from './training-pass.ts';

export interface DecodeOptions {
  maxNewTokens: number;
  /** > 0 scales logits; 0 is greedy. */
  temperature: number;
  /** 0 keeps all tokens */
  topK: number;
  /** generation of a sequence ends after this token (included); a negative token never ends it */
  stopToken: number;
  /** token steps per submission; between two, the host checks whether every sequence has finished (default 16) */
  checkEvery?: number;
}

export interface DecodedSequence {
  /** generated tokens only */
  tokens: number[];
  /** log-prob of each token under the distribution it was drawn from (temperature, top-k; 0 when greedy) */
  logProbs: number[];
  stopped: boolean;
}

/** The kernels of one call: the prefill's tail (caches, first logits, first draw) and one token step. */
interface DecodeKernels {
  prefill: Dispatch[];
  step: Dispatch[];
}

/**
 * Samples one continuation per prompt; prompts may have different lengths. rngs[b] supplies row b's
 * uniforms. Each generator is advanced by min(maxNewTokens, context left after its prompt) draws up
 * front, even if its sequence stops earlier; the draws used are the reference sampler's.
 */
export async function decodeBatch(model: GpuModel, prompts: readonly (readonly number[])[], rngs: readonly Uniform[],
  options: DecodeOptions): Promise<DecodedSequence[]> {
  const { device, config } = model;
  const B = prompts.length;
  if (B < 1 || B > model.maxB) throw new Error(`sampling: batch of ${B} prompts is outside 1..${model.maxB}`);
  if (rngs.length !== B) throw new Error(`sampling: ${rngs.length} generators for ${B} prompts`);
  if (prompts.some((p) => p.length < 1)) throw new Error('sampling: every prompt must hold at least one token (bos)');
  const Tp = Math.max(...prompts.map((p) => p.length));
  if (Tp > model.maxT) throw new Error(`sampling: prompt of ${Tp} tokens exceeds the engine's ${model.maxT}`);
  if (!(options.temperature >= 0)) throw new Error(`sampling: temperature must be >= 0, got ${options.temperature}`);
  if (!(Number.isInteger(options.maxNewTokens) && options.maxNewTokens >= 0)) {
    throw new Error(`sampling: maxNewTokens must be a whole number >= 0, got ${options.maxNewTokens}`);
  }
  if (!Number.isInteger(options.stopToken)) throw new Error(`sampling: the stop token must be an integer, got ${options.stopToken}`);
  for (const p of prompts) for (const t of p) {
    if (!(Number.isInteger(t) && t >= 0 && t < config.vocabSize)) throw new Error(`sampling: token ${t} is outside the vocabulary`);
  }
  const Tctx = config.contextLength;
  const limits = prompts.map((p) => Math.max(0, Math.min(options.maxNewTokens, Tctx - p.length)));
  const steps = Math.max(...limits);
  if (steps === 0) return prompts.map(() => ({ tokens: [], logProbs: [], stopped: false }));

  const dec = model.buffers.decode;
  // one uniform per generated token and sequence, drawn in each sequence's own order
  const uniforms = new Float32Array(steps * B);
  for (let b = 0; b < B; b++) for (let s = 0; s < limits[b]; s++) uniforms[s * B + b] = rngs[b]();
  writeBuffer(device, dec.uniforms, uniforms);
  // right-padded prompts: causal attention keeps the padding out of every real position
  const tokens = new Int32Array(B * Tp);
  prompts.forEach((p, b) => tokens.set(p, b * Tp));
  writeBuffer(device, model.buffers.tokens, tokens);
  writeBuffer(device, dec.state, Uint32Array.from(prompts.flatMap((p, b) => [p.length - 1, p[p.length - 1], 0, limits[b]])));

  const kernels = decodeKernels(model, B, Tp, options);
  const checkEvery = Math.max(1, options.checkEvery ?? 16);
  let enc = device.createCommandEncoder({ label: 'prefill' });
  encodeForward(enc, model, B, Tp);
  let pass = enc.beginComputePass({ label: 'decode' });
  encodeDispatches(pass, kernels.prefill);
  let done = 1; // token steps encoded; the prefill's draw is step 0
  let readHistory: (() => Promise<ArrayBuffer>) | undefined;
  for (;;) {
    while (done < steps && done % checkEvery !== 0) {
      encodeDispatches(pass, kernels.step);
      done++;
    }
    pass.end();
    const last = done >= steps;
    // the last submission carries the history's read-back; the others, the rows' state
    const read = last ? undefined : encodeReadback(enc, device, dec.state, 16 * B);
    if (last) readHistory = encodeReadback(enc, device, dec.history, 8 * done * B);
    device.queue.submit([enc.finish()]);
    if (last || allFinished(new Uint32Array(await read!()))) break;
    enc = device.createCommandEncoder({ label: 'decode' });
    pass = enc.beginComputePass({ label: 'decode' });
    encodeDispatches(pass, kernels.step);
    done++;
  }
  if (!readHistory) {
    const enc2 = device.createCommandEncoder({ label: 'history' });
    readHistory = encodeReadback(enc2, device, dec.history, 8 * done * B);
    device.queue.submit([enc2.finish()]);
  }
  const raw = await readHistory();
  const ids = new Uint32Array(raw);
  const logProbs = new Float32Array(raw);
  return prompts.map((_, b) => {
    const out: DecodedSequence = { tokens: [], logProbs: [], stopped: false };
    for (let s = 0; s < Math.min(done, limits[b]); s++) {
      const token = ids[2 * (s * B + b)];
      out.tokens.push(token);
      out.logProbs.push(logProbs[2 * (s * B + b) + 1]);
      if (token === options.stopToken) {
        out.stopped = true;
        break;
      }
    }
    return out;
  });
}

/** Whether every row's state (pos, token, step, limit) says it has finished. */
function allFinished(state: Uint32Array): boolean {
  for (let i = 0; i < state.length; i += 4) if (state[i + 2] < state[i + 3]) return false;
  return true;
}

function decodeKernels(model: GpuModel, B: number, Tp: number, options: DecodeOptions): DecodeKernels {
  const { device, config } = model;
  const bufs = model.buffers;
  const dec = bufs.decode;
  const at = (name: string): number => model.layout.byName.get(name)!.offset;
  const dims: DecodeDims = { C: config.dModel, H: config.nHeads, F: mlpWidth(config), V: config.vocabSize,
    maxT: config.contextLength, eps: config.layerNormEps };
  const weights = bufs.params;
  const state = dec.state;
  const head = (x: GPUBuffer, rowStride: number, atPos: boolean): Dispatch[] => [
    decodeLogitsKernel(device, { weights, lnG: at('lnf.g'), lnB: at('lnf.b'), wte: at('wte'), state, x, rowStride, atPos,
      logits: dec.logits, rows: B, dims }),
    samplingKernel(device, { logits: dec.logits, uniforms: dec.uniforms, stride: B, state, history: dec.history, rows: B,
      V: config.vocabSize, stopToken: options.stopToken >= 0 ? options.stopToken : NO_STOP_TOKEN },
    { temperature: options.temperature, topK: options.topK }),
  ];
  const prefill = [
    ...bufs.layers.map((c) => kvFillKernel(device, { k: c.k, v: c.v, kCache: c.kCache, vCache: c.vCache, rows: B, T: Tp,
      C: config.dModel, maxT: config.contextLength })),
    ...head(bufs.resid[config.nLayers], Tp, true),
  ];
  const step = bufs.layers.flatMap((c, l) => {
    const n = layerViewNames(l);
    const cache = { state, x: dec.x, q: dec.q, kCache: c.kCache, vCache: c.vCache, rows: B, dims, weights };
    return [
      decodeQkvKernel(device, { ...cache, lnG: at(n.ln1g), lnB: at(n.ln1b), wqkv: at(n.wqkv), bqkv: at(n.bqkv),
        embed: l === 0 ? { wte: at('wte'), wpe: at('wpe') } : undefined }),
      decodeAttnMlpKernel(device, { ...cache, wo: at(n.wo), bo: at(n.bo), lnG: at(n.ln2g), lnB: at(n.ln2b),
        wfc: at(n.wfc), bfc: at(n.bfc), wproj: at(n.wproj), bproj: at(n.bproj) }),
    ];
  });
  step.push(...head(dec.x, 1, false));
  return { prefill, step };
}
