import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fitIsotonic, OnlineCalibrator, pava } from '../../../src/wmrl/isotonic.ts';
import { mulberry32, shuffleInPlace } from '../../../src/primitives/random.ts';

/** Exhaustive weighted isotonic least squares for small n: every partition into consecutive blocks. */
function bruteForceIsotonic(v: number[], w: number[]): number[] {
  const n = v.length;
  let best: number[] = [];
  let bestSse = Infinity;
  for (let mask = 0; mask < 1 << (n - 1); mask++) {
    const fit = new Array<number>(n);
    let start = 0;
    let prev = -Infinity;
    let ok = true;
    for (let i = 0; i < n && ok; i++) {
      const cut = i === n - 1 || (mask & (1 << i)) !== 0;
      if (!cut) continue;
      let sw = 0;
      let sv = 0;
      for (let j = start; j <= i; j++) {
        sw += w[j];
        sv += w[j] * v[j];
      }
      const m = sv / sw;
      if (m < prev - 1e-12) ok = false;
      prev = m;
      for (let j = start; j <= i; j++) fit[j] = m;
      start = i + 1;
    }
    if (!ok) continue;
    let sse = 0;
    for (let j = 0; j < n; j++) sse += w[j] * (fit[j] - v[j]) ** 2;
    if (sse < bestSse) {
      bestSse = sse;
      best = fit;
    }
  }
  return best;
}

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const pairs = fc.array(fc.record({ x: unit, y: unit, w: fc.double({ min: 0.05, max: 5, noNaN: true }) }), { minLength: 1, maxLength: 40 });

describe('pava', () => {
  it('equals the exhaustive weighted least-squares isotonic fit for n <= 6', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(unit, fc.double({ min: 0.05, max: 5, noNaN: true })), { minLength: 1, maxLength: 6 }), (pts) => {
        const v = pts.map((p) => p[0]);
        const w = pts.map((p) => p[1]);
        const fit = new Array<number>(v.length);
        for (const b of pava(v, w)) for (let j = b.start; j < b.end; j++) fit[j] = b.value;
        const expected = bruteForceIsotonic(v, w);
        fit.forEach((f, j) => expect(f).toBeCloseTo(expected[j], 7));
      }),
      { numRuns: 300 },
    );
  });

  it('returns consecutive blocks covering the input with non-decreasing values', () => {
    fc.assert(
      fc.property(fc.array(unit, { minLength: 1, maxLength: 50 }), (v) => {
        const blocks = pava(v, v.map(() => 1));
        expect(blocks[0].start).toBe(0);
        expect(blocks[blocks.length - 1].end).toBe(v.length);
        for (let i = 1; i < blocks.length; i++) {
          expect(blocks[i].start).toBe(blocks[i - 1].end);
          expect(blocks[i].value).toBeGreaterThanOrEqual(blocks[i - 1].value);
        }
      }),
    );
  });
});

describe('fitIsotonic', () => {
  it('predicts a non-decreasing function', () => {
    fc.assert(
      fc.property(pairs, fc.array(fc.double({ min: -0.5, max: 1.5, noNaN: true }), { minLength: 2, maxLength: 30 }), (p, qs) => {
        const g = fitIsotonic(p.map((q) => q.x), p.map((q) => q.y), p.map((q) => q.w));
        const sorted = [...qs].sort((a, b) => a - b);
        for (let i = 1; i < sorted.length; i++) expect(g.predict(sorted[i])).toBeGreaterThanOrEqual(g.predict(sorted[i - 1]) - 1e-12);
        const { x, y } = g.knots;
        for (let i = 1; i < x.length; i++) {
          expect(x[i]).toBeGreaterThan(x[i - 1]);
          expect(y[i]).toBeGreaterThanOrEqual(y[i - 1]);
        }
      }),
    );
  });

  it('keeps knot x strictly increasing when block centres round together', () => {
    for (const g of [fitIsotonic([0, 5e-324], [0, 0]), fitIsotonic([5e-323, 5.4e-323, 1e-322], [0, 0.5, 1])]) {
      const { x, y } = g.knots;
      for (let i = 1; i < x.length; i++) {
        expect(x[i]).toBeGreaterThan(x[i - 1]);
        expect(y[i]).toBeGreaterThanOrEqual(y[i - 1]);
      }
    }
  });

  it('does not depend on the order of the pairs', () => {
    fc.assert(
      fc.property(pairs, fc.integer(), (p, seed) => {
        const a = fitIsotonic(p.map((q) => q.x), p.map((q) => q.y), p.map((q) => q.w));
        const q = shuffleInPlace(mulberry32(seed), [...p]);
        const b = fitIsotonic(q.map((r) => r.x), q.map((r) => r.y), q.map((r) => r.w));
        expect(b.knots.x.length).toBe(a.knots.x.length);
        a.knots.x.forEach((xi, i) => {
          expect(b.knots.x[i]).toBeCloseTo(xi, 10);
          expect(b.knots.y[i]).toBeCloseTo(a.knots.y[i], 10);
        });
      }),
    );
  });

  it('knots are block centres: weighted mean x and weighted mean y of each block', () => {
    // Points (0,0.2,w1) (1,0.8,w1) (2,0.4,w3) (3,1,w1): the last two of the first three violate.
    const g = fitIsotonic([0, 1, 2, 3], [0.2, 0.8, 0.4, 1], [1, 1, 3, 1]);
    expect(g.knots.x).toEqual([0, expect.closeTo((1 + 2 * 3) / 4, 12), 3]);
    expect(g.knots.y).toEqual([0.2, expect.closeTo((0.8 + 0.4 * 3) / 4, 12), 1]);
  });

  it('pools ties in x before fitting', () => {
    const g = fitIsotonic([0.5, 0.5, 0.5, 0.9], [0, 1, 0.5, 0.2], [1, 1, 2, 1]);
    // Tie at 0.5 pools to y = 0.5 (weight 4); then 0.2 at 0.9 violates and pools: (4*0.5+0.2)/5 = 0.44.
    expect(g.knots.y).toEqual([expect.closeTo(0.44, 12)]);
    expect(g.knots.x).toEqual([expect.closeTo((4 * 0.5 + 0.9) / 5, 12)]);
    const h = fitIsotonic([0.3, 0.3, 0.7], [0.1, 0.3, 0.9]);
    expect(h.knots.x).toEqual([0.3, 0.7]);
    expect(h.knots.y[0]).toBeCloseTo(0.2, 12);
  });

  it('interpolates linearly between knots and is constant beyond them', () => {
    const g = fitIsotonic([0.2, 0.6], [0.1, 0.9]);
    expect(g.predict(0.4)).toBeCloseTo(0.5, 12);
    expect(g.predict(0.3)).toBeCloseTo(0.3, 12);
    expect(g.predict(0.2)).toBe(0.1);
    expect(g.predict(-5)).toBe(0.1);
    expect(g.predict(0.6)).toBe(0.9);
    expect(g.predict(7)).toBe(0.9);
    fc.assert(
      fc.property(pairs, unit, (p, t) => {
        const f = fitIsotonic(p.map((q) => q.x), p.map((q) => q.y), p.map((q) => q.w));
        const { x, y } = f.knots;
        for (let i = 0; i < x.length; i++) expect(f.predict(x[i])).toBeCloseTo(y[i], 12);
        for (let i = 1; i < x.length; i++) {
          const s = x[i - 1] + t * (x[i] - x[i - 1]);
          expect(f.predict(s)).toBeCloseTo(y[i - 1] + t * (y[i] - y[i - 1]), 9);
        }
      }),
    );
  });

  it('is the identity with no pairs (or only zero-weight ones)', () => {
    const g = fitIsotonic([], []);
    expect(g.knots.x).toEqual([]);
    for (const s of [-1, 0, 0.37, 2]) expect(g.predict(s)).toBe(s);
    expect(fitIsotonic([0.1, 0.9], [1, 0], [0, 0]).predict(0.42)).toBe(0.42);
  });

  it('rejects mismatched lengths and invalid pairs', () => {
    expect(() => fitIsotonic([0.1], [0.2, 0.3])).toThrow(RangeError);
    expect(() => fitIsotonic([Number.NaN], [0.2])).toThrow(RangeError);
    expect(() => fitIsotonic([0.1], [0.2], [-1])).toThrow(RangeError);
  });

  it('undoes a monotone distortion of the score', () => {
    const rng = mulberry32(7);
    const y = Array.from({ length: 400 }, () => rng());
    const s = y.map((v) => v * v * 0.5 + 0.3); // increasing in y, far from calibrated
    const g = fitIsotonic(s, y);
    for (const v of [0.1, 0.4, 0.8]) expect(g.predict(v * v * 0.5 + 0.3)).toBeCloseTo(v, 1);
  });

  it('fits 100k pairs quickly (O(n log n))', () => {
    const rng = mulberry32(1);
    const n = 100_000;
    const x = Array.from({ length: n }, () => rng());
    const y = x.map((v) => v + 0.3 * (rng() - 0.5));
    const t0 = performance.now();
    const g = fitIsotonic(x, y);
    const ms = performance.now() - t0;
    expect(g.knots.x.length).toBeGreaterThan(10);
    expect(ms).toBeLessThan(2000);
  });
});

describe('OnlineCalibrator', () => {
  it('is the identity before any pair and counts pairs', () => {
    const c = new OnlineCalibrator({ halfLife: 5 });
    expect(c.predict(0.3)).toBe(0.3);
    c.refit(0);
    expect(c.predict(0.3)).toBe(0.3);
    c.add([0.2, 0.8], [0.1, 0.9], 0);
    expect(c.pairCount).toBe(2);
    expect(c.predict(0.3)).toBe(0.3); // not refitted yet
    c.refit(0);
    expect(c.predict(0.5)).toBeCloseTo(0.5, 12);
    expect(c.predict(0.2)).toBeCloseTo(0.1, 12);
  });

  it('weights a pair by 0.5^(age/halfLife)', () => {
    const c = new OnlineCalibrator({ halfLife: 4 });
    expect(c.weightAt(2, 10)).toBeCloseTo(0.25, 12);
    expect(new OnlineCalibrator().weightAt(0, 1000)).toBe(1);
  });

  it('with a half-life, follows a drifted relation; without, averages it', () => {
    // Same world-model score 0.5 meant y = 0.2 long ago and y = 0.8 recently.
    const withDecay = new OnlineCalibrator({ halfLife: 2 });
    const flat = new OnlineCalibrator();
    for (const c of [withDecay, flat]) {
      c.add([0.5, 0.5, 0.5, 0.5], [0.2, 0.2, 0.2, 0.2], 0);
      c.add([0.5, 0.5, 0.5, 0.5], [0.8, 0.8, 0.8, 0.8], 20);
      c.refit(20);
    }
    expect(flat.predict(0.5)).toBeCloseTo(0.5, 12);
    const expected = (0.2 * 0.5 ** 10 + 0.8) / (0.5 ** 10 + 1);
    expect(withDecay.predict(0.5)).toBeCloseTo(expected, 12);
    expect(withDecay.predict(0.5)).toBeGreaterThan(0.79);
  });

  it('refuses to refit at a step before a pair was observed', () => {
    const c = new OnlineCalibrator({ halfLife: 3 });
    c.add([0.1], [0.2], 5);
    expect(() => c.refit(4)).toThrow(RangeError);
  });

  it('snapshot is frozen against later refits', () => {
    const c = new OnlineCalibrator();
    c.add([0.2, 0.8], [0.1, 0.9], 0);
    c.refit(0);
    const snap = c.frozen();
    c.add([0.2, 0.8], [0.9, 0.9], 1);
    c.refit(1);
    expect(snap.predict(0.2)).toBeCloseTo(0.1, 12);
    expect(c.predict(0.2)).toBeCloseTo(0.5, 12);
  });
});
