import { beforeAll, describe, expect, it } from 'vitest';
import { argmax, sampleToken, samplingCandidates, samplingWeights, type SamplingConfig } from '../../src/model/ops/sampling.ts';
import { readInt32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeSample } from '../../src/gpu/sampling.ts';
import { randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

async function gpuSample(logits: Float32Array, uniforms: Float32Array, rows: number, V: number, cfg: SamplingConfig): Promise<Int32Array> {
  return expectNoGpuError(device, async () => {
    const tokens = zerosBuffer(device, rows);
    submit(device, (enc) => encodeSample(enc, device,
      { logits: uploadBuffer(device, logits), uniforms: uploadBuffer(device, uniforms), tokens, rows, V }, cfg));
    return readInt32(device, tokens, rows);
  });
}

/** Where u falls in the reference CDF of the chosen token, with slack for float32 summation order. */
function consistent(row: Float32Array, u: number, token: number, cfg: SamplingConfig): boolean {
  const cands = samplingCandidates(row, cfg.topK);
  const w = samplingWeights(row, cands, cfg.temperature);
  const total = w.reduce((s, x) => s + x, 0);
  const j = cands.indexOf(token);
  if (j < 0) return false;
  const before = w.slice(0, j).reduce((s, x) => s + x, 0) / total;
  return u >= before - 1e-5 && u <= before + w[j] / total + 1e-5;
}

describe('sampling kernel', () => {
  const rows = 40;
  for (const [V, cfg] of [
    [50, { temperature: 1, topK: 0 }],
    [300, { temperature: 0.7, topK: 0 }],
    [300, { temperature: 1.3, topK: 5 }],
    [130, { temperature: 1, topK: 1 }],
    [97, { temperature: 0.5, topK: 96 }],
  ] as const) {
    it(`draws the reference token for V ${V}, temperature ${cfg.temperature}, top-k ${cfg.topK}`, async () => {
      const rand = seededRandom(V * 7 + cfg.topK);
      const logits = randomTensor(rand, rows * V, 3);
      // duplicated logits exercise the index tie-break of the top-k order
      logits[3] = logits[4] = logits[5] = 2.9;
      const uniforms = Float32Array.from({ length: rows }, () => rand());
      const got = await gpuSample(logits, uniforms, rows, V, cfg);
      let exact = 0;
      for (let r = 0; r < rows; r++) {
        const row = logits.subarray(r * V, (r + 1) * V);
        const want = sampleToken(row, uniforms[r], cfg);
        if (got[r] === want) exact++;
        else expect(consistent(row, uniforms[r], got[r], cfg), `row ${r}: got ${got[r]}, want ${want}`).toBe(true);
      }
      expect(exact).toBeGreaterThanOrEqual(rows - 1);
    });
  }

  it('greedy at temperature 0 picks the argmax (lowest index on ties), ignoring u', async () => {
    const rand = seededRandom(51);
    const V = 200;
    const logits = randomTensor(rand, 3 * V);
    logits[V + 150] = logits[V + 20] = 5; // tie in row 1
    const got = await gpuSample(logits, Float32Array.from([0.99, 0.5, 0]), 3, V, { temperature: 0, topK: 0 });
    expect(got[1]).toBe(20);
    for (let r = 0; r < 3; r++) expect(got[r]).toBe(argmax(logits.subarray(r * V, (r + 1) * V)));
  });

  it('samples at the rate of the softmax', async () => {
    // one row repeated with evenly spread uniforms: counts follow the probabilities
    const V = 6;
    const base = Float32Array.from([0, 1, 2, -1, 0.5, 1.5]);
    const rows = 600;
    const logits = new Float32Array(rows * V);
    for (let r = 0; r < rows; r++) logits.set(base, r * V);
    const uniforms = Float32Array.from({ length: rows }, (_, r) => (r + 0.5) / rows);
    const got = await gpuSample(logits, uniforms, rows, V, { temperature: 1, topK: 0 });
    const z = Array.from(base).reduce((s, l) => s + Math.exp(l), 0);
    for (let i = 0; i < V; i++) {
      const count = got.filter((t) => t === i).length;
      expect(Math.abs(count / rows - Math.exp(base[i]) / z)).toBeLessThan(2 / rows);
    }
  });
});
