import { beforeAll, describe, expect, it } from 'vitest';
import { adamwStep, clipByGlobalNorm, globalNorm } from '../../src/model/ops/reference-ops.ts';
import { createStorageBuffer, readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeAdamW, encodeGlobalNorm } from '../../src/gpu/adamw.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

const cfg = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1 };

describe('global norm and AdamW kernels', () => {
  it('global norm over several tensors matches the reference, large tensors use many partials', async () => {
    const rand = seededRandom(41);
    const grads = [randomTensor(rand, 3), randomTensor(rand, 1000), randomTensor(rand, 70_001)];
    const got = await expectNoGpuError(device, async () => {
      const out = createStorageBuffer(device, 8);
      submit(device, (enc) => encodeGlobalNorm(enc, device, grads.map((g) => ({ buffer: uploadBuffer(device, g), n: g.length })), out, 0));
      return readFloat32(device, out, 2);
    });
    expect(got[0]).toBeCloseTo(globalNorm(grads), 2);
    expect(Math.abs(got[0] / globalNorm(grads) - 1)).toBeLessThan(1e-5);
    expect(got[1]).toBe(1);
  });

  it('norms of the same shape in one submission share the kept partials buffer and each is right; a later one creates no buffer', async () => {
    const rand = seededRandom(43);
    const a = [randomTensor(rand, 900)];
    const b = [randomTensor(rand, 900)];
    const outs = [createStorageBuffer(device, 8), createStorageBuffer(device, 8)];
    const up = (gs: Float32Array[]) => gs.map((g) => ({ buffer: uploadBuffer(device, g), n: g.length }));
    const [ga, gb] = [up(a), up(b)];
    const got = await expectNoGpuError(device, async () => {
      submit(device, (enc) => {
        encodeGlobalNorm(enc, device, ga, outs[0], 0);
        encodeGlobalNorm(enc, device, gb, outs[1], 0);
      });
      return [await readFloat32(device, outs[0], 2), await readFloat32(device, outs[1], 2)];
    });
    expect(Math.abs(got[0][0] / globalNorm(a) - 1)).toBeLessThan(1e-5);
    expect(Math.abs(got[1][0] / globalNorm(b) - 1)).toBeLessThan(1e-5);
    const create = device.createBuffer.bind(device);
    let created = 0;
    device.createBuffer = (d: GPUBufferDescriptor) => (created++, create(d));
    try {
      submit(device, (enc) => encodeGlobalNorm(enc, device, ga, outs[0], 0));
    } finally {
      device.createBuffer = create;
    }
    expect(created).toBe(0);
  });

  for (const maxNorm of [0.5, 1e6]) {
    it(`several steps with clipping at ${maxNorm} track the reference`, async () => {
      const rand = seededRandom(42);
      const sizes = [5, 300];
      const params = sizes.map((n) => randomTensor(rand, n));
      const m = sizes.map((n) => new Float32Array(n));
      const v = sizes.map((n) => new Float32Array(n));
      const gpu = sizes.map((n, i) => ({
        params: uploadBuffer(device, params[i]), m: zerosBuffer(device, n), v: zerosBuffer(device, n),
        grads: zerosBuffer(device, n), n,
      }));
      const norm = createStorageBuffer(device, 8);
      let lastScale = 1;
      for (let step = 1; step <= 4; step++) {
        const grads = sizes.map((n) => randomTensor(rand, n, 2));
        gpu.forEach((t, i) => device.queue.writeBuffer(t.grads, 0, grads[i]));
        await expectNoGpuError(device, async () => {
          submit(device, (enc) => {
            encodeGlobalNorm(enc, device, gpu.map((t) => ({ buffer: t.grads, n: t.n })), norm, maxNorm);
            encodeAdamW(enc, device, gpu, norm, step, cfg);
          });
        });
        lastScale = clipByGlobalNorm(grads, maxNorm);
        sizes.forEach((_, i) => adamwStep(params[i], grads[i], m[i], v[i], step, cfg));
      }
      const [gotNorm, gotScale] = await readFloat32(device, norm, 2);
      expect(Math.abs(gotScale - lastScale)).toBeLessThan(1e-5);
      expect(gotNorm).toBeGreaterThan(0);
      if (maxNorm < 1) expect(gotScale).toBeLessThan(1);
      for (let i = 0; i < sizes.length; i++) {
        expect(closeness(await readFloat32(device, gpu[i].params, sizes[i]), params[i], 1e-5, 1e-5)).toBeLessThanOrEqual(1);
        expect(closeness(await readFloat32(device, gpu[i].m, sizes[i]), m[i], 1e-6, 1e-4)).toBeLessThanOrEqual(1);
        expect(closeness(await readFloat32(device, gpu[i].v, sizes[i]), v[i], 1e-6, 1e-4)).toBeLessThanOrEqual(1);
      }
    });
  }
});
