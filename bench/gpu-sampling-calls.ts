// What a token step of sampling asks of the GPU API: the WebGPU policy engine samples for a batch of
// ragged prompts, and every GPU-API call the engine makes is counted (dispatches, compute passes, bind
// groups made, submits, buffer maps and the bytes they read back) with the CPU time spent inside them.
// A token step's share is exact: two warm calls that differ only in the number of new tokens (a
// multiple of the decoder's 16 steps a submission) differ by that many token steps and nothing else,
// so the difference of their counts divided by the difference of their tokens is the count of one
// step; the first call (cold caches) gives the prefill's and the caches' share. Counts are the same on
// any adapter; the times are this machine's CPU (on a software adapter, Dawn's validation and
// SwiftShader's command recording). Imports src/: load it after startNodeWebGpu() (bench/node-webgpu.ts).
import type { ConfigName } from '../src/model/config.ts';
import { namedConfig } from '../src/model/config.ts';
import { createModel } from '../src/model/init.ts';
import { GpuPolicyEngine } from '../src/engine/webgpu/gpu-policy-engine.ts';
import { mulberry32 } from '../src/primitives/random.ts';

interface Tally {
  dispatches: number;
  computePasses: number;
  bindGroupsMade: number;
  submits: number;
  readBacks: number;
  readBackBytes: number;
  encoders: number;
  /** CPU ms inside the counted calls */
  ms: number;
}

export interface SamplingStepCounts {
  /** exact, per token step (every sequence advances one token) */
  dispatches_per_token_step: number;
  compute_passes_per_token_step: number;
  submits_per_token_step: number;
  /** bytes read back per token step, the whole batch */
  readback_bytes_per_token_step: number;
  readback_bytes_per_sequence_per_token_step: number;
  /** a call's dispatches besides its token steps: the prefill (training forward, cache fill, first draw) */
  prefill_dispatches: number;
  /** bind groups made by the first call (caches cold) and by a later one */
  bind_groups_made_first_call: number;
  bind_groups_made_warm_call: number;
  /** CPU ms inside the counted calls per token step, and the wall ms per token step, of the longer warm call */
  api_ms_per_token_step: number;
  wall_ms_per_token_step: number;
  /** what was counted */
  config: ConfigName;
  batch: number;
  prompt_lengths: number[];
  new_tokens: [number, number];
}

/**
 * Wraps a method of `obj` (an own property over the prototype's, so `delete` undoes it) so that every
 * call counts into `key` and its time into `ms`; `after` sees the result, the receiver and the arguments.
 */
export function counted<T extends object, K extends string>(obj: T, name: keyof T & string, tally: Record<K | 'ms', number>, key: K,
  after?: (r: unknown, self: unknown, args: unknown[]) => unknown): void {
  const f = (obj as Record<string, unknown>)[name] as (...a: unknown[]) => unknown;
  (obj as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
    tally[key]++;
    const t0 = performance.now();
    const r = f.apply(this, args);
    tally.ms += performance.now() - t0;
    return after ? after(r, this, args) : r;
  };
}

/** Ragged prompts of `batch` sequences, lengths spread over 1/2..1 of `prompt`. */
export function raggedPromptLengths(batch: number, prompt: number): number[] {
  return Array.from({ length: batch }, (_, b) => Math.max(1, prompt - Math.floor((b * prompt) / (2 * batch))));
}

/**
 * Counts the GPU-API calls of sampling on `name`: `batch` ragged prompts of at most `prompt` tokens,
 * `newTokens` (a multiple of 16) and twice that; the per-step counts are the two calls' difference.
 */
export async function countSamplingSteps(device: GPUDevice, name: ConfigName, shape: { batch: number; prompt: number; newTokens: number }): Promise<SamplingStepCounts> {
  const { batch, prompt, newTokens } = shape;
  if (!(newTokens > 0 && newTokens % 16 === 0)) throw new Error(`bench: new tokens ${newTokens} must be a positive multiple of 16`);
  const model = createModel(namedConfig(name), mulberry32(1));
  const V = model.config.vocabSize;
  if (prompt + 2 * newTokens > model.config.contextLength) throw new Error(`bench: ${prompt} + 2 x ${newTokens} tokens exceed '${name}''s context`);
  const engine = new GpuPolicyEngine(device, model.config, { maxBatch: batch, maxSeq: prompt }, model.params, 'bench');
  const lengths = raggedPromptLengths(batch, prompt);
  const rand = mulberry32(3);
  const prompts = lengths.map((n) => Array.from({ length: n }, () => Math.floor(rand() * V)));
  const tally: Tally = { dispatches: 0, computePasses: 0, bindGroupsMade: 0, submits: 0, readBacks: 0, readBackBytes: 0, encoders: 0, ms: 0 };
  const mapAsync = GPUBuffer.prototype.mapAsync;
  counted(device, 'createBindGroup', tally, 'bindGroupsMade');
  counted(device.queue, 'submit', tally, 'submits');
  counted(device, 'createCommandEncoder', tally, 'encoders', (enc) => {
    counted(enc as GPUCommandEncoder, 'beginComputePass', tally, 'computePasses', (pass) => {
      counted(pass as GPUComputePassEncoder, 'dispatchWorkgroups', tally, 'dispatches');
      return pass;
    });
    return enc;
  });
  counted(GPUBuffer.prototype, 'mapAsync', tally, 'readBacks', (r, self) => {
    tally.readBackBytes += (self as GPUBuffer).size;
    return r;
  });
  const once = async (tokens: number): Promise<Tally & { wall: number }> => {
    for (const k of Object.keys(tally) as (keyof Tally)[]) tally[k] = 0;
    const t0 = performance.now();
    const out = await engine.sample(prompts, { maxNewTokens: tokens, temperature: 1, rngs: prompts.map((_, i) => mulberry32(i)), stopToken: -1 });
    const wall = performance.now() - t0;
    if (out.length !== batch || out.some((s) => s.tokens.length !== tokens)) throw new Error('bench: the sampling call did not return every token');
    return { ...tally, wall };
  };
  try {
    const first = await once(newTokens);
    const short = await once(newTokens);
    const long = await once(2 * newTokens);
    const per = (k: keyof Tally): number => (long[k] - short[k]) / newTokens;
    return {
      dispatches_per_token_step: per('dispatches'),
      compute_passes_per_token_step: per('computePasses'),
      submits_per_token_step: per('submits'),
      readback_bytes_per_token_step: per('readBackBytes'),
      readback_bytes_per_sequence_per_token_step: per('readBackBytes') / batch,
      prefill_dispatches: short.dispatches - (newTokens - 1) * per('dispatches'),
      bind_groups_made_first_call: first.bindGroupsMade,
      bind_groups_made_warm_call: long.bindGroupsMade,
      api_ms_per_token_step: long.ms / (2 * newTokens),
      wall_ms_per_token_step: long.wall / (2 * newTokens),
      config: name,
      batch,
      prompt_lengths: lengths,
      new_tokens: [newTokens, 2 * newTokens],
    };
  } finally {
    // the wrappers are own properties over the prototypes' methods
    for (const k of ['createBindGroup', 'createCommandEncoder'] as const) delete (device as unknown as Record<string, unknown>)[k];
    delete (device.queue as unknown as Record<string, unknown>).submit;
    GPUBuffer.prototype.mapAsync = mapAsync;
    await engine.dispose();
  }
}

/** The lines bench:gpu prints. */
export async function printSamplingCalls(device: GPUDevice): Promise<void> {
  for (const name of ['mini', 'small'] as const) {
    const c = await countSamplingSteps(device, name, { batch: 8, prompt: 16, newTokens: 16 });
    console.log(
      `sampling '${name}' (${c.batch} prompts of ${c.prompt_lengths.join(', ')} tokens; ${c.new_tokens.join(' and ')} new): a token step ` +
        `${c.dispatches_per_token_step} dispatches in ${c.compute_passes_per_token_step} compute passes, ${c.submits_per_token_step} submits, ` +
        `${c.readback_bytes_per_sequence_per_token_step} bytes read back a sequence; prefill ${c.prefill_dispatches} dispatches; ` +
        `bind groups made ${c.bind_groups_made_first_call} (first call), ${c.bind_groups_made_warm_call} (warm); ` +
        `${c.api_ms_per_token_step.toFixed(2)} ms CPU inside those calls, ${c.wall_ms_per_token_step.toFixed(1)} ms wall a token step`,
    );
  }
}
