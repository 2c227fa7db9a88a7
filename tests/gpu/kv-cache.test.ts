import { beforeAll, describe, expect, it } from 'vitest';
import { attentionForward } from '../../src/model/ops/reference-ops.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeKvAppend, encodeKvDecode } from '../../src/gpu/kvCache.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

/** Rows t of a [B, T, C] tensor as a [B, C] tensor. */
function step(x: Float32Array, B: number, T: number, C: number, t: number): Float32Array {
  const out = new Float32Array(B * C);
  for (let b = 0; b < B; b++) out.set(x.subarray((b * T + t) * C, (b * T + t + 1) * C), b * C);
  return out;
}

describe('kv cache kernels', () => {
  it('decoding step by step reproduces full causal attention', async () => {
    const rand = seededRandom(61);
    const [B, T, H, Dh, maxT] = [2, 70, 2, 5, 80]; // T past one 64-wide stride, cache longer than used
    const C = H * Dh;
    const q = randomTensor(rand, B * T * C, 2);
    const k = randomTensor(rand, B * T * C, 2);
    const v = randomTensor(rand, B * T * C);
    const ref = attentionForward(q, k, v, B, T, H, Dh).out;
    const outs = await expectNoGpuError(device, async () => {
      // stale cache contents past pos must not leak into the result
      const kc = uploadBuffer(device, new Float32Array(B * maxT * C).fill(9));
      const vc = uploadBuffer(device, new Float32Array(B * maxT * C).fill(9));
      const d = { B, maxT, H, Dh };
      const outBuffers: GPUBuffer[] = [];
      submit(device, (enc) => {
        for (let t = 0; t < T; t++) {
          const out = zerosBuffer(device, B * C);
          encodeKvAppend(enc, device, uploadBuffer(device, step(k, B, T, C, t)), uploadBuffer(device, step(v, B, T, C, t)), kc, vc, d, t);
          encodeKvDecode(enc, device, uploadBuffer(device, step(q, B, T, C, t)), kc, vc, out, d, t);
          outBuffers.push(out);
        }
      });
      return Promise.all(outBuffers.map((o) => readFloat32(device, o, B * C)));
    });
    for (let t = 0; t < T; t++) {
      expect(closeness(outs[t], step(ref, B, T, C, t), 1e-5, 1e-4), `position ${t}`).toBeLessThanOrEqual(1);
    }
  });
});
