// The decoder's sampling kernel against src/model/ops/sampling.ts: the token for a seeded uniform,
// its log-prob as sampleFromLogits gives it, and the row's state advanced (the token fed back, the
// stop token ending the row; a finished row left alone).
import { beforeAll, describe, expect, it } from 'vitest';
import { argmax, sampleToken, samplingCandidates, samplingWeights, type SamplingConfig } from '../../src/model/ops/sampling.ts';
import { sampleFromLogits } from '../../src/model/sampling.ts';
import { readBuffer, uploadBuffer } from '../../src/gpu/buffers.ts';
import { NO_STOP_TOKEN, samplingKernel } from '../../src/gpu/sampling.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, submitPass, testDevice } from './dawn.ts';
import { type RowStateValues, stateBuffer } from './decode-fixture.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

interface Drawn { tokens: Int32Array; logProbs: Float32Array; state: Uint32Array; history: Uint32Array }

/**
 * One sampling dispatch; row r draws uniforms[r] (its step is `steps[r]`, default 0, with a uniform
 * stride of rows) and writes history slot [step, rows].
 */
async function gpuDraw(logits: Float32Array, uniforms: Float32Array, rows: number, V: number, cfg: SamplingConfig,
  opts: { stop?: number; states?: RowStateValues[] } = {}): Promise<Drawn> {
  const states = opts.states ?? Array.from({ length: rows }, (_, r) => ({ pos: r, token: 0, step: 0, limit: 5 }));
  const steps = Math.max(...states.map((s) => s.step)) + 1;
  // each row's uniform at its own step's slot
  const u = new Float32Array(steps * rows).fill(-1);
  states.forEach((s, r) => (u[s.step * rows + r] = uniforms[r]));
  return expectNoGpuError(device, async () => {
    const state = stateBuffer(device, states);
    const history = uploadBuffer(device, new Uint32Array(2 * steps * rows).fill(7777));
    submitPass(device, [samplingKernel(device, { logits: uploadBuffer(device, logits), uniforms: uploadBuffer(device, u), stride: rows,
      state, history, rows, V, stopToken: opts.stop ?? NO_STOP_TOKEN }, cfg)]);
    const h = new Uint32Array(await readBuffer(device, history, 8 * steps * rows));
    const st = new Uint32Array(await readBuffer(device, state, 16 * rows));
    const tokens = new Int32Array(rows);
    const logProbs = new Float32Array(rows);
    const f = new Float32Array(h.buffer);
    states.forEach((s, r) => {
      tokens[r] = h[2 * (s.step * rows + r)];
      logProbs[r] = f[2 * (s.step * rows + r) + 1];
    });
    return { tokens, logProbs, state: st, history: h };
  });
}

async function gpuSample(logits: Float32Array, uniforms: Float32Array, rows: number, V: number, cfg: SamplingConfig): Promise<Int32Array> {
  return (await gpuDraw(logits, uniforms, rows, V, cfg)).tokens;
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

  it("gives each token's log-prob as sampleFromLogits, and advances every row's state", async () => {
    const rand = seededRandom(77);
    const [rows, V] = [12, 90];
    const logits = randomTensor(rand, rows * V, 4);
    const uniforms = Float32Array.from({ length: rows }, () => rand());
    for (const cfg of [{ temperature: 0.7, topK: 0 }, { temperature: 1.2, topK: 7 }, { temperature: 0, topK: 0 }]) {
      const got = await gpuDraw(logits, uniforms, rows, V, cfg);
      const want = new Float32Array(rows);
      for (let r = 0; r < rows; r++) {
        const w = sampleFromLogits(logits.subarray(r * V, (r + 1) * V), { ...cfg, rng: () => uniforms[r] });
        expect(got.tokens[r]).toBe(w.token);
        want[r] = w.logProb;
        expect(Array.from(got.state.subarray(4 * r, 4 * r + 4)), `state of row ${r}`).toEqual([r + 1, w.token, 1, 5]);
      }
      expect(closeness(got.logProbs, want, 1e-5, 1e-5), `temperature ${cfg.temperature}`).toBeLessThanOrEqual(1);
    }
  });

  it('reads each row\'s uniform at its own step, ends a row at the stop token, leaves finished rows alone', async () => {
    const V = 5;
    // every row's greedy-free choice is fixed by its uniform: logits equal, so token = floor(u * V)
    const logits = new Float32Array(4 * V);
    const states = [
      { pos: 3, token: 1, step: 2, limit: 6 },
      { pos: 9, token: 1, step: 0, limit: 6 },
      { pos: 4, token: 2, step: 3, limit: 3 }, // finished: its budget is spent
      { pos: 7, token: 2, step: 1, limit: 4 },
    ];
    const got = await gpuDraw(logits, Float32Array.from([0.1, 0.5, 0.5, 0.9]), 4, V, { temperature: 1, topK: 0 }, { stop: 2, states });
    expect(Array.from(got.tokens.filter((_, r) => r !== 2))).toEqual([0, 2, 4]);
    expect(Array.from(got.state)).toEqual([
      4, 0, 3, 6,
      10, 2, 1, 1, // sampled the stop token: finished after this one
      4, 2, 3, 3, // untouched
      8, 4, 2, 4,
    ]);
    // the finished row wrote no history anywhere
    for (let s = 0; s < 4; s++) expect(got.history[2 * (s * 4 + 2)]).toBe(7777);
    expect(got.logProbs[1]).toBeCloseTo(Math.log(1 / V), 6);
  });
});
