import { beforeAll, describe, expect, it } from 'vitest';
import { crossEntropyBackward, crossEntropyForward } from '../../src/model/ops/reference-ops.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeCrossEntropyBackward, encodeCrossEntropyForward } from '../../src/gpu/cross-entropy.ts';
import { closeness, randomTensor, randomTokens, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

describe('cross-entropy kernels', () => {
  for (const [rows, V, scale] of [[7, 5, 3], [4, 300, 5], [3, 64, 500]] as const) {
    it(`forward and backward match the reference, rows ${rows}, V ${V}, logit scale ${scale}`, async () => {
      const rand = seededRandom(V + rows);
      const logits = randomTensor(rand, rows * V, scale);
      const targets = randomTokens(rand, rows, V);
      targets[0] = V - 1; // the last column is reachable
      const dlogp = randomTensor(rand, rows);
      const ref = crossEntropyForward(logits, targets, rows, V);
      const refD = crossEntropyBackward(dlogp, logits, targets, ref.lse, rows, V);
      const got = await expectNoGpuError(device, async () => {
        const bl = uploadBuffer(device, logits);
        const bt = uploadBuffer(device, targets);
        const logprobs = zerosBuffer(device, rows);
        const lse = zerosBuffer(device, rows);
        const dlogits = zerosBuffer(device, rows * V);
        submit(device, (enc) => {
          encodeCrossEntropyForward(enc, device, { logits: bl, targets: bt, logprobs, lse, rows, V });
          encodeCrossEntropyBackward(enc, device, { dlogp: uploadBuffer(device, dlogp), logits: bl, targets: bt, lse, dlogits, rows, V });
        });
        return {
          logprobs: await readFloat32(device, logprobs, rows),
          lse: await readFloat32(device, lse, rows),
          dlogits: await readFloat32(device, dlogits, rows * V),
        };
      });
      expect(closeness(got.lse, ref.lse, 1e-5, 1e-6)).toBeLessThanOrEqual(1);
      expect(closeness(got.logprobs, ref.logprobs, 1e-4, 1e-5)).toBeLessThanOrEqual(1);
      expect(closeness(got.dlogits, refD, 1e-6, 1e-4)).toBeLessThanOrEqual(1);
    });
  }
});
