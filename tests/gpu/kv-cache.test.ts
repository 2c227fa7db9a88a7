// The prefill's keys and values into the decoder's caches: every row's T positions, the rest untouched.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFloat32, uploadBuffer } from '../../src/gpu/buffers.ts';
import { kvFillKernel } from '../../src/gpu/kv-cache.ts';
import { randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, submitPass, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

describe('kv cache fill', () => {
  it('copies [rows, T, C] to positions 0..T-1 of [rows, maxT, C]', async () => {
    const rand = seededRandom(61);
    const [rows, T, C, maxT] = [3, 7, 10, 12];
    const k = randomTensor(rand, rows * T * C);
    const v = randomTensor(rand, rows * T * C);
    const [kc, vc] = await expectNoGpuError(device, async () => {
      const kCache = uploadBuffer(device, new Float32Array(rows * maxT * C).fill(9));
      const vCache = uploadBuffer(device, new Float32Array(rows * maxT * C).fill(9));
      submitPass(device, [kvFillKernel(device, { k: uploadBuffer(device, k), v: uploadBuffer(device, v), kCache, vCache, rows, T, C, maxT })]);
      return Promise.all([readFloat32(device, kCache, rows * maxT * C), readFloat32(device, vCache, rows * maxT * C)]);
    });
    for (let b = 0; b < rows; b++) {
      expect(kc.subarray(b * maxT * C, (b * maxT + T) * C)).toEqual(k.subarray(b * T * C, (b + 1) * T * C));
      expect(vc.subarray(b * maxT * C, (b * maxT + T) * C)).toEqual(v.subarray(b * T * C, (b + 1) * T * C));
      expect(kc.subarray((b * maxT + T) * C, (b + 1) * maxT * C).every((e) => e === 9)).toBe(true);
    }
  });
});
