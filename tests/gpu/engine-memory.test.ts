// GPU engine memory: the plan (computed without a device) equals what the engine allocates, and the
// 'base' configuration (~5M parameters) with a realistic batch of 16 x 256 fits in 1 GiB.

import { beforeAll, describe, expect, it } from 'vitest';
import { namedConfig } from '../../src/model/config.ts';
import { buildLayout } from '../../src/model/parameter-layout.ts';
import { planEngineMemory } from '../../src/engine/webgpu/engine-buffers.ts';
import { GpuModel } from '../../src/engine/webgpu/gpu-model.ts';
import { slice } from '../../src/engine/webgpu/tensor-slice.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

const GiB = 1024 ** 3;
let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

describe('GPU engine memory', () => {
  it('allocates exactly the planned bytes (tiny)', async () => {
    const config = namedConfig('tiny');
    const model = await expectNoGpuError(device, async () => new GpuModel(device, config, { maxBatch: 3, maxSeq: 10 }));
    expect(model.memoryBytes).toBe(planEngineMemory(config, 3, 10).totalBytes);
    model.destroy();
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
