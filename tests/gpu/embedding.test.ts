import { beforeAll, describe, expect, it } from 'vitest';
import { embeddingBackward, embeddingForward } from '../../src/model/ops/reference-ops.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeEmbeddingBackward, encodeEmbeddingForward } from '../../src/gpu/embedding.ts';
import { closeness, randomTensor, randomTokens, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

describe('embedding kernels', () => {
  it('forward and backward match the reference, with repeated and unused tokens', async () => {
    const rand = seededRandom(31);
    const [B, T, C, V, maxT] = [3, 11, 20, 13, 16];
    const tokens = randomTokens(rand, B * T, V - 2); // the last two vocab rows never appear
    tokens[0] = tokens[1] = tokens[5] = 4;
    const wte = randomTensor(rand, V * C);
    const wpe = randomTensor(rand, maxT * C); // a position table longer than T
    const dx = randomTensor(rand, B * T * C);
    const refX = embeddingForward(tokens, wte, wpe, B, T, C);
    const ref = embeddingBackward(dx, tokens, B, T, C, V);
    const got = await expectNoGpuError(device, async () => {
      const bt = uploadBuffer(device, tokens);
      const x = zerosBuffer(device, B * T * C);
      // dwte starts dirty: the backward must overwrite, not accumulate
      const dwte = uploadBuffer(device, randomTensor(rand, V * C));
      const dwpe = zerosBuffer(device, T * C);
      const d = { B, T, C, V };
      submit(device, (enc) => {
        encodeEmbeddingForward(enc, device, bt, uploadBuffer(device, wte), uploadBuffer(device, wpe), x, d);
        encodeEmbeddingBackward(enc, device, uploadBuffer(device, dx), bt, dwte, dwpe, d);
      });
      return {
        x: await readFloat32(device, x, B * T * C),
        dwte: await readFloat32(device, dwte, V * C),
        dwpe: await readFloat32(device, dwpe, T * C),
      };
    });
    expect(closeness(got.x, refX, 1e-7, 1e-6)).toBeLessThanOrEqual(1);
    expect(closeness(got.dwte, ref.dwte, 1e-6, 1e-5)).toBeLessThanOrEqual(1);
    expect(closeness(got.dwpe, ref.dwpe, 1e-6, 1e-5)).toBeLessThanOrEqual(1);
    expect(Array.from(got.dwte.subarray((V - 1) * C))).toEqual(new Array(C).fill(0));
  });
});
