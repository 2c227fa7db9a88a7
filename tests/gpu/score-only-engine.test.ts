// The engine allocated for scoring only (purpose 'score', as GpuWorldModel builds it) on the committed
// world model: its scores of real held-out programs are bit for bit a training engine's (same kernels,
// same weights; only the buffers differ), and every training or decoding call is refused with an Error
// naming the call, before any GPU work, the engine scoring as before afterwards.
import { beforeAll, describe, expect, it } from 'vitest';
import { counted } from '../../bench/gpu-sampling-calls.ts';
import { encodeWorldModelPairs } from '../../src/engine/world-model-batches.ts';
import { GpuPolicyEngine } from '../../src/engine/webgpu/gpu-policy-engine.ts';
import { GPU_WORLD_MODEL_BATCH, scoreBatch } from '../../src/engine/webgpu/gpu-world-model.ts';
import type { Model } from '../../src/model/init.ts';
import { modelFromExport } from '../../src/model/onnx/exported-weights.ts';
import { mulberry32 } from '../../src/primitives/random.ts';
import { committedWorldModel, heldoutPairs } from './committed-world-model.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

const committed = committedWorldModel();
const { config } = committed;
let device: GPUDevice;
let model: Model;

beforeAll(async () => {
  device = (await testDevice()).device;
  model = modelFromExport(committed.bytes, config.nHeads);
});

describe('the score-only engine', { timeout: 600_000 }, () => {
  it('scores held-out programs bit for bit as a training engine does', async () => {
    // every 26th held-out sample: 12 programs; a full batch of 8 and a partial one of 3
    const { sequences } = encodeWorldModelPairs(committed.tokenizer, config.contextLength, heldoutPairs(26));
    const batches = [scoreBatch(sequences.slice(0, GPU_WORLD_MODEL_BATCH)), scoreBatch(sequences.slice(GPU_WORLD_MODEL_BATCH, GPU_WORLD_MODEL_BATCH + 3))];
    const options = { maxBatch: GPU_WORLD_MODEL_BATCH, maxSeq: config.contextLength };
    const scoreOnly = new GpuPolicyEngine(device, config, { ...options, purpose: 'score' }, model.params);
    const full = new GpuPolicyEngine(device, config, options, model.params);
    try {
      expect(scoreOnly.memoryBytes).toBeLessThan(full.memoryBytes);
      for (const batch of batches) {
        const got = await expectNoGpuError(device, () => scoreOnly.worldModelScores(batch));
        const want = await expectNoGpuError(device, () => full.worldModelScores(batch));
        console.log(`batch of ${batch.B} x ${batch.T}: score-only ${Array.from(got, (s) => s.toFixed(4)).join(' ')}`);
        expect(got.length).toBe(batch.B);
        for (const s of got) expect(s > 0 && s < 1).toBe(true);
        expect(new Uint32Array(got.buffer)).toEqual(new Uint32Array(want.buffer));
      }
    } finally {
      await scoreOnly.dispose();
      await full.dispose();
    }
  });

  it('refuses training and decoding calls with an Error naming them, before any GPU work, and scores as before', async () => {
    const engine = new GpuPolicyEngine(device, config, { maxBatch: 2, maxSeq: 16, purpose: 'score' }, model.params);
    const { sequences } = encodeWorldModelPairs(committed.tokenizer, 16, heldoutPairs(100));
    const batch = scoreBatch(sequences.slice(0, 2));
    const prompts = sequences.map((s) => s.slice(0, 4)).slice(0, 2);
    const P = model.params.length;
    const adamw = { lr: 1e-4, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0 };
    const calls: [string, () => Promise<unknown>][] = [
      ['update', () => engine.update(batch, { kind: 'sft' }, { adamw })],
      ['gradients', () => engine.gradients(batch, { kind: 'wm', targets: [0.5, 0.5] })],
      ['logProbs', () => engine.logProbs(batch)],
      ['sample', () => engine.sample(prompts, { maxNewTokens: 4, rngs: prompts.map((_, i) => mulberry32(i)) })],
      ['sampleWith', () => engine.sampleWith(prompts, prompts.map((_, i) => mulberry32(i)), { maxNewTokens: 4 })],
      ['getGradients', () => engine.getGradients()],
      ['getOptimizerState', () => engine.getOptimizerState()],
      ['setOptimizerState', () => engine.setOptimizerState({ step: 1, m: new Float32Array(P), v: new Float32Array(P) })],
      ['resetOptimizer', async () => engine.resetOptimizer()],
      ['setWeights with resetOptimizer', () => engine.setWeights(new Float32Array(P), true)],
    ];
    try {
      const before = await engine.worldModelScores(batch);
      const tally = { encoders: 0, writes: 0, submits: 0, ms: 0 };
      counted(device, 'createCommandEncoder', tally, 'encoders');
      counted(device.queue, 'writeBuffer', tally, 'writes');
      counted(device.queue, 'submit', tally, 'submits');
      try {
        for (const [name, call] of calls) {
          await expect(call(), name).rejects.toThrow(`gpu engine: ${name} needs a training engine, but this one was allocated for scoring only`);
        }
      } finally {
        delete (device as unknown as Record<string, unknown>).createCommandEncoder;
        for (const k of ['writeBuffer', 'submit']) delete (device.queue as unknown as Record<string, unknown>)[k];
      }
      expect(tally).toMatchObject({ encoders: 0, writes: 0, submits: 0 });
      // nothing was lost: the weights are the committed ones, the scores the same
      expect(await engine.getWeights()).toEqual(model.params);
      expect(await engine.worldModelScores(batch)).toEqual(before);
    } finally {
      await engine.dispose();
    }
  });
});
