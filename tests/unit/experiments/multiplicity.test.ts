import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { holmAdjust, tTestP } from '../../../src/experiments/multiplicity.ts';

describe('paired t-test p', () => {
  it('matches printed values', () => {
    // t = t(0.975, 4) = 2.7764 exactly gives p = 0.05: spread -2, -1, 0, 1, 2 (se 0.70711) about mean 2.7764 x se
    const m = 2.7764 * Math.sqrt(2.5 / 5);
    expect(tTestP([-2, -1, 0, 1, 2].map((d) => m + d), 0)).toBeCloseTo(0.05, 4);
    const v = [1, 3, 2, 0, 4]; // mean 2, sd 1.5811, se 0.7071: t = 2.828 on 4 df, p 0.0474
    expect(tTestP(v, 0)).toBeCloseTo(0.0474, 3);
    expect(tTestP([2, 2, 2], 1)).toBe(0);
    expect(tTestP([1, 1], 1)).toBe(1);
    expect(tTestP([3])).toBeNull();
  });
});

describe('Holm adjustment', () => {
  it('a worked example', () => {
    expect(holmAdjust([0.01, 0.04, 0.03, 0.005]).map((p) => Number(p!.toFixed(10)))).toEqual([0.03, 0.06, 0.06, 0.02]);
    expect(holmAdjust([0.2, null, 0.01])).toEqual([0.2, null, 0.02]);
  });

  it('never lowers a p, never exceeds Bonferroni or 1, and keeps the order of the raw p-values', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }), (ps) => {
      const adj = holmAdjust(ps) as number[];
      ps.forEach((p, i) => {
        expect(adj[i]).toBeGreaterThanOrEqual(p);
        expect(adj[i]).toBeLessThanOrEqual(1);
        expect(adj[i]).toBeLessThanOrEqual(Math.min(1, ps.length * p) + 1e-12);
      });
      for (let i = 0; i < ps.length; i++) for (let j = 0; j < ps.length; j++) if (ps[i] < ps[j]) expect(adj[i]).toBeLessThanOrEqual(adj[j]);
    }));
  });
});
