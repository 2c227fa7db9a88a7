import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { anchorTimeline } from '../../../src/ui/companion/sim-anchors.ts';
import { advantagesByMode, defaultRewards, twoProgramStdAdvantage } from '../../../src/ui/companion/sim-advantages.ts';

describe('anchor timeline (section 1)', () => {
  it('keeps cumulative anchors equal to round(rho * groups) after every step', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 32 }), fc.integer(), (rho, groups, seed) => {
        const tl = anchorTimeline(rho, groups, 30, seed);
        expect(tl.steps).toHaveLength(30);
        for (const s of tl.steps) {
          expect(s.cumulativeAnchors).toBe(s.target);
          expect(s.target).toBe(Math.round(rho * s.cumulativeGroups));
          for (const a of s.anchors) expect(a).toBeLessThan(groups);
        }
      }),
    );
  });

  it('is deterministic per seed and differs between seeds', () => {
    expect(anchorTimeline(0.1, 8, 40, 5)).toEqual(anchorTimeline(0.1, 8, 40, 5));
    const a = anchorTimeline(0.1, 8, 40, 5).steps.map((s) => s.anchors.join());
    const b = anchorTimeline(0.1, 8, 40, 6).steps.map((s) => s.anchors.join());
    expect(a).not.toEqual(b);
  });

  it('leaves some small-batch steps without anchors, none with a large batch at rho 0.1', () => {
    expect(anchorTimeline(0.1, 4, 40, 1).stepsWithoutAnchors).toBeGreaterThan(20);
    expect(anchorTimeline(0.1, 20, 40, 1).stepsWithoutAnchors).toBe(0);
  });
});

describe('advantages by mode (section 2)', () => {
  it('gives +-0.71 with std normalisation for two programs whatever the gap', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-3, max: 1, noNaN: true }), (gap) => {
        const [row] = twoProgramStdAdvantage([gap]);
        expect(row.std).toBeCloseTo(Math.SQRT1_2, 2);
        expect(row.mean).toBeCloseTo(gap / 2, 12);
      }),
    );
  });

  it('relates the modes: rloo = n/(n-1) mean, std = mean / sample std', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 8 }), (r) => {
        const a = advantagesByMode(r);
        const n = r.length;
        const ss = a.mean.reduce((s, v) => s + v * v, 0);
        const std = Math.sqrt(ss / (n - 1));
        a.mean.forEach((m, i) => {
          expect(a.rloo[i]).toBeCloseTo((n / (n - 1)) * m, 10);
          expect(a.std[i]).toBeCloseTo(m / (std + 1e-6), 6);
        });
      }),
    );
  });

  it('starts from evenly spread rewards in [0, 1]', () => {
    for (let n = 2; n <= 8; n++) {
      const r = defaultRewards(n);
      expect(r).toHaveLength(n);
      expect(Math.min(...r)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...r)).toBeLessThanOrEqual(1);
      expect(new Set(r).size).toBe(n);
    }
  });
});
