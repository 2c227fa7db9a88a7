import { beforeAll, describe, expect, it } from 'vitest';
import { geluBackward, geluForward } from '../../src/model/ops/reference-ops.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeGeluBackward, encodeGeluForward } from '../../src/gpu/gelu.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

describe('gelu kernels', () => {
  it('forward and backward match the reference, including large |x|', async () => {
    const rand = seededRandom(21);
    // a ragged length (not a multiple of 256) and extreme inputs where a naive tanh overflows
    const x = Float32Array.from([...randomTensor(rand, 1000, 6), 0, -0, 30, -30, 1e4, -1e4, 88.5, -88.5]);
    const n = x.length;
    const dy = randomTensor(rand, n);
    const got = await expectNoGpuError(device, async () => {
      const bx = uploadBuffer(device, x);
      const y = zerosBuffer(device, n);
      const dx = zerosBuffer(device, n);
      submit(device, (enc) => {
        encodeGeluForward(enc, device, bx, y, n);
        encodeGeluBackward(enc, device, uploadBuffer(device, dy), bx, dx, n);
      });
      return { y: await readFloat32(device, y, n), dx: await readFloat32(device, dx, n) };
    });
    expect(closeness(got.y, geluForward(x), 1e-6, 1e-5)).toBeLessThanOrEqual(1);
    expect(closeness(got.dx, geluBackward(dy, x), 1e-6, 1e-5)).toBeLessThanOrEqual(1);
  });
});
