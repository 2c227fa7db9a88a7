// decode-logits.wgsl against the reference: final layer norm and the tied head's logits, for a token
// step's rows and for the prefill's rows picked at each prompt's last position.
import { beforeAll, describe, expect, it } from 'vitest';
import { layerNormForward } from '../../src/model/ops/reference-ops.ts';
import { lmLogits } from '../../src/model/transformer.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { decodeLogitsKernel } from '../../src/gpu/decode-logits.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, submitPass, testDevice } from './dawn.ts';
import { decodeDims, decodeModel, offsetOf, rowOf, stateBuffer, tensor } from './decode-fixture.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

const { C, V } = decodeDims;
const model = decodeModel(5);

async function logits(x: Float32Array, pos: number[], rowStride: number, atPos: boolean): Promise<Float32Array> {
  return expectNoGpuError(device, async () => {
    const out = zerosBuffer(device, pos.length * V);
    submitPass(device, [decodeLogitsKernel(device, {
      weights: uploadBuffer(device, model.params), lnG: offsetOf(model, 'lnf.g'), lnB: offsetOf(model, 'lnf.b'), wte: offsetOf(model, 'wte'),
      state: stateBuffer(device, pos.map((p) => ({ pos: p, token: 0, step: 0, limit: 1 }))), x: uploadBuffer(device, x), rowStride, atPos,
      logits: out, rows: pos.length, dims: decodeDims,
    })]);
    return readFloat32(device, out, pos.length * V);
  });
}

function want(x: Float32Array, rows: number): Float32Array {
  const h = layerNormForward(x, tensor(model, 'lnf.g'), tensor(model, 'lnf.b'), rows, C, decodeDims.eps).y;
  return lmLogits(model, h, Array.from({ length: rows }, (_, r) => r)).logits;
}

describe('decode_logits kernel', () => {
  it("a token step: row r's logits from row r of x", async () => {
    const x = randomTensor(seededRandom(21), 3 * C, 3);
    // the positions are ignored for a token step's rows
    expect(closeness(await logits(x, [4, 0, 9], 1, false), want(x, 3), 1e-5, 1e-4)).toBeLessThanOrEqual(1);
  });

  it("after the prefill: row r's logits from its prompt's last position of [rows, T, C]", async () => {
    const T = 6;
    const pos = [5, 0, 2];
    const x = randomTensor(seededRandom(22), pos.length * T * C, 3);
    const picked = new Float32Array(pos.length * C);
    pos.forEach((p, r) => picked.set(rowOf(x, r * T + p, C), r * C));
    expect(closeness(await logits(x, pos, T, true), want(picked, pos.length), 1e-5, 1e-4)).toBeLessThanOrEqual(1);
  });
});
