import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { extent, fmt, formatTick, linearScale, niceDomain, niceTicks } from '../../../src/ui/charts/scale.ts';

const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true });

describe('chart scales', () => {
  it('linearScale maps the domain ends onto the range ends and is affine', () => {
    fc.assert(
      fc.property(finite, finite, finite, finite, fc.double({ min: 0, max: 1, noNaN: true }), (d0, d1, r0, r1, t) => {
        fc.pre(Math.abs(d1 - d0) > 1e-3);
        const s = linearScale([d0, d1], [r0, r1]);
        const tol = 1e-6 * (1 + Math.abs(r0) + Math.abs(r1));
        expect(Math.abs(s(d0) - r0)).toBeLessThan(tol);
        expect(Math.abs(s(d1) - r1)).toBeLessThan(tol);
        expect(Math.abs(s(d0 + t * (d1 - d0)) - (r0 + t * (r1 - r0)))).toBeLessThan(tol);
      }),
    );
    expect(linearScale([2, 2], [0, 10])(5)).toBe(5);
  });

  it('niceTicks are increasing, inside the interval, evenly spaced and few', () => {
    fc.assert(
      fc.property(finite, finite, (a, b) => {
        fc.pre(Math.abs(b - a) > 1e-6);
        const [lo, hi] = a < b ? [a, b] : [b, a];
        const ticks = niceTicks(lo, hi, 5);
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        expect(ticks.length).toBeLessThanOrEqual(11);
        const span = hi - lo;
        for (const t of ticks) {
          expect(t).toBeGreaterThanOrEqual(lo - 1e-9 * span);
          expect(t).toBeLessThanOrEqual(hi + 1e-9 * span);
        }
        const step = ticks[1] - ticks[0];
        for (let i = 1; i < ticks.length; i++) expect(ticks[i] - ticks[i - 1]).toBeCloseTo(step, 6);
      }),
    );
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('niceDomain contains the input and has width', () => {
    fc.assert(
      fc.property(finite, finite, (a, b) => {
        const [lo, hi] = a < b ? [a, b] : [b, a];
        const [nlo, nhi] = niceDomain([lo, hi]);
        expect(nlo).toBeLessThanOrEqual(lo);
        expect(nhi).toBeGreaterThanOrEqual(hi);
        expect(nhi).toBeGreaterThan(nlo);
      }),
    );
  });

  it('extent ignores non-finite values; formatters are short', () => {
    expect(extent([3, Number.NaN, -1, Infinity])).toEqual([-1, 3]);
    expect(extent([Number.NaN])).toBeNull();
    expect(formatTick(0.30000000000000004)).toBe('0.3');
    expect(formatTick(1234)).toBe('1234');
    expect(formatTick(0.0001)).toBe('1.0e-4');
    expect(fmt(null)).toBe('–');
    expect(fmt(0.12345, 2)).toBe('0.12');
  });
});
