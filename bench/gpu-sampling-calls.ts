// What one sampling call asks of the GPU API: the WebGPU policy engine samples 32 new tokens for 8
// prompts of 16 tokens (prefill included), twice, on 'mini' and 'small'; each GPU-API call the engine
// makes is counted, and the CPU time spent inside them summed. The second call shows what the caches
// (pipelines, uniforms, bind groups: src/gpu/kernel.ts) save once warm. Counts are exact and the same on
// any adapter; the times are this machine's CPU (on a software adapter, Dawn's validation and SwiftShader's
// command recording). Imports src/: load it after startNodeWebGpu() (bench/node-webgpu.ts).
import type { ConfigName } from '../src/model/config.ts';
import { namedConfig } from '../src/model/config.ts';
import { createModel } from '../src/model/init.ts';
import { GpuPolicyEngine } from '../src/engine/webgpu/gpu-policy-engine.ts';
import { mulberry32 } from '../src/primitives/random.ts';
import { benchPrompts } from './measure.ts';

export interface ApiCounts {
  dispatches: number;
  computePasses: number;
  bindGroupsMade: number;
  submits: number;
  readBacks: number;
  /** CPU ms inside the counted calls (encoder, pass, bind group, submit, map) per token step (all prompts advance one token) */
  apiMsPerStep: number;
  /** wall ms of the call per token step */
  wallMsPerStep: number;
}

const BATCH = 8;
const PROMPT = 16;
const NEW_TOKENS = 32;

/** Wraps a method of `obj` so that every call counts into `key` and its time into `ms`. */
function counted<T extends object>(obj: T, name: keyof T & string, tally: Record<string, number>, key: string, after?: (r: unknown) => unknown): void {
  const f = (obj as Record<string, unknown>)[name] as (...a: unknown[]) => unknown;
  (obj as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
    tally[key]++;
    const t0 = performance.now();
    const r = f.apply(this, args);
    tally.ms += performance.now() - t0;
    return after ? after(r) : r;
  };
}

/** Counts the GPU-API calls of two sampling calls in a row on `name` (first: caches cold; second: warm). */
export async function countSamplingCalls(device: GPUDevice, name: ConfigName): Promise<[ApiCounts, ApiCounts]> {
  const model = createModel(namedConfig(name), mulberry32(1));
  const engine = new GpuPolicyEngine(device, model.config, { maxBatch: BATCH, maxSeq: PROMPT + NEW_TOKENS }, model.params, 'bench');
  const tally: Record<string, number> = { dispatches: 0, computePasses: 0, bindGroupsMade: 0, submits: 0, readBacks: 0, encoders: 0, ms: 0 };
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
  counted(GPUBuffer.prototype, 'mapAsync', tally, 'readBacks');
  const prompts = benchPrompts(BATCH, PROMPT, model.config.vocabSize);
  const once = async (): Promise<ApiCounts> => {
    for (const k of Object.keys(tally)) tally[k] = 0;
    const t0 = performance.now();
    const out = await engine.sample(prompts, { maxNewTokens: NEW_TOKENS, temperature: 1, rngs: prompts.map((_, i) => mulberry32(i)), stopToken: -1 });
    const wall = performance.now() - t0;
    if (out.length !== BATCH || out.some((s) => s.tokens.length !== NEW_TOKENS)) throw new Error('bench: the sampling call did not return every token');
    return {
      dispatches: tally.dispatches, computePasses: tally.computePasses, bindGroupsMade: tally.bindGroupsMade,
      submits: tally.submits, readBacks: tally.readBacks, apiMsPerStep: tally.ms / NEW_TOKENS, wallMsPerStep: wall / NEW_TOKENS,
    };
  };
  try {
    const first = await once();
    const second = await once();
    return [first, second];
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
    const calls = await countSamplingCalls(device, name);
    calls.forEach((c, i) => {
      console.log(
        `sampling '${name}' (${BATCH} prompts of ${PROMPT} tokens, ${NEW_TOKENS} new), ${i === 0 ? 'first call' : 'second call'}: ` +
          `${c.dispatches} dispatches (${(c.dispatches / NEW_TOKENS).toFixed(0)} a token step, prefill included), ${c.computePasses} compute passes, ` +
          `${c.bindGroupsMade} bind groups made, ${c.submits} submits, ${c.readBacks} read-backs; ` +
          `a token step: ${c.apiMsPerStep.toFixed(2)} ms CPU inside those calls, ${c.wallMsPerStep.toFixed(1)} ms wall`,
      );
    });
  }
}
