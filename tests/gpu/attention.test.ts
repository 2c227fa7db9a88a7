import { beforeAll, describe, expect, it } from 'vitest';
import { attentionBackward, attentionForward } from '../../src/model/ops/reference-ops.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeAttentionBackward, encodeAttentionForward } from '../../src/gpu/attention.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

describe('attention kernels', () => {
  // T = 1, T below the workgroup width, T above it (two strides of 64), odd head sizes
  for (const [B, T, H, Dh] of [[1, 1, 1, 4], [2, 9, 3, 5], [1, 70, 2, 8]] as const) {
    it(`forward and backward match the reference for B${B} T${T} H${H} Dh${Dh}`, async () => {
      const rand = seededRandom(B * 100 + T + H + Dh);
      const C = H * Dh;
      const n = B * T * C;
      const q = randomTensor(rand, n, 2);
      const k = randomTensor(rand, n, 2);
      const v = randomTensor(rand, n);
      const dout = randomTensor(rand, n);
      const ref = attentionForward(q, k, v, B, T, H, Dh);
      const refB = attentionBackward(dout, q, k, v, ref.probs, B, T, H, Dh);
      const np = B * H * T * T;
      const got = await expectNoGpuError(device, async () => {
        const [bq, bk, bv] = [uploadBuffer(device, q), uploadBuffer(device, k), uploadBuffer(device, v)];
        const out = zerosBuffer(device, n);
        // dirty outputs: kernels must write the zeros above the diagonal themselves
        const probs = uploadBuffer(device, new Float32Array(np).fill(7));
        const dscores = uploadBuffer(device, new Float32Array(np).fill(7));
        const [dq, dk, dv] = [zerosBuffer(device, n), zerosBuffer(device, n), zerosBuffer(device, n)];
        const d = { B, T, H, Dh };
        submit(device, (enc) => {
          encodeAttentionForward(enc, device, bq, bk, bv, out, probs, d);
          encodeAttentionBackward(enc, device, { dout: uploadBuffer(device, dout), q: bq, k: bk, v: bv, probs, dscores, dq, dk, dv }, d);
        });
        return {
          out: await readFloat32(device, out, n),
          probs: await readFloat32(device, probs, np),
          dq: await readFloat32(device, dq, n),
          dk: await readFloat32(device, dk, n),
          dv: await readFloat32(device, dv, n),
        };
      });
      expect(closeness(got.probs, ref.probs, 1e-6, 1e-4)).toBeLessThanOrEqual(1);
      expect(closeness(got.out, ref.out, 1e-5, 1e-4)).toBeLessThanOrEqual(1);
      expect(closeness(got.dq, refB.dq, 1e-5, 1e-3)).toBeLessThanOrEqual(1);
      expect(closeness(got.dk, refB.dk, 1e-5, 1e-3)).toBeLessThanOrEqual(1);
      expect(closeness(got.dv, refB.dv, 1e-5, 1e-4)).toBeLessThanOrEqual(1);
    });
  }
});
