import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { incompleteBeta, logGamma, studentTCdf, studentTQuantile } from '../../../src/experiments/student-t.ts';
import { tInterval } from '../../../src/experiments/interval.ts';

describe('Student t quantile', () => {
  it('matches printed two-sided 95% critical values', () => {
    // Standard t-table values (3 decimals).
    const table: [number, number][] = [[1, 12.706], [2, 4.303], [3, 3.182], [4, 2.776], [5, 2.571], [9, 2.262], [10, 2.228], [20, 2.086], [30, 2.042], [60, 2.0], [120, 1.98]];
    for (const [df, t] of table) expect(studentTQuantile(0.975, df)).toBeCloseTo(t, 2);
    expect(Math.abs(studentTQuantile(0.975, 2) - 4.302652729911275)).toBeLessThan(1e-9);
    expect(Math.abs(studentTQuantile(0.995, 4) - 4.604094871415897)).toBeLessThan(1e-9);
  });

  it('has closed forms at 1 and 2 dof (Cauchy; t = (2p-1) sqrt(2 / (1 - (2p-1)^2)))', () => {
    fc.assert(fc.property(fc.double({ min: 0.01, max: 0.99, noNaN: true }), (p) => {
      expect(studentTQuantile(p, 1)).toBeCloseTo(Math.tan(Math.PI * (p - 0.5)), 8);
      const a = 2 * p - 1;
      expect(studentTQuantile(p, 2)).toBeCloseTo(a * Math.sqrt(2 / (1 - a * a)), 8);
    }));
  });

  it('approaches the normal quantile for large dof', () => {
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.959964, 4);
  });

  it('inverts the CDF, is antisymmetric and increasing (property)', () => {
    fc.assert(fc.property(fc.double({ min: 0.001, max: 0.999, noNaN: true }), fc.double({ min: 0.5, max: 200, noNaN: true }), (p, df) => {
      const q = studentTQuantile(p, df);
      expect(studentTCdf(q, df)).toBeCloseTo(p, 9);
      expect(studentTQuantile(1 - p, df)).toBeCloseTo(-q, 7);
      if (p < 0.99) expect(studentTQuantile(p + 0.005, df)).toBeGreaterThan(q);
    }));
  });

  it('shrinks towards the normal as dof grow', () => {
    for (let df = 1; df < 50; df++) expect(studentTQuantile(0.975, df + 1)).toBeLessThan(studentTQuantile(0.975, df));
  });

  it('refuses bad arguments', () => {
    expect(() => studentTQuantile(0, 3)).toThrow(RangeError);
    expect(() => studentTQuantile(1, 3)).toThrow(RangeError);
    expect(() => studentTQuantile(0.5, 0)).toThrow(RangeError);
    expect(() => studentTCdf(1, Number.NaN)).toThrow(RangeError);
  });

  it('log Gamma and the incomplete beta agree with known values', () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 10);
    expect(logGamma(0.1)).toBeCloseTo(2.252712651734206, 10);
    // I_x(1, 1) = x; I_x(a, 1) = x^a; symmetry I_x(a, b) = 1 - I_{1-x}(b, a)
    fc.assert(fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0.2, max: 20, noNaN: true }), fc.double({ min: 0.2, max: 20, noNaN: true }), (x, a, b) => {
      expect(incompleteBeta(x, 1, 1)).toBeCloseTo(x, 10);
      expect(incompleteBeta(x, a, 1)).toBeCloseTo(x ** a, 9);
      // 1 - x loses x below ~1e-16, so the symmetry is checked away from the ends
      const y = 0.001 + 0.998 * x;
      expect(incompleteBeta(y, a, b)).toBeCloseTo(1 - incompleteBeta(1 - y, b, a), 9);
    }));
  });
});

describe('tInterval', () => {
  it('computes mean +- t * s / sqrt(n) with the n-1 dof quantile', () => {
    const iv = tInterval([1, 2, 3]);
    expect(iv.mean).toBe(2);
    expect(iv.sd).toBeCloseTo(1, 12);
    expect(iv.halfWidth).toBeCloseTo(4.302652729911275 / Math.sqrt(3), 9);
    expect(iv.low).toBeCloseTo(2 - 4.302652729911275 / Math.sqrt(3), 9);
    expect(iv.method).toBe('student-t');
  });

  it('gives no interval for one value, a zero-width one for equal values', () => {
    const one = tInterval([0.4]);
    expect(one).toMatchObject({ n: 1, mean: 0.4, low: null, high: null, halfWidth: null });
    const same = tInterval([0.4, 0.4, 0.4]);
    expect(same.halfWidth).toBeCloseTo(0, 12);
  });

  it('contains the mean, is shift-equivariant and scales with the data (property)', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 2, maxLength: 12 }), fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: 0.1, max: 10, noNaN: true }), (xs, shift, scale) => {
      const a = tInterval(xs);
      const b = tInterval(xs.map((x) => scale * x + shift));
      expect(a.low ?? NaN).toBeLessThanOrEqual(a.mean + 1e-9);
      expect(a.high ?? NaN).toBeGreaterThanOrEqual(a.mean - 1e-9);
      expect(b.mean).toBeCloseTo(scale * a.mean + shift, 6);
      expect(b.halfWidth ?? NaN).toBeCloseTo(scale * (a.halfWidth ?? NaN), 5);
    }));
  });

  it('covers the true mean about 95% of the time on normal data (seeded simulation)', () => {
    // Box-Muller on a fixed LCG: 4000 intervals of 3 draws each.
    let s = 12345;
    const u = () => ((s = (s * 1103515245 + 12345) % 2147483648) + 0.5) / 2147483648;
    const normal = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
    let covered = 0;
    const trials = 4000;
    for (let i = 0; i < trials; i++) {
      const iv = tInterval([normal(), normal(), normal()]);
      if ((iv.low ?? 0) <= 0 && 0 <= (iv.high ?? 0)) covered++;
    }
    // Binomial sd at 0.95 over 4000 trials is ~0.0035; the normal 1.96 would cover only ~0.82.
    expect(covered / trials).toBeGreaterThan(0.935);
    expect(covered / trials).toBeLessThan(0.965);
  });

  it('refuses empty and non-finite input', () => {
    expect(() => tInterval([])).toThrow(RangeError);
    expect(() => tInterval([1, Number.NaN])).toThrow(RangeError);
  });
});
