// The authors' calibrator (wmrl/debias.py) as we rebuilt it: binned PAVA, the identity until the
// minimum pairs, a refit every few new pairs, a FIFO buffer.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AUTHORS_BINNED, BinnedCalibrator, binOf, fitBinnedIsotonic } from '../../../src/wmrl/binned-isotonic.ts';

const score = fc.double({ min: 0, max: 1, noNaN: true });

describe('the binned fit', () => {
  it('bins like numpy.digitize over linspace edges: an edge belongs to the bin above it', () => {
    expect(binOf(0, 10)).toBe(0);
    expect(binOf(0.0999, 10)).toBe(0);
    expect(binOf(0.1, 10)).toBe(1);
    expect(binOf(0.3, 10)).toBe(2); // 3 * 0.1 = 0.30000000000000004 > 0.3, as in numpy
    expect(binOf(0.95, 10)).toBe(9);
    expect(binOf(1, 10)).toBe(9);
    expect(binOf(-0.5, 10)).toBe(0);
    expect(binOf(7, 10)).toBe(9);
  });

  it('pools bin means by count-weighted PAV and interpolates between the knots', () => {
    // bin 0: s 0.05 (y 0.5, 0.3); bin 5: s 0.55 (y 0.1); bin 9: s 0.95 (y 0.9)
    const f = fitBinnedIsotonic([0.05, 0.05, 0.55, 0.95], [0.5, 0.3, 0.1, 0.9], 10)!;
    // bins 0 and 5 violate: pooled (2 * 0.4 + 1 * 0.1) / 3 = 0.3
    expect(f.knots.x).toEqual([0.05, 0.55, 0.95]);
    expect(f.knots.y[0]).toBeCloseTo(0.3, 12);
    expect(f.knots.y[1]).toBeCloseTo(0.3, 12);
    expect(f.knots.y[2]).toBeCloseTo(0.9, 12);
    expect(f.predict(0)).toBeCloseTo(0.3, 12); // constant beyond the first knot
    expect(f.predict(0.75)).toBeCloseTo(0.6, 12);
    expect(f.predict(1)).toBeCloseTo(0.9, 12);
  });

  it("puts each bin's knot at its mean score, not its centre, as the authors' code does", () => {
    // bin 0 holds s 0.01 and 0.03 (mean 0.02, centre 0.05); bin 8 holds s 0.81 (centre 0.85)
    const f = fitBinnedIsotonic([0.01, 0.03, 0.81], [0.2, 0.4, 0.7], 10)!;
    expect(f.knots.x[0]).toBeCloseTo(0.02, 12);
    expect(f.knots.x[1]).toBeCloseTo(0.81, 12);
    expect(f.knots.y[0]).toBeCloseTo(0.3, 12);
    // halfway between the two mean scores, halfway between the two values
    expect(f.predict(0.415)).toBeCloseTo(0.5, 12);
    expect(f.predict(0.05)).toBeGreaterThan(0.3);
  });

  it('gives no fit from a single populated bin', () => {
    expect(fitBinnedIsotonic([0.51, 0.52, 0.55], [0, 1, 0.5], 10)).toBeNull();
    expect(fitBinnedIsotonic([], [], 10)).toBeNull();
  });

  it('is monotone and stays within the range of y (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(score, score), { minLength: 2, maxLength: 60 }), fc.array(score, { minLength: 1, maxLength: 20 }), (pairs, probes) => {
        const f = fitBinnedIsotonic(pairs.map((p) => p[0]), pairs.map((p) => p[1]), 10);
        if (f === null) return;
        const ys = pairs.map((p) => p[1]);
        const sorted = [...probes].sort((a, b) => a - b);
        const out = sorted.map((v) => f.predict(v));
        for (let i = 1; i < out.length; i++) expect(out[i]).toBeGreaterThanOrEqual(out[i - 1] - 1e-12);
        for (const v of out) {
          expect(v).toBeGreaterThanOrEqual(Math.min(...ys) - 1e-12);
          expect(v).toBeLessThanOrEqual(Math.max(...ys) + 1e-12);
        }
      }),
    );
  });
});

describe('the online schedule', () => {
  const config = { bins: 10, minPairs: 12, refitEvery: 4, cap: 20 };

  it('is the identity until the minimum pairs, then refits every refitEvery new pairs', () => {
    const c = new BinnedCalibrator(config);
    // y = 1 - s: a map far from the identity, so a fit shows
    const group = (k: number) => [0, 1, 2, 3].map((i) => (k * 4 + i) % 10 / 10 + 0.05);
    for (let k = 0; k < 2; k++) {
      const s = group(k);
      c.learn(s, s.map((v) => 1 - v), k);
      expect(c.fitCount).toBe(0);
      expect(c.predict(0.25)).toBe(0.25);
    }
    c.learn(group(2), group(2).map((v) => 1 - v), 2); // pair 12: the first fit
    expect(c.fitCount).toBe(1);
    expect(c.predict(0.25)).not.toBe(0.25);
    c.learn([0.5, 0.6, 0.7], [0.1, 0.1, 0.1], 3); // 3 new pairs: no refit yet
    expect(c.fitCount).toBe(1);
    c.learn([0.8], [0.1], 4); // the 4th: refit
    expect(c.fitCount).toBe(2);
  });

  it('a refit falls due inside a group, pair by pair', () => {
    const c = new BinnedCalibrator({ bins: 10, minPairs: 2, refitEvery: 2, cap: 10 });
    c.learn([0.05, 0.95, 0.5], [0, 1, 0.5], 0); // fits at the 2nd pair, then 1 pair since
    expect(c.fitCount).toBe(1);
    expect(c.knots.x).toEqual([0.05, 0.95]);
  });

  it('keeps a FIFO buffer of at most cap pairs', () => {
    const c = new BinnedCalibrator({ bins: 10, minPairs: 2, refitEvery: 1, cap: 4 });
    c.learn([0.05, 0.15, 0.25, 0.35, 0.45, 0.55], [0, 0, 0, 1, 1, 1], 0);
    expect(c.pairCount).toBe(4);
    // only the last four pairs are fitted: s 0.25..0.55
    expect(c.knots.x).toEqual([0.25, 0.35, 0.45, 0.55]);
  });

  it('keeps its map when a refit finds one populated bin', () => {
    const c = new BinnedCalibrator({ bins: 10, minPairs: 2, refitEvery: 2, cap: 2 });
    c.learn([0.05, 0.95], [0, 1], 0);
    expect(c.fitCount).toBe(1);
    c.learn([0.51, 0.52], [0.3, 0.3], 1); // the buffer now holds one bin only
    expect(c.fitCount).toBe(1);
    expect(c.knots.x).toEqual([0.05, 0.95]);
  });

  it('restores from its state exactly', () => {
    const c = new BinnedCalibrator(config);
    for (let k = 0; k < 5; k++) c.learn([0.1 * k, 0.1 * k + 0.3, 0.9 - 0.1 * k], [0.2, 0.6, 0.4], k);
    const r = BinnedCalibrator.restore(JSON.parse(JSON.stringify(c.snapshotState())));
    for (let k = 5; k < 8; k++) {
      c.learn([0.05 * k, 0.5], [0.7, 0.1], k);
      r.learn([0.05 * k, 0.5], [0.7, 0.1], k);
    }
    expect(r.snapshotState()).toEqual(c.snapshotState());
    for (const v of [0, 0.2, 0.45, 0.8, 1]) expect(r.predict(v)).toBe(c.predict(v));
  });

  it("with the authors' constants, 80 pairs (our 20 steps) never leave the identity", () => {
    const c = new BinnedCalibrator(AUTHORS_BINNED);
    for (let k = 0; k < 20; k++) c.learn([0.1, 0.4, 0.6, 0.9], [0.9, 0.6, 0.4, 0.1], k);
    expect(c.fitCount).toBe(0);
    expect(c.predict(0.3)).toBe(0.3);
  });

  it('refuses a config that cannot work', () => {
    expect(() => new BinnedCalibrator({ ...config, bins: 1 })).toThrow(/2 bins/);
    expect(() => new BinnedCalibrator({ ...config, cap: 5 })).toThrow(/cap/);
    expect(() => new BinnedCalibrator({ ...config, refitEvery: 0 })).toThrow(/refitEvery/);
  });
});
