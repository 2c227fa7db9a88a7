import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { groupAdvantages, rewardSpread, STD_EPSILON, zeroSpreadFraction, type AdvantageMode } from '../../../src/wmrl/advantages.ts';

const reward = fc.double({ min: 0, max: 1, noNaN: true });
const group = fc.array(reward, { minLength: 2, maxLength: 12 });
const modes: AdvantageMode[] = ['mean', 'std', 'rloo'];

describe('groupAdvantages', () => {
  it('sums to zero within every group, in every mode', () => {
    fc.assert(
      fc.property(group, fc.constantFrom(...modes), (r, mode) => {
        const a = groupAdvantages(r, mode);
        expect(a).toHaveLength(r.length);
        const scale = Math.max(1, ...a.map(Math.abs));
        expect(Math.abs(a.reduce((x, y) => x + y, 0))).toBeLessThan(1e-9 * scale * r.length);
      }),
    );
  });

  it("'mean' is r minus the group mean", () => {
    expect(groupAdvantages([0.2, 0.6, 1.0], 'mean')).toEqual([expect.closeTo(-0.4, 12), expect.closeTo(0, 12), expect.closeTo(0.4, 12)]);
  });

  it("'std' with n = 2 gives +-1/sqrt(2) whatever the gap (sample std)", () => {
    fc.assert(
      fc.property(reward, reward, (x, y) => {
        fc.pre(Math.abs(x - y) > 1e-3);
        const [a, b] = groupAdvantages([x, y], 'std');
        const gap = Math.abs(x - y);
        // (gap/2) / (gap/sqrt(2) + eps)
        const expected = gap / 2 / (gap / Math.SQRT2 + STD_EPSILON);
        expect(Math.abs(a)).toBeCloseTo(expected, 12);
        expect(Math.abs(a)).toBeGreaterThan(0.7);
        expect(Math.abs(a)).toBeLessThan(Math.SQRT1_2);
        expect(a).toBeCloseTo(-b, 12);
        expect(Math.sign(a)).toBe(Math.sign(x - y));
      }),
    );
  });

  it("'std' matches (r - mean)/(sample std + 1e-6) on a known case", () => {
    const r = [0, 0, 1, 1];
    const sd = Math.sqrt((4 * 0.25) / 3);
    const a = groupAdvantages(r, 'std');
    expect(a[0]).toBeCloseTo(-0.5 / (sd + 1e-6), 12);
    expect(a[3]).toBeCloseTo(0.5 / (sd + 1e-6), 12);
  });

  it("'rloo' equals r_i minus the mean of the others", () => {
    fc.assert(
      fc.property(group, (r) => {
        const a = groupAdvantages(r, 'rloo');
        const total = r.reduce((x, y) => x + y, 0);
        r.forEach((ri, i) => expect(a[i]).toBeCloseTo(ri - (total - ri) / (r.length - 1), 10));
        const m = groupAdvantages(r, 'mean');
        m.forEach((mi, i) => expect(a[i]).toBeCloseTo((mi * r.length) / (r.length - 1), 10));
      }),
    );
  });

  it('gives zero for a flat group and for a group of one, and rejects non-finite rewards', () => {
    for (const mode of modes) {
      expect(groupAdvantages([0.3, 0.3, 0.3], mode)).toEqual([0, 0, 0]);
      expect(groupAdvantages([0.9], mode)).toEqual([0]);
      expect(groupAdvantages([], mode)).toEqual([]);
      expect(() => groupAdvantages([0.1, Number.NaN], mode)).toThrow(RangeError);
    }
  });
});

describe('zeroSpreadFraction', () => {
  it('counts groups whose rewards all agree', () => {
    expect(zeroSpreadFraction([[0.5, 0.5], [0, 1], [0.2, 0.2, 0.2], [0.1, 0.1 + 1e-12]])).toBe(0.75);
    expect(zeroSpreadFraction([[0, 1e-3]], 1e-2)).toBe(1);
    expect(zeroSpreadFraction([])).toBe(0);
    expect(rewardSpread([0.2, 0.9, 0.4])).toBeCloseTo(0.7, 12);
  });

  it('is the fraction of groups whose advantages are all zero', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(0, 0.5, 1), { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 10 }), (groups) => {
        const flat = groups.filter((g) => groupAdvantages(g, 'mean').every((a) => a === 0)).length;
        expect(zeroSpreadFraction(groups)).toBeCloseTo(flat / groups.length, 12);
      }),
    );
  });
});
