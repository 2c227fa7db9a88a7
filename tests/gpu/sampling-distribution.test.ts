// Seeded sampling on the GPU follows the CPU engine's distribution: at three positions (prompts of
// three lengths, decoded together), 300 draws each of the first new token, counted per token and
// compared with the CPU engine's next-token probabilities under the sampler's rules (temperature,
// top-k) by a chi-square test at 1e-4. The same counts must fail the test against the untempered
// probabilities, so a sampler that ignored the temperature could not pass.
import { beforeAll, describe, expect, it } from 'vitest';
import { namedConfig } from '../../src/model/config.ts';
import { createModel } from '../../src/model/init.ts';
import { view } from '../../src/model/parameter-layout.ts';
import { samplingCandidates } from '../../src/model/ops/sampling.ts';
import { makeSequenceBatch } from '../../src/model/sequence-batch.ts';
import { CpuEngine } from '../../src/engine/cpu/cpu-engine.ts';
import { GpuPolicyEngine } from '../../src/engine/webgpu/gpu-policy-engine.ts';
import { deriveSeed, mulberry32 } from '../../src/primitives/random.ts';
import { seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

const config = namedConfig('tiny');
const DRAWS = 300;
const prompts = [[1], [1, 9], [1, 22, 5]];

/** Upper 1e-4 quantile of chi-square with df degrees of freedom (Wilson-Hilferty). */
function chiSquareBound(df: number): number {
  const z = 3.719; // standard normal, upper 1e-4
  const a = 2 / (9 * df);
  return df * (1 - a + z * Math.sqrt(a)) ** 3;
}

/** Pearson's statistic of counts against probabilities, tokens with expectation < 5 pooled into one cell. */
function chiSquare(counts: number[], probs: number[], n: number): { stat: number; df: number } {
  let stat = 0;
  let cells = 0;
  let pooledO = 0;
  let pooledE = 0;
  probs.forEach((p, v) => {
    const e = p * n;
    if (e >= 5) {
      stat += (counts[v] - e) ** 2 / e;
      cells++;
    } else {
      pooledO += counts[v];
      pooledE += e;
    }
  });
  if (pooledE > 0) {
    // a draw where the model gives (almost) nothing is still a misfit
    stat += (pooledO - pooledE) ** 2 / Math.max(pooledE, 1e-9);
    cells++;
  }
  return { stat, df: cells - 1 };
}

/** The sampler's distribution from next-token log-probs: tempered, restricted to the top k. */
function samplerProbs(logProbs: Float32Array, temperature: number, topK: number): number[] {
  const keep = new Set(samplingCandidates(logProbs, topK));
  const w = Array.from(logProbs, (l, v) => (keep.has(v) ? Math.exp(l / temperature) : 0));
  const z = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / z);
}

let device: GPUDevice;
const model = createModel(config, seededRandom(41));
// a wider spread of logits than at init, so the temperature matters
const wte = view(model.layout, model.params, 'wte');
for (let i = 0; i < wte.length; i++) wte[i] *= 6;
let nextLogProbs: Float32Array[];

beforeAll(async () => {
  device = (await testDevice()).device;
  // the CPU engine's log p(v | prompt) for every token v: one sequence prompt + [v] each
  const cpu = CpuEngine.fromModel(model, { numThreads: 1 });
  try {
    nextLogProbs = [];
    for (const p of prompts) {
      const batch = makeSequenceBatch(Array.from({ length: config.vocabSize }, (_, v) => ({ tokens: [...p, v], programStart: p.length })));
      const lp = await cpu.logProbs(batch, 'mask');
      nextLogProbs.push(Float32Array.from({ length: config.vocabSize }, (_, v) => lp[v * batch.T + p.length]));
    }
  } finally {
    await cpu.dispose();
  }
});

describe('GPU sampling distribution against the CPU engine', () => {
  for (const [temperature, topK] of [[0.5, 0], [0.4, 8]] as const) {
    it(`temperature ${temperature}, top-k ${topK}: token frequencies at three positions fit the tempered probabilities`, async () => {
      const rows = prompts.flatMap((p) => Array.from({ length: DRAWS }, () => p));
      const gpu = new GpuPolicyEngine(device, config, { maxBatch: rows.length, maxSeq: 5 }, model.params);
      try {
        const got = await expectNoGpuError(device, () => gpu.sample(rows, {
          maxNewTokens: 1, temperature, topK, stopToken: -1, rngs: rows.map((_, i) => mulberry32(deriveSeed(1234, Math.round(temperature * 10), i))),
        }));
        prompts.forEach((p, k) => {
          const counts = new Array<number>(config.vocabSize).fill(0);
          for (let i = k * DRAWS; i < (k + 1) * DRAWS; i++) counts[got[i].tokens[0]]++;
          const fit = chiSquare(counts, samplerProbs(nextLogProbs[k], temperature, topK), DRAWS);
          const untempered = chiSquare(counts, samplerProbs(nextLogProbs[k], 1, topK), DRAWS);
          expect(fit.stat, `prompt of ${p.length}: chi-square ${fit.stat.toFixed(1)} on ${fit.df} df`).toBeLessThanOrEqual(chiSquareBound(fit.df));
          // the test has the power to see an ignored temperature
          expect(untempered.stat, `prompt of ${p.length}: untempered chi-square ${untempered.stat.toFixed(1)} on ${untempered.df} df`)
            .toBeGreaterThan(chiSquareBound(untempered.df));
        });
      } finally {
        await gpu.dispose();
      }
    });
  }
});
