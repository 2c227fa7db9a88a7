import { beforeAll, describe, expect, it } from 'vitest';
import { matmul } from '../../src/model/ops/reference-ops.ts';
import { readFloat32, uploadBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeMatmul, matmulSpec, matmulUsesVec4 } from '../../src/gpu/matmul.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

async function gpuMatmul(a: Float32Array, b: Float32Array, M: number, K: number, N: number,
  transA: boolean, transB: boolean, c0?: Float32Array): Promise<{ got: Float32Array; entry: string }> {
  return expectNoGpuError(device, async () => {
    const ab = uploadBuffer(device, a);
    const bb = uploadBuffer(device, b);
    // without accumulation C starts dirty: the kernel must overwrite every element
    const cb = uploadBuffer(device, c0 ?? new Float32Array(M * N).fill(7));
    const args = { a: ab, b: bb, c: cb, M, K, N, transA, transB, accumulate: !!c0 };
    submit(device, (enc) => encodeMatmul(enc, device, args));
    return { got: await readFloat32(device, cb, M * N), entry: matmulSpec(args).entryPoint };
  });
}

const variants = [[false, false], [false, true], [true, false], [true, true]] as const;
const variantName = (transA: boolean, transB: boolean) => `${transA ? 'T' : 'N'}${transB ? 'T' : 'N'}`;

// [M, K, N, path per variant NN NT TN TT: v = vec4 loads, s = scalar]. The vec4 path needs the
// contiguous axis of A (K, or M if transposed), of B (N, or K if transposed) and N (C) to be multiples of 4.
const shapes: [number, number, number, string][] = [
  // ragged edges in every dimension, K not a multiple of 4 or 16, degenerate vectors
  [70, 37, 65, 'ssss'],
  [1, 5, 1, 'ssss'],
  [3, 1, 130, 'ssss'],
  [129, 17, 7, 'ssss'],
  // aligned to 4: exact tiles, ragged against the 64 tile and the 16 slice, one vec4 each way
  [64, 32, 64, 'vvvv'],
  [68, 36, 132, 'vvvv'],
  [4, 4, 4, 'vvvv'],
  // partly aligned: only some variants qualify
  [70, 36, 68, 'vvss'], // M % 4 != 0: transposed A rules it out
  [8, 6, 8, 'ssvs'], // K % 4 != 0: only TN (A [K,M], B [K,N]) reads along M and N
  [8, 12, 6, 'ssss'], // N % 4 != 0: C rows are not whole vec4s
];

describe('matmul kernel', () => {
  variants.forEach(([transA, transB], v) => {
    const name = variantName(transA, transB);
    it(`${name} matches the reference on both paths, each chosen where the shape allows`, async () => {
      const rand = seededRandom(11);
      for (const [M, K, N, paths] of shapes) {
        const a = randomTensor(rand, M * K);
        const b = randomTensor(rand, K * N);
        const want = matmul(a, b, M, K, N, transA, transB);
        const { got, entry } = await gpuMatmul(a, b, M, K, N, transA, transB);
        expect(entry, `${name} ${M}x${K}x${N} path`).toBe(paths[v] === 'v' ? 'main_vec4' : 'main');
        // fp32 sums of K products of values in [-1, 1]: absolute error grows with K
        expect(closeness(got, want, 1e-5 * K, 1e-5), `${name} ${M}x${K}x${N} (${entry})`).toBeLessThanOrEqual(1);
      }
    });
  });

  it('accumulates into C when asked, on both paths', async () => {
    const rand = seededRandom(12);
    for (const [M, K, N] of [[33, 20, 18], [36, 20, 24]]) {
      const a = randomTensor(rand, M * K);
      const b = randomTensor(rand, N * K);
      const c0 = randomTensor(rand, M * N);
      const prod = matmul(a, b, M, K, N, false, true);
      const want = prod.map((v, i) => v + c0[i]);
      const { got, entry } = await gpuMatmul(a, b, M, K, N, false, true, c0);
      expect(entry).toBe(N % 4 === 0 ? 'main_vec4' : 'main');
      expect(closeness(got, want, 1e-4, 1e-5), `${M}x${K}x${N}`).toBeLessThanOrEqual(1);
    }
  });

  it('vec4 path on 256-byte-aligned ranges of buffers (as the engine binds parameters)', async () => {
    const rand = seededRandom(13);
    const [M, K, N] = [20, 12, 28];
    const a = randomTensor(rand, M * K);
    const b = randomTensor(rand, N * K);
    const c0 = randomTensor(rand, M * N);
    // A and B as two ranges of one read-only buffer, C a range of another (a buffer may not be read
    // and written in one pass); padding around the ranges holds a sentinel that must survive
    const align = (floats: number) => Math.ceil(floats / 64) * 64; // 64 floats = 256 bytes
    const offA = 64;
    const offB = offA + align(M * K);
    const inputs = new Float32Array(offB + align(N * K)).fill(-3);
    inputs.set(a, offA);
    inputs.set(b, offB);
    const offC = 128;
    const out = new Float32Array(offC + align(M * N) + 64).fill(-3);
    out.set(c0, offC);
    const got = await expectNoGpuError(device, async () => {
      const ib = uploadBuffer(device, inputs);
      const ob = uploadBuffer(device, out);
      const range = (buffer: GPUBuffer, off: number, n: number): GPUBufferBinding => ({ buffer, offset: off * 4, size: n * 4 });
      const args = { a: range(ib, offA, M * K), b: range(ib, offB, N * K), c: range(ob, offC, M * N), M, K, N, transB: true, accumulate: true };
      expect(matmulSpec(args).entryPoint).toBe('main_vec4');
      submit(device, (enc) => encodeMatmul(enc, device, args));
      return readFloat32(device, ob, out.length);
    });
    const prod = matmul(a, b, M, K, N, false, true);
    const want = out.slice();
    want.set(prod.map((v, i) => v + c0[i]), offC);
    expect(closeness(got, want, 1e-4, 1e-5)).toBeLessThanOrEqual(1);
  });

  it('falls back to scalar loads when a binding offset is not 16-byte aligned', () => {
    const buffer = {} as GPUBuffer; // only the offsets are looked at
    const base = { M: 8, K: 8, N: 8 };
    expect(matmulUsesVec4({ ...base, a: { buffer, offset: 256 }, b: { buffer, offset: 512 }, c: { buffer } })).toBe(true);
    expect(matmulUsesVec4({ ...base, a: { buffer, offset: 8 }, b: { buffer }, c: { buffer } })).toBe(false);
    expect(matmulUsesVec4({ ...base, a: { buffer }, b: { buffer }, c: { buffer, offset: 20 } })).toBe(false);
    expect(matmulUsesVec4({ ...base, K: 0, a: { buffer }, b: { buffer }, c: { buffer } })).toBe(false);
  });
});
