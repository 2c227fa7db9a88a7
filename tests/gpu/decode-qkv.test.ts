// decode-qkv.wgsl against the reference ops: the row's input (embeddings at layer 0), layer norm 1,
// q|k|v with bias, k and v written at each row's own position of the caches and nowhere else.
import { beforeAll, describe, expect, it } from 'vitest';
import { layerNormForward, matmul } from '../../src/model/ops/reference-ops.ts';
import { layerViewNames } from '../../src/model/parameter-layout.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { decodeQkvKernel } from '../../src/gpu/decode-qkv.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, submitPass, testDevice } from './dawn.ts';
import { decodeDims, decodeModel, offsetOf, rowOf, stateBuffer, tensor } from './decode-fixture.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

const { C, maxT } = decodeDims;
const model = decodeModel(3);
// ragged positions: the first, one past a 64-wide stride, the last of the cache
const rows = [{ pos: 0, token: 5, step: 0, limit: 9 }, { pos: 66, token: 69, step: 2, limit: 9 }, { pos: maxT - 1, token: 0, step: 1, limit: 9 }];

async function run(layer: number, xIn: Float32Array): Promise<{ x: Float32Array; q: Float32Array; k: Float32Array; v: Float32Array }> {
  return expectNoGpuError(device, async () => {
    const n = layerViewNames(layer);
    const x = uploadBuffer(device, xIn);
    const q = zerosBuffer(device, rows.length * C);
    const kCache = uploadBuffer(device, new Float32Array(rows.length * maxT * C).fill(9));
    const vCache = uploadBuffer(device, new Float32Array(rows.length * maxT * C).fill(9));
    submitPass(device, [decodeQkvKernel(device, {
      weights: uploadBuffer(device, model.params), lnG: offsetOf(model, n.ln1g), lnB: offsetOf(model, n.ln1b),
      wqkv: offsetOf(model, n.wqkv), bqkv: offsetOf(model, n.bqkv),
      embed: layer === 0 ? { wte: offsetOf(model, 'wte'), wpe: offsetOf(model, 'wpe') } : undefined,
      state: stateBuffer(device, rows), x, q, kCache, vCache, rows: rows.length, dims: decodeDims,
    })]);
    return {
      x: await readFloat32(device, x, rows.length * C), q: await readFloat32(device, q, rows.length * C),
      k: await readFloat32(device, kCache, rows.length * maxT * C), v: await readFloat32(device, vCache, rows.length * maxT * C),
    };
  });
}

function expectQkv(layer: number, x: Float32Array, got: Awaited<ReturnType<typeof run>>): void {
  const n = layerViewNames(layer);
  const ln = layerNormForward(x, tensor(model, n.ln1g), tensor(model, n.ln1b), rows.length, C, decodeDims.eps).y;
  const qkv = matmul(ln, tensor(model, n.wqkv), rows.length, C, 3 * C);
  const bias = tensor(model, n.bqkv);
  for (let i = 0; i < qkv.length; i++) qkv[i] += bias[i % (3 * C)];
  rows.forEach((r, b) => {
    const want = rowOf(qkv, b, 3 * C);
    expect(closeness(rowOf(got.q, b, C), want.subarray(0, C), 1e-5, 1e-4), `q row ${b}`).toBeLessThanOrEqual(1);
    const at = (b * maxT + r.pos) * C;
    expect(closeness(got.k.subarray(at, at + C), want.subarray(C, 2 * C), 1e-5, 1e-4), `k row ${b}`).toBeLessThanOrEqual(1);
    expect(closeness(got.v.subarray(at, at + C), want.subarray(2 * C), 1e-5, 1e-4), `v row ${b}`).toBeLessThanOrEqual(1);
  });
  // nothing else of the caches is touched
  let written = 0;
  for (const cache of [got.k, got.v]) for (const e of cache) if (e !== 9) written++;
  expect(written).toBe(2 * rows.length * C);
}

describe('decode_qkv kernel', () => {
  it('layer 0: embeds each row at its own position, writes x, q and the caches', async () => {
    const got = await run(0, new Float32Array(rows.length * C).fill(-7));
    const x = new Float32Array(rows.length * C);
    const wte = tensor(model, 'wte');
    const wpe = tensor(model, 'wpe');
    rows.forEach((r, b) => { for (let c = 0; c < C; c++) x[b * C + c] = wte[r.token * C + c] + wpe[r.pos * C + c]; });
    expect(closeness(got.x, x, 1e-7, 1e-6)).toBeLessThanOrEqual(1);
    expectQkv(0, x, got);
  });

  it('a later layer: reads x, leaves it unchanged', async () => {
    const x = randomTensor(seededRandom(8), rows.length * C, 2);
    for (let c = 0; c < C; c++) x[C + c] += 100; // a row with a large mean
    const got = await run(1, x);
    expect(got.x).toEqual(x);
    expectQkv(1, x, got);
  });
});
