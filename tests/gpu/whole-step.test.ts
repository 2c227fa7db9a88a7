// The whole training step on one WebGPU device, as the policy worker runs it when the Train view picks
// the WebGPU engine (issue 45, item 4): the policy samples and updates on its GpuPolicyEngine, and the
// frozen world model scores on a GpuWorldModel built on the same device from its ONNX export.
// 1. The committed world model scored that way matches onnxruntime-web's wasm EP (the CPU path's
//    scorer, the same ONNX file) on held-out programs.
// 2. A real Trainer.step (sampling, world-model scoring, update; the executor is the trainer tests'
//    fixture, since the sandbox stays where it is) copies no weight buffer of either engine to a
//    mappable buffer and uploads none: watched through the GPU-API call wrappers of the bench.
import { beforeAll, describe, expect, it } from 'vitest';
import { counted } from '../../bench/gpu-sampling-calls.ts';
import { WorldModelRunner } from '../../src/engine/onnx/world-model-runner.ts';
import { GpuPolicyEngine } from '../../src/engine/webgpu/gpu-policy-engine.ts';
import { GpuWorldModel } from '../../src/engine/webgpu/gpu-world-model.ts';
import { exportWorldModel } from '../../src/model/onnx/export.ts';
import { Trainer } from '../../src/training/trainer.ts';
import type { WorldModelPort } from '../../src/training/ports.ts';
import { PolicyHost } from '../../src/workers/policy-host.ts';
import { FixedTasks, FixtureExecutor, testConfig, testTokenizer, tinyPolicyModel } from '../unit/trainer/fixtures.ts';
import { committedWorldModel, heldoutPairs } from './committed-world-model.ts';
import { testDevice } from './dawn.ts';

let device: GPUDevice;

beforeAll(async () => {
  device = (await testDevice()).device;
});

/**
 * Largest |score| difference accepted between the GPU engine and onnxruntime's wasm EP. Both run the
 * same float32 transformer; they differ only in the order of their sums (tiled matmuls, workgroup
 * reductions), worth a few float32 ulps per op, about 1e-6 on a score in (0, 1) after four layers
 * (measured: 3e-8 on these programs, SwiftShader). 1e-4 leaves room for other adapters' arithmetic and stays
 * two orders below the 0.01 steps the method's rewards and calibration bins read.
 */
const SCORE_TOLERANCE = 1e-4;

describe('the world model on the policy\'s WebGPU device', { timeout: 600_000 }, () => {
  it('scores the committed world model as onnxruntime-web (wasm) does, on held-out programs', async () => {
    const { bytes, tokenizer, config } = committedWorldModel();
    // every 48th held-out sample: six programs of several tasks, lengths from short to long
    const pairs = heldoutPairs(48);
    const gpu = GpuWorldModel.create(device, bytes, tokenizer, config.nHeads, { maxBatch: 4 });
    try {
      expect(gpu.model.config.contextLength).toBe(config.contextLength);
      expect(await gpu.selfCheck()).toBeNull();
      const got = await gpu.score(pairs);
      const runner = await WorldModelRunner.create(bytes, tokenizer, config, { prefer: 'wasm', numThreads: 1 });
      const want = await runner.score(pairs);
      await runner.release();
      expect(got.scores.length).toBe(pairs.length);
      expect(got.truncated).toBe(want.truncated);
      expect(got.forwards).toBe(Math.ceil(pairs.length / 4));
      const diffs = Array.from(got.scores, (s, i) => Math.abs(s - want.scores[i]));
      console.log(`GPU engine (${got.ms.toFixed(0)} ms, ${got.forwards} forwards) vs onnxruntime wasm (${want.ms.toFixed(0)} ms, 1 thread) on ${pairs.length} held-out programs `
        + `(${want.truncated} cut at the context): max |score difference| ${Math.max(...diffs).toExponential(2)}`);
      for (const d of diffs) expect(d).toBeLessThan(SCORE_TOLERANCE);
    } finally {
      await gpu.dispose();
    }
  });

  it('a training step (sample, score, update) reads no weight buffer back and uploads none; a checkpoint does read them', async () => {
    const policyModel = tinyPolicyModel(3);
    const engine = new GpuPolicyEngine(device, policyModel.config, { maxBatch: 6 }, policyModel.params, 'test');
    const host = await PolicyHost.create(engine, testTokenizer(), { maxSampleBatch: 6 });
    const wmModel = tinyPolicyModel(11);
    const wm = GpuWorldModel.create(device, exportWorldModel(wmModel), testTokenizer(), wmModel.config.nHeads);
    const worldModel: WorldModelPort = {
      backend: wm.backend,
      score: async (pairs) => {
        const r = await wm.score(pairs);
        return { scores: Array.from(r.scores), forwards: r.forwards, busyMs: r.ms };
      },
    };
    const trainer = new Trainer(testConfig({ groupsPerStep: 3, groupSize: 2, rho: 0.5 }), { policy: host, worldModel, executor: new FixtureExecutor(), tasks: new FixedTasks() });
    // every buffer that holds weights (or their AdamW state, or their gradient) of either engine; the
    // world model's engine is score-only, so it holds its weights and their qkv mirror alone
    const { params, qkvMirror, adamM, adamV, grads } = engine.model.buffers;
    const weightBuffers = new Set<GPUBuffer>([params, qkvMirror, adamM, adamV, grads, wm.buffers.params, wm.buffers.qkvMirror]);
    const tally = { encoders: 0, copies: 0, writes: 0, submits: 0, weightReadBacks: 0, weightUploads: 0, ms: 0 };
    counted(device, 'createCommandEncoder', tally, 'encoders', (enc) => {
      counted(enc as GPUCommandEncoder, 'copyBufferToBuffer', tally, 'copies', (r, _self, args) => {
        // (source, sourceOffset, destination, ...) or (source, destination, size?)
        const destination = (args[1] instanceof GPUBuffer ? args[1] : args[2]) as GPUBuffer;
        if (weightBuffers.has(args[0] as GPUBuffer) && (destination.usage & GPUBufferUsage.MAP_READ) !== 0) tally.weightReadBacks++;
        return r;
      });
      return enc;
    });
    counted(device.queue, 'writeBuffer', tally, 'writes', (r, _self, args) => {
      if (weightBuffers.has(args[0] as GPUBuffer)) tally.weightUploads++;
      return r;
    });
    counted(device.queue, 'submit', tally, 'submits');
    try {
      for (let step = 0; step < 2; step++) {
        const record = await trainer.step();
        // all three phases ran on the device
        expect(record.worldModelCalled).toBe(true);
        expect(record.cost.counts.worldModelForwards).toBeGreaterThan(0);
        expect(record.cost.counts.updates).toBe(1);
      }
      expect(tally.submits).toBeGreaterThan(0);
      expect(tally.copies).toBeGreaterThan(0);
      expect(tally.weightReadBacks).toBe(0);
      expect(tally.weightUploads).toBe(0);
      // what the Train view's autosave does between steps: the watch sees params, m and v read back
      await trainer.checkpoint();
      expect(tally.weightReadBacks).toBe(3);
      expect(tally.weightUploads).toBe(0);
    } finally {
      delete (device as unknown as Record<string, unknown>).createCommandEncoder;
      for (const k of ['writeBuffer', 'submit']) delete (device.queue as unknown as Record<string, unknown>)[k];
      await wm.dispose();
      await host.dispose();
    }
  });
});
