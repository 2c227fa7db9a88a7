import { beforeAll, describe, expect, it } from 'vitest';
import { layerNormBackward, layerNormForward } from '../../src/model/ops/reference-ops.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeLayerNormBackward, encodeLayerNormForward } from '../../src/gpu/layernorm.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

describe('layer norm kernels', () => {
  // dims below, at and above the 64-wide workgroup, not multiples of it; one row set with a large offset
  for (const [rows, dim, offset] of [[5, 7, 0], [3, 64, 0], [9, 200, 0], [4, 96, 100]] as const) {
    it(`forward and backward match the reference for ${rows}x${dim} (offset ${offset})`, async () => {
      const rand = seededRandom(rows * 1000 + dim);
      const x = randomTensor(rand, rows * dim, 2).map((v) => v + offset);
      const gamma = randomTensor(rand, dim);
      const beta = randomTensor(rand, dim);
      const dy = randomTensor(rand, rows * dim);
      const ref = layerNormForward(x, gamma, beta, rows, dim);
      const refB = layerNormBackward(dy, x, gamma, ref.mean, ref.rstd, rows, dim);
      const got = await expectNoGpuError(device, async () => {
        const bx = uploadBuffer(device, x);
        const bg = uploadBuffer(device, gamma);
        const y = zerosBuffer(device, rows * dim);
        const mean = zerosBuffer(device, rows);
        const rstd = zerosBuffer(device, rows);
        const dx = zerosBuffer(device, rows * dim);
        const dgamma = zerosBuffer(device, dim);
        const dbeta = zerosBuffer(device, dim);
        submit(device, (enc) => {
          encodeLayerNormForward(enc, device, { x: bx, gamma: bg, beta: uploadBuffer(device, beta), y, mean, rstd, rows, dim });
          encodeLayerNormBackward(enc, device, { dy: uploadBuffer(device, dy), x: bx, gamma: bg, mean, rstd, dx, dgamma, dbeta, rows, dim });
        });
        return {
          y: await readFloat32(device, y, rows * dim),
          mean: await readFloat32(device, mean, rows),
          rstd: await readFloat32(device, rstd, rows),
          dx: await readFloat32(device, dx, rows * dim),
          dgamma: await readFloat32(device, dgamma, dim),
          dbeta: await readFloat32(device, dbeta, dim),
        };
      });
      expect(closeness(got.mean, ref.mean, 1e-5, 1e-6)).toBeLessThanOrEqual(1);
      expect(closeness(got.rstd, ref.rstd, 1e-5, 1e-4)).toBeLessThanOrEqual(1);
      // with a large offset, fp32 x - mean keeps ~1e-5 absolute error: scaled by rstd
      const atol = offset ? 1e-3 : 2e-5;
      expect(closeness(got.y, ref.y, atol, 1e-4)).toBeLessThanOrEqual(1);
      expect(closeness(got.dx, refB.dx, atol * 2, 1e-4)).toBeLessThanOrEqual(1);
      expect(closeness(got.dgamma, refB.dgamma, atol * rows, 1e-4)).toBeLessThanOrEqual(1);
      expect(closeness(got.dbeta, refB.dbeta, 1e-5 * rows, 1e-5)).toBeLessThanOrEqual(1);
    });
  }
});
