// Validation metrics of the world model, against hand values and invariances.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { averageRanks, meanAbsoluteError, pairwiseAccuracy, spearman } from '../../../src/pipeline/rank-metrics.ts';

// integers: a map that is increasing on the reals stays strictly increasing in floating point
const values = fc.array(fc.integer({ min: -100, max: 100 }), { minLength: 3, maxLength: 30 });

describe('rank metrics', () => {
  it('average ranks share ties', () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });

  it('Spearman is 1 under any increasing map, -1 under a decreasing one, and within [-1, 1]', () => {
    fc.assert(
      fc.property(values, values, (a, b) => {
        const distinct = new Set(a).size > 1;
        if (distinct) {
          expect(spearman(a, a.map((x) => Math.exp(x / 50) * 3 + 1))).toBeCloseTo(1, 10);
          expect(spearman(a, a.map((x) => -x * x * x))).toBeCloseTo(-1, 10);
        }
        const n = Math.min(a.length, b.length);
        const r = spearman(a.slice(0, n), b.slice(0, n));
        expect(r).toBeGreaterThanOrEqual(-1 - 1e-12);
        expect(r).toBeLessThanOrEqual(1 + 1e-12);
      }),
    );
  });

  it('Spearman by hand', () => {
    // ranks a: 1 2 3 4, b: 2 1 4 3 -> 1 - 6*4/(4*15) = 0.6
    expect(spearman([1, 2, 3, 4], [20, 10, 40, 30])).toBeCloseTo(0.6, 12);
  });

  it('pairwise accuracy counts within-group pairs with different truths only', () => {
    const truth = [0.1, 0.5, 0.9, 0.2, 0.2];
    const group = ['a', 'a', 'a', 'b', 'b'];
    expect(pairwiseAccuracy(truth, truth, group)).toEqual({ accuracy: 1, pairs: 3 });
    expect(pairwiseAccuracy(truth, truth.map((t) => -t), group)).toEqual({ accuracy: 0, pairs: 3 });
    expect(pairwiseAccuracy(truth, [0, 0, 0, 1, 2], group)).toEqual({ accuracy: 0.5, pairs: 3 });
    expect(pairwiseAccuracy(truth, [0.3, 0.2, 0.9, 0, 0], group).accuracy).toBeCloseTo(2 / 3, 12);
  });

  it('mean absolute error', () => {
    expect(meanAbsoluteError([0, 1, 0.5], [0.5, 0.5, 0.5])).toBeCloseTo(1 / 3, 12);
  });
});
