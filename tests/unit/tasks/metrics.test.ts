import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  METRIC_DIRECTION,
  accuracy,
  auc,
  computeMetric,
  macroF1,
  rmse,
  rmsle,
} from '../../../src/tasks/metrics.ts';

describe('metrics, hand-computed', () => {
  it('rmse', () => {
    expect(rmse([1, 2, 3], [1, 2, 5])).toBeCloseTo(Math.sqrt(4 / 3), 12);
    expect(rmse([2], [2])).toBe(0);
  });

  it('rmsle with zeros in truths and predictions, negatives clipped to 0', () => {
    // |log1p(3) - log1p(1)| = log 2 on one of two rows.
    expect(rmsle([0, 1], [0, 3])).toBeCloseTo(Math.LN2 / Math.SQRT2, 12);
    expect(rmsle([0, 0], [0, 0])).toBe(0);
    expect(rmsle([0], [-5])).toBe(0);
    expect(rmsle([1], [-5])).toBeCloseTo(Math.LN2, 12);
  });

  it('auc with tied scores counts ties half', () => {
    // Pairs (pos, neg): (0.8, 0.8) = 0.5, (0.8, 0.2) = 1, (0.4, 0.8) = 0, (0.4, 0.2) = 1 -> 2.5 / 4.
    expect(auc([true, false, true, false], [0.8, 0.8, 0.4, 0.2])).toBeCloseTo(0.625, 12);
    expect(auc([true, false], [0.5, 0.5])).toBe(0.5);
    expect(auc([true, true, false], [0.9, 0.7, 0.1])).toBe(1);
    expect(auc([false, true], [0.9, 0.1])).toBe(0);
    expect(() => auc([true, true], [0.1, 0.2])).toThrow(/both classes/);
  });

  it('accuracy', () => {
    expect(accuracy(['a', 'b', 'c', 'a'], ['a', 'b', 'a', 'a'])).toBe(0.75);
  });

  it('macro-F1 with a class never predicted', () => {
    // a: F1 1; b: tp 1, fp 1 -> 2/3; c: never predicted -> 0. Mean 5/9.
    expect(macroF1(['a', 'a', 'b', 'c'], ['a', 'a', 'b', 'b'])).toBeCloseTo(5 / 9, 12);
    // A class only predicted (never true) also counts, with F1 0.
    expect(macroF1(['a', 'a'], ['a', 'z'])).toBeCloseTo((2 / 3 + 0) / 2, 12);
  });

  it('directions', () => {
    expect(METRIC_DIRECTION.rmse).toBe('lower');
    expect(METRIC_DIRECTION.rmsle).toBe('lower');
    expect(METRIC_DIRECTION.auc).toBe('higher');
    expect(METRIC_DIRECTION.accuracy).toBe('higher');
    expect(METRIC_DIRECTION.macro_f1).toBe('higher');
  });

  it('binary accuracy and macro-F1 threshold probabilities at 0.5', () => {
    const labels = ['yes', 'no', 'yes', 'no'];
    const pred = { kind: 'numeric' as const, values: [0.5, 0.49, 0.2, 0.1] };
    const classes = { positive: 'yes', negative: 'no' };
    expect(computeMetric('accuracy', 'binary', labels, pred, classes)).toBe(0.75);
    // Pairs (yes, no): (0.5, 0.49) 1, (0.5, 0.1) 1, (0.2, 0.49) 0, (0.2, 0.1) 1.
    expect(computeMetric('auc', 'binary', labels, pred, classes)).toBe(0.75);
    expect(() => computeMetric('rmse', 'binary', labels, pred, classes)).toThrow(/does not apply/);
  });
});

describe('metrics, properties', () => {
  const scoredRows = fc
    .array(fc.record({ pos: fc.boolean(), s: fc.integer({ min: 0, max: 5 }) }), { minLength: 2, maxLength: 30 })
    .filter((rows) => rows.some((r) => r.pos) && rows.some((r) => !r.pos));

  it('auc equals the pairwise definition (ties half)', () => {
    fc.assert(
      fc.property(scoredRows, (rows) => {
        let wins = 0;
        let pairs = 0;
        for (const p of rows) if (p.pos) for (const n of rows) if (!n.pos) {
          pairs++;
          wins += p.s > n.s ? 1 : p.s === n.s ? 0.5 : 0;
        }
        expect(auc(rows.map((r) => r.pos), rows.map((r) => r.s))).toBeCloseTo(wins / pairs, 12);
      }),
    );
  });

  it('auc is unchanged by a strictly increasing transform of the scores', () => {
    fc.assert(
      fc.property(scoredRows, (rows) => {
        const y = rows.map((r) => r.pos);
        expect(auc(y, rows.map((r) => Math.exp(r.s) * 3 - 1))).toBeCloseTo(auc(y, rows.map((r) => r.s)), 12);
      }),
    );
  });

  it('macro-F1 is 1 exactly when every prediction is right, and lies in [0, 1]', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.constantFrom('a', 'b', 'c')), { minLength: 1, maxLength: 20 }), (pairs) => {
        const t = pairs.map((p) => p[0]);
        const p = pairs.map((q) => q[1]);
        const f = macroF1(t, p);
        expect(f).toBeGreaterThanOrEqual(0);
        expect(f).toBeLessThanOrEqual(1);
        expect(f === 1).toBe(t.every((v, i) => v === p[i]));
      }),
    );
  });

  it('rmse is non-negative and zero only for perfect predictions', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.double({ min: -1e3, max: 1e3, noNaN: true })), { minLength: 1, maxLength: 20 }), (pairs) => {
        const v = rmse(pairs.map((p) => p[0]), pairs.map((p) => p[1]));
        expect(v).toBeGreaterThanOrEqual(0);
        if (pairs.every((p) => p[0] === p[1])) expect(v).toBe(0);
      }),
    );
  });
});
