import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { minimumDetectableDifference } from '../../../src/experiments/power.ts';

describe('minimumDetectableDifference', () => {
  it("gives the plan's figure: 16 seeds at the pilot's SD of 14.7 detect about 11.0 points", () => {
    // docs/results.md: (2.131 + 0.866) x 14.7 / sqrt(16) = 11.0
    expect(minimumDetectableDifference(14.7, 16)).toBeCloseTo((2.1314 + 0.8662) * 14.7 / 4, 2);
    expect(minimumDetectableDifference(14.7, 16).toFixed(1)).toBe('11.0');
  });

  it('shrinks with more seeds and grows with the SD and the power', () => {
    fc.assert(fc.property(fc.double({ min: 0.1, max: 50, noNaN: true }), fc.integer({ min: 2, max: 200 }), (sd, n) => {
      const d = minimumDetectableDifference(sd, n);
      expect(minimumDetectableDifference(sd, n + 1)).toBeLessThan(d);
      expect(minimumDetectableDifference(sd * 2, n)).toBeCloseTo(2 * d, 9);
      expect(minimumDetectableDifference(sd, n, 0.05, 0.9)).toBeGreaterThan(d);
    }));
  });

  it('refuses what has no answer', () => {
    expect(() => minimumDetectableDifference(1, 1)).toThrow(RangeError);
    expect(() => minimumDetectableDifference(Number.NaN, 5)).toThrow(RangeError);
    expect(() => minimumDetectableDifference(1, 5, 0.05, 0.4)).toThrow(RangeError);
  });
});
