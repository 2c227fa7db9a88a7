// GPU engine memory: the plan (computed without a device) equals what the engine allocates, for a
// training engine and a score-only one (the committed world model among them), and the 'base'
// configuration (~5M parameters) with a realistic batch of 16 x 256 fits in 1 GiB.

import { beforeAll, describe, expect, it } from 'vitest';
import { namedConfig } from '../../src/model/config.ts';
import { buildLayout } from '../../src/model/parameter-layout.ts';
import { planEngineMemory } from '../../src/engine/webgpu/engine-buffers.ts';
import { GpuModel } from '../../src/engine/webgpu/gpu-model.ts';
import { GPU_WORLD_MODEL_BATCH, GpuWorldModel } from '../../src/engine/webgpu/gpu-world-model.ts';
import { slice } from '../../src/engine/webgpu/tensor-slice.ts';
import { committedWorldModel } from './committed-world-model.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

const GiB = 1024 ** 3;
const MiB = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

describe('GPU engine memory', () => {
  it('allocates exactly the planned bytes (tiny), for training and for scoring only', async () => {
    const config = namedConfig('tiny');
    for (const purpose of ['train', 'score'] as const) {
      const model = await expectNoGpuError(device, async () => new GpuModel(device, config, { maxBatch: 3, maxSeq: 10, purpose }));
      expect(model.memoryBytes).toBe(planEngineMemory(config, 3, 10, purpose).totalBytes);
      model.destroy();
    }
    expect(planEngineMemory(config, 3, 10, 'train')).toEqual(planEngineMemory(config, 3, 10));
  });

  it('the committed world model allocates for scoring only, as planned', async () => {
    const { bytes, tokenizer, config } = committedWorldModel();
    const wm = await expectNoGpuError(device, async () => GpuWorldModel.create(device, bytes, tokenizer, config.nHeads));
    try {
      const B = GPU_WORLD_MODEL_BATCH;
      const full = planEngineMemory(config, B, config.contextLength, 'train');
      const score = planEngineMemory(config, B, config.contextLength, 'score');
      console.log(`committed world model, ${B} x ${config.contextLength}: ${MiB(score.totalBytes)} MiB scoring only (parameters ` +
        `${MiB(score.parametersAndOptimizer)}, activations ${MiB(score.activations)}, largest ${score.largestBuffer.label} ` +
        `${MiB(score.largestBuffer.bytes)}), against ${MiB(full.totalBytes)} MiB for a training engine`);
      expect(wm.memoryBytes).toBe(score.totalBytes);
      // the weights, and the qkv mirror the forward reads them through: no gradient, moment or decoding buffer
      const P = buildLayout(config).totalLength;
      expect(score.parametersAndOptimizer).toBeLessThan(2 * 4 * P);
      expect(score.decoding).toBe(0);
      expect(score.totalBytes).toBeLessThan(full.totalBytes / 4);
    } finally {
      await wm.dispose();
    }
  });

  it("'base' with a 16 x 256 batch fits in 1 GiB", () => {
    const config = namedConfig('base');
    const plan = planEngineMemory(config, 16, 256);
    const P = buildLayout(config).totalLength;
    console.log(`base (${P} floats incl. alignment), batch 16 x 256: ${(plan.totalBytes / 2 ** 20).toFixed(1)} MiB total; ` +
      `parameters+gradients+AdamW ${(plan.parametersAndOptimizer / 2 ** 20).toFixed(1)} MiB, activations ` +
      `${(plan.activations / 2 ** 20).toFixed(1)} MiB, decoding ${(plan.decoding / 2 ** 20).toFixed(1)} MiB, largest buffer ` +
      `${plan.largestBuffer.label} ${(plan.largestBuffer.bytes / 2 ** 20).toFixed(1)} MiB`);
    expect(plan.parametersAndOptimizer).toBeGreaterThanOrEqual(4 * 4 * P);
    expect(plan.totalBytes).toBeLessThan(GiB);
    // activations grow with the batch: twice the sequences, about twice the activation memory
    const twice = planEngineMemory(config, 32, 256);
    expect(twice.activations / plan.activations).toBeGreaterThan(1.9);
  });

  it('refuses a tensor range that WebGPU could not bind', () => {
    const buffer = device.createBuffer({ size: 1024, usage: GPUBufferUsage.STORAGE });
    expect(() => slice(buffer, 16, 8)).toThrow(/multiple of 64/);
    expect(() => slice(buffer, 192, 128)).toThrow(/exceeds/);
    expect(slice(buffer, 64, 192).offset).toBe(64);
    buffer.destroy();
  });
});
