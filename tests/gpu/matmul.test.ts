import { beforeAll, describe, expect, it } from 'vitest';
import { matmul } from '../../src/model/ops.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeMatmul } from '../../src/gpu/matmul.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

async function gpuMatmul(a: Float32Array, b: Float32Array, M: number, K: number, N: number,
  transA: boolean, transB: boolean, c0?: Float32Array): Promise<Float32Array> {
  return expectNoGpuError(device, async () => {
    const ab = uploadBuffer(device, a);
    const bb = uploadBuffer(device, b);
    const cb = c0 ? uploadBuffer(device, c0) : zerosBuffer(device, M * N);
    submit(device, (enc) => encodeMatmul(enc, device, { a: ab, b: bb, c: cb, M, K, N, transA, transB, accumulate: !!c0 }));
    return readFloat32(device, cb, M * N);
  });
}

// Shapes: exact tiles, ragged edges in every dimension, K not a multiple of 4 or 16, degenerate vectors.
const shapes: [number, number, number][] = [
  [64, 32, 64],
  [70, 37, 65],
  [1, 5, 1],
  [3, 1, 130],
  [129, 17, 7],
];

describe('matmul kernel', () => {
  for (const [transA, transB] of [[false, false], [false, true], [true, false], [true, true]] as const) {
    const name = `${transA ? 'T' : 'N'}${transB ? 'T' : 'N'}`;
    it(`${name} matches the reference on ragged shapes`, async () => {
      const rand = seededRandom(11);
      for (const [M, K, N] of shapes) {
        const a = randomTensor(rand, M * K);
        const b = randomTensor(rand, K * N);
        const want = matmul(a, b, M, K, N, transA, transB);
        const got = await gpuMatmul(a, b, M, K, N, transA, transB);
        // fp32 sums of K products of values in [-1, 1]: absolute error grows with K
        expect(closeness(got, want, 1e-5 * K, 1e-5), `${name} ${M}x${K}x${N}`).toBeLessThanOrEqual(1);
      }
    });
  }

  it('accumulates into C when asked', async () => {
    const rand = seededRandom(12);
    const [M, K, N] = [33, 20, 18];
    const a = randomTensor(rand, M * K);
    const b = randomTensor(rand, N * K);
    const c0 = randomTensor(rand, M * N);
    const prod = matmul(a, b, M, K, N, false, true);
    const want = prod.map((v, i) => v + c0[i]);
    const got = await gpuMatmul(a, b, M, K, N, false, true, c0);
    expect(closeness(got, want, 1e-4, 1e-5)).toBeLessThanOrEqual(1);
  });
});
