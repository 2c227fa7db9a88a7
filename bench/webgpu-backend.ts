// The 'webgpu' backend of the model benchmarks: the WebGPU policy engine (src/engine/webgpu) through the
// PolicyEngine calls the trainer uses (logProbs, gradients, update, sample) and its score-only
// world-model forward (worldModelScores), plus the engine's GPU allocation and the process RSS.
// Imports src/gpu: load it dynamically after startNodeWebGpu() (bench/node-webgpu.ts).

import type { ConfigName, ModelConfig } from '../src/model/config.ts';
import { namedConfig } from '../src/model/config.ts';
import { createModel } from '../src/model/init.ts';
import type { Model } from '../src/model/init.ts';
import { makeSequenceBatch } from '../src/model/sequence-batch.ts';
import { Tokenizer } from '../src/model/tokenizer.ts';
import type { GpuContext } from '../src/primitives/webgpu-device.ts';
import { GpuPolicyEngine } from '../src/engine/webgpu/gpu-policy-engine.ts';
import { mulberry32 } from '../src/primitives/random.ts';
import { countSamplingSteps, type SamplingStepCounts } from './gpu-sampling-calls.ts';
import { benchPrograms, benchPrompts, best, randomBatch } from './measure.ts';

export interface WebGpuShapes {
  train_batch: number;
  train_seq: number;
  sample_batch: number;
  sample_prompt: number;
  sample_new_tokens: number;
  wm_batch: number;
  wm_seq: number;
  /** why these shapes (reduced on a software adapter) */
  note: string;
}

/**
 * The engine's sampling: what a token step asks of the GPU API (exact counts, the same on any adapter,
 * bench/gpu-sampling-calls.ts) beside the tokens/s of both engines.
 */
export interface WebGpuSampling extends SamplingStepCounts {
  /** the WebGPU engine's sampling tokens/s at this backend's shapes (where only the counts were taken, at theirs) */
  tokens_per_s?: number;
  /** the CPU engine's sampling tokens/s in the same run, at its own shapes (backends['cpu-onnx-wasm'].shapes) */
  cpu_tokens_per_s?: number;
}

/** A configuration whose WebGPU figures were not measured (a software adapter): the sampling counts only. */
export interface WebGpuCountsOnly {
  sampling: WebGpuSampling;
  note: string;
}

/** The shapes the sampling counts are taken at: small on a software adapter, where a token step of 'small' takes tens of ms. */
export function samplingCountShape(s: WebGpuShapes | undefined): { batch: number; prompt: number; newTokens: number } {
  return s ? { batch: s.sample_batch, prompt: s.sample_prompt, newTokens: 16 } : { batch: 2, prompt: 8, newTokens: 16 };
}

export async function countWebGpuSampling(context: GpuContext, name: ConfigName): Promise<WebGpuCountsOnly> {
  const counts = await countSamplingSteps(context.device, name, samplingCountShape(undefined));
  return {
    // the longer counted call's rate, its prefill included
    sampling: { ...counts, tokens_per_s: (1000 * counts.batch) / counts.wall_ms_per_token_step },
    note: 'counts only: this configuration\'s other WebGPU figures were not measured (--webgpu-configs); tokens_per_s at the counts\' shapes',
  };
}

export interface WebGpuFigures {
  forward_tokens_per_s: number;
  /** PolicyEngine.gradients: forward, backward and the gradient read back (as the CPU row measures) */
  forward_backward_tokens_per_s: number;
  /** PolicyEngine.update: forward, backward, clipping and AdamW in one submission, loss and norm read back */
  update_tokens_per_s: number;
  sampling_tokens_per_s: number;
  sampling: WebGpuSampling;
  /** the engine's score-only forward (worldModelScores) over padded programs */
  world_model_programs_per_s: number;
  memory: {
    /** bytes the policy engine allocated (its memory plan, planEngineMemory) */
    policy_gpu_bytes: number;
    /** bytes the world-model engine (same class, allocated for scoring only) allocated */
    world_model_gpu_bytes: number;
    /** process RSS, highest seen at the measurement points of this backend */
    peak_rss_mb: number;
    /** policy + world model GPU bytes (MiB) + peak RSS; on a software adapter the GPU buffers live in RSS, so this counts them twice */
    total_mb: number;
    gpu_memory_counted_in_rss: boolean;
  };
  /** timed runs per figure after one warm-up run (which compiles the pipelines) */
  reps: number;
  /** wall time of this backend's measurements, warm-ups included */
  seconds: number;
  shapes: WebGpuShapes;
}

/** Full shapes (those of the CPU rows) on a real adapter; small ones on a software one, where every figure takes seconds. */
export function webGpuShapes(config: ModelConfig, isSoftware: boolean): WebGpuShapes {
  const T = config.contextLength;
  if (isSoftware) {
    return {
      train_batch: 2, train_seq: Math.min(T, 64), sample_batch: 2, sample_prompt: 8, sample_new_tokens: Math.min(16, T - 8),
      wm_batch: 4, wm_seq: Math.min(T, 64),
      note: 'reduced for a software adapter (SwiftShader): figures check that the path runs, they say nothing about GPU speed',
    };
  }
  return {
    train_batch: Math.max(1, Math.min(16, Math.floor(4096 / T))), train_seq: T, sample_batch: 8, sample_prompt: 16,
    sample_new_tokens: Math.min(64, T - 16), wm_batch: 32, wm_seq: Math.min(T, 200),
    note: 'the CPU rows\' shapes',
  };
}

export async function benchWebGpuConfig(context: GpuContext, name: ConfigName, model: Model): Promise<WebGpuFigures> {
  const { device, info } = context;
  const config = model.config;
  const s = webGpuShapes(config, info.isSoftware);
  const reps = info.isSoftware ? 1 : 3;
  const t0 = performance.now();
  let peakRss = process.memoryUsage().rss;
  const noteRss = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));

  const engine = new GpuPolicyEngine(device, config, { maxBatch: Math.max(s.train_batch, s.sample_batch), maxSeq: s.train_seq },
    model.params, info.name);
  const tokenizer = new Tokenizer([]);
  const wmModel = createModel(namedConfig(name, { vocabSize: Math.max(config.vocabSize, tokenizer.vocabSize) }), mulberry32(2));
  const wm = new GpuPolicyEngine(device, wmModel.config, { maxBatch: s.wm_batch, maxSeq: s.wm_seq, purpose: 'score' }, wmModel.params, info.name);
  try {
    const batch = randomBatch(model, s.train_batch, s.train_seq, 5);
    const forward = () => engine.logProbs(batch);
    await forward();
    const fwd = await best(reps, forward);
    noteRss();

    const grads = () => engine.gradients(batch, { kind: 'sft' });
    await grads();
    const fb = await best(reps, grads);
    noteRss();

    const step = () => engine.update(batch, { kind: 'sft' }, { adamw: { lr: 1e-4, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0 }, maxGradNorm: 1 });
    await step();
    const up = await best(reps, step);
    noteRss();

    const prompts = benchPrompts(s.sample_batch, s.sample_prompt, config.vocabSize);
    const sampleOnce = () => engine.sample(prompts, { maxNewTokens: s.sample_new_tokens, temperature: 1, rngs: prompts.map((_, i) => mulberry32(i)), stopToken: -1 });
    await sampleOnce();
    const ss = await best(reps, sampleOnce);
    const counts = await countSamplingSteps(device, name, samplingCountShape(s));
    noteRss();

    const programs = makeSequenceBatch(benchPrograms(s.wm_batch, s.wm_seq).map((tokens) => ({ tokens, programStart: 1 })), s.wm_seq);
    const score = () => wm.worldModelScores(programs);
    const scores = await score();
    if (!scores.every((x) => x > 0 && x < 1)) throw new Error('webgpu bench: world-model scores outside (0, 1)');
    const ws = await best(reps, score);
    noteRss();

    const gpuBytes = engine.memoryBytes + wm.memoryBytes;
    const peakMb = peakRss / 2 ** 20;
    return {
      forward_tokens_per_s: (s.train_batch * s.train_seq) / fwd,
      forward_backward_tokens_per_s: (s.train_batch * s.train_seq) / fb,
      update_tokens_per_s: (s.train_batch * s.train_seq) / up,
      sampling_tokens_per_s: (s.sample_batch * s.sample_new_tokens) / ss,
      sampling: { ...counts, tokens_per_s: (s.sample_batch * s.sample_new_tokens) / ss },
      world_model_programs_per_s: s.wm_batch / ws,
      memory: {
        policy_gpu_bytes: engine.memoryBytes,
        world_model_gpu_bytes: wm.memoryBytes,
        peak_rss_mb: Math.round(peakMb),
        total_mb: Math.round(gpuBytes / 2 ** 20 + peakMb),
        gpu_memory_counted_in_rss: info.isSoftware,
      },
      reps,
      seconds: (performance.now() - t0) / 1000,
      shapes: s,
    };
  } finally {
    await engine.dispose();
    await wm.dispose();
  }
}
