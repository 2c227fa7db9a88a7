// decode-attn-mlp.wgsl against the reference ops: each row's query attends over its own cache
// positions 0..pos (what lies past pos never leaks in), then the output projection, residual, layer
// norm 2, MLP and residual, written to x in place.
import { beforeAll, describe, expect, it } from 'vitest';
import { attentionForward, geluForward, layerNormForward, matmul } from '../../src/model/ops/reference-ops.ts';
import { layerViewNames } from '../../src/model/parameter-layout.ts';
import { readFloat32, uploadBuffer } from '../../src/gpu/buffers.ts';
import { decodeAttnMlpKernel } from '../../src/gpu/decode-attn-mlp.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, submitPass, testDevice } from './dawn.ts';
import { decodeDims, decodeModel, offsetOf, rowOf, stateBuffer, tensor } from './decode-fixture.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

const { C, H, F, maxT } = decodeDims;
const Dh = C / H;
const model = decodeModel(4);

/** The reference block tail for one row: its query against cache positions 0..pos. */
function reference(layer: number, x: Float32Array, q: Float32Array, kc: Float32Array, vc: Float32Array, pos: number): Float32Array {
  const n = layerViewNames(layer);
  const T = pos + 1;
  // causal attention over a sequence whose last query is the row's: its last output row is the answer
  const qs = new Float32Array(T * C);
  qs.set(q, pos * C);
  const att = attentionForward(qs, kc.subarray(0, T * C), vc.subarray(0, T * C), 1, T, H, Dh).out.subarray(pos * C);
  const proj = matmul(att, tensor(model, n.wo), 1, C, C);
  const x2 = new Float32Array(C);
  for (let c = 0; c < C; c++) x2[c] = x[c] + (proj[c] + tensor(model, n.bo)[c]);
  const ln = layerNormForward(x2, tensor(model, n.ln2g), tensor(model, n.ln2b), 1, C, decodeDims.eps).y;
  const fc = matmul(ln, tensor(model, n.wfc), 1, C, F);
  for (let f = 0; f < F; f++) fc[f] += tensor(model, n.bfc)[f];
  const out = matmul(geluForward(fc), tensor(model, n.wproj), 1, F, C);
  for (let c = 0; c < C; c++) out[c] = x2[c] + (out[c] + tensor(model, n.bproj)[c]);
  return out;
}

describe('decode_attn_mlp kernel', () => {
  it('ragged positions: every row attends over its own cache prefix, then the MLP', async () => {
    const rand = seededRandom(12);
    const layer = 1;
    const n = layerViewNames(layer);
    const positions = [0, 63, 64, maxT - 1, 17]; // one key; a full 64-wide stride; one past it; the whole cache
    const B = positions.length;
    const x = randomTensor(rand, B * C, 2);
    const q = randomTensor(rand, B * C, 2);
    const kc = randomTensor(rand, B * maxT * C, 2);
    const vc = randomTensor(rand, B * maxT * C);
    // stale entries past each row's position must not be attended
    positions.forEach((pos, b) => {
      kc.fill(50, (b * maxT + pos + 1) * C, (b + 1) * maxT * C);
      vc.fill(1e6, (b * maxT + pos + 1) * C, (b + 1) * maxT * C);
    });
    const got = await expectNoGpuError(device, async () => {
      const xb = uploadBuffer(device, x);
      submitPass(device, [decodeAttnMlpKernel(device, {
        weights: uploadBuffer(device, model.params), wo: offsetOf(model, n.wo), bo: offsetOf(model, n.bo),
        lnG: offsetOf(model, n.ln2g), lnB: offsetOf(model, n.ln2b), wfc: offsetOf(model, n.wfc), bfc: offsetOf(model, n.bfc),
        wproj: offsetOf(model, n.wproj), bproj: offsetOf(model, n.bproj),
        state: stateBuffer(device, positions.map((pos) => ({ pos, token: 1, step: 0, limit: 1 }))),
        x: xb, q: uploadBuffer(device, q), kCache: uploadBuffer(device, kc), vCache: uploadBuffer(device, vc), rows: B, dims: decodeDims,
      })]);
      return readFloat32(device, xb, B * C);
    });
    positions.forEach((pos, b) => {
      const want = reference(layer, rowOf(x, b, C), rowOf(q, b, C), rowOf(kc, b, maxT * C), rowOf(vc, b, maxT * C), pos);
      expect(closeness(rowOf(got, b, C), want, 1e-4, 1e-4), `row ${b} at position ${pos}`).toBeLessThanOrEqual(1);
    });
  });
});
