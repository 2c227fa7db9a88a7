import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sampleToken, samplingCandidates } from '../../../src/model/ops/sampling.ts';
import { randomTensor, seededRandom } from './random.ts';

describe('reference sampling', () => {
  it('top-k candidates are the k largest, ties by lower index', () => {
    const l = Float32Array.from([1, 3, 3, 0, 2]);
    expect(samplingCandidates(l, 3)).toEqual([1, 2, 4]);
    expect(samplingCandidates(l, 0)).toEqual([0, 1, 2, 3, 4]);
    expect(samplingCandidates(l, 5)).toEqual([0, 1, 2, 3, 4]);
  });

  it('a sampled token is always among the top-k (property)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 10 }), fc.double({ min: 0, max: 0.999999, noNaN: true }),
        fc.double({ min: 0.05, max: 3, noNaN: true }), (seed, k, u, temperature) => {
          const logits = randomTensor(seededRandom(seed), 20, 4);
          const t = sampleToken(logits, u, { temperature, topK: k });
          expect(samplingCandidates(logits, k)).toContain(t);
        }),
      { numRuns: 200 },
    );
  });

  it('frequencies over evenly spread u follow softmax(l / temperature)', () => {
    const logits = Float32Array.from([0.5, -1, 2, 0]);
    const n = 20000;
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < n; i++) counts[sampleToken(logits, (i + 0.5) / n, { temperature: 2, topK: 0 })]++;
    const w = Array.from(logits).map((l) => Math.exp(l / 2));
    const z = w.reduce((s, x) => s + x, 0);
    counts.forEach((c, i) => expect(Math.abs(c / n - w[i] / z)).toBeLessThan(2 / n));
  });

  it('temperature 0 is greedy', () => {
    expect(sampleToken(Float32Array.from([0, 5, 5, 1]), 0.99, { temperature: 0, topK: 2 })).toBe(1);
  });
});
