import { beforeAll, describe, expect, it } from 'vitest';
import { scoreHeadBackward, scoreHeadForward } from '../../src/model/ops/score-head.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeScoreHeadBackward, encodeScoreHeadForward } from '../../src/gpu/score-head.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

describe('score head kernels', () => {
  it('forward and backward match the reference, saturated rows included', async () => {
    const rand = seededRandom(71);
    const [rows, C] = [6, 100];
    const x = randomTensor(rand, rows * C);
    x.fill(3, 0, C); // row 0: large positive logit, sigmoid saturates
    const w = randomTensor(rand, C).map((v) => Math.abs(v));
    const b = 0.3;
    const ds = randomTensor(rand, rows);
    const score = scoreHeadForward(x, w, b, rows, C);
    const ref = scoreHeadBackward(ds, score, x, w, rows, C);
    const got = await expectNoGpuError(device, async () => {
      const [bx, bw] = [uploadBuffer(device, x), uploadBuffer(device, w)];
      const s = zerosBuffer(device, rows);
      const dx = zerosBuffer(device, rows * C);
      const dwb = zerosBuffer(device, C + 1);
      submit(device, (enc) => {
        encodeScoreHeadForward(enc, device, bx, bw, uploadBuffer(device, Float32Array.of(b)), s, rows, C);
        encodeScoreHeadBackward(enc, device, { ds: uploadBuffer(device, ds), score: s, x: bx, w: bw, dx, dwb, rows, C });
      });
      return { s: await readFloat32(device, s, rows), dx: await readFloat32(device, dx, rows * C), dwb: await readFloat32(device, dwb, C + 1) };
    });
    expect(got.s[0]).toBeGreaterThan(0.999);
    expect(closeness(got.s, score, 1e-6, 1e-5)).toBeLessThanOrEqual(1);
    expect(closeness(got.dx, ref.dx, 1e-6, 1e-4)).toBeLessThanOrEqual(1);
    expect(closeness(got.dwb.subarray(0, C), ref.dw, 1e-6, 1e-4)).toBeLessThanOrEqual(1);
    expect(got.dwb[C]).toBeCloseTo(ref.db, 5);
  });
});
