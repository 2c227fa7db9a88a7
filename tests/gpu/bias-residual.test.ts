import { beforeAll, describe, expect, it } from 'vitest';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeBiasAdd, encodeBiasGrad, encodeResidualAdd } from '../../src/gpu/bias-residual.ts';
import { add, addBias, addColumnSums } from '../../src/model/ops/reference-ops.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

describe('residual and bias kernels', () => {
  it('residual add, bias add and bias gradient match the reference ops', async () => {
    const rand = seededRandom(91);
    const [rows, C] = [37, 300];
    const a = randomTensor(rand, rows * C);
    const b = randomTensor(rand, rows * C);
    const bias = randomTensor(rand, C);
    // the reference model's own ops: the residual stream, the linear layers' bias and its gradient
    const biased = add(a, b);
    addBias(biased, bias, rows, C);
    const db = new Float32Array(C);
    addColumnSums(db, a, rows, C);
    const got = await expectNoGpuError(device, async () => {
      const ba = uploadBuffer(device, a);
      const out = zerosBuffer(device, rows * C);
      const dbias = uploadBuffer(device, randomTensor(rand, C)); // dirty: must be overwritten
      submit(device, (enc) => {
        encodeResidualAdd(enc, device, ba, uploadBuffer(device, b), out, rows, C);
        encodeBiasAdd(enc, device, out, uploadBuffer(device, bias), rows, C);
        encodeBiasGrad(enc, device, ba, dbias, rows, C);
      });
      return { out: await readFloat32(device, out, rows * C), db: await readFloat32(device, dbias, C) };
    });
    expect(closeness(got.out, biased, 1e-6, 1e-6)).toBeLessThanOrEqual(1);
    expect(closeness(got.db, db, 1e-5, 1e-5)).toBeLessThanOrEqual(1);
  });
});
