// The leaderboard build's time left: weighted by what each reference program costs, not by count.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSecondsLeft, costShares, firstBuildEstimate, type RecordedBuild } from '../../../src/ui/playground/build-estimate.ts';

const board = (seconds: number[], nTrain = 1000, jobs = 2): RecordedBuild => ({
  programIds: seconds.map((_, i) => `p${i}`), programSeconds: seconds, seconds: seconds.reduce((a, x) => a + x, 0) / jobs, jobs, nTrain,
});

describe('leaderboard build estimate', () => {
  it('cheap programs first do not promise a short build', () => {
    // Nine constants of 0.1 s, then one forest of 90 s: after the constants 0.9 s have passed.
    const shares = costShares([board([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 90])]);
    const ids = Array.from({ length: 10 }, (_, i) => `p${i}`);
    const done = new Set(ids.slice(0, 9));
    expect(buildSecondsLeft(shares, ids, done, 0.9)).toBeCloseTo(90, 6);
    // A count-based pace would have said 0.1 s.
  });

  it('shares are medians over builds, unknown programs count as the median program, nothing done gives null', () => {
    const shares = costShares([board([1, 3]), board([1, 1]), board([3, 1])]);
    expect(shares.get('p0')).toBeCloseTo(0.5, 12);
    expect(buildSecondsLeft(shares, ['p0', 'p1', 'new'], new Set(), 5)).toBeNull();
    expect(buildSecondsLeft(shares, ['p0', 'new'], new Set(['p0']), 4)).toBeCloseTo(4, 12);
  });

  it('is never negative, and zero once everything is done', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0.001, max: 100, noNaN: true }), { minLength: 1, maxLength: 12 }), fc.double({ min: 0, max: 1000, noNaN: true }), fc.integer({ min: 0, max: 12 }), (secs, elapsed, k) => {
      const shares = costShares([board(secs)]);
      const ids = secs.map((_, i) => `p${i}`);
      const left = buildSecondsLeft(shares, ids, new Set(ids.slice(0, k)), elapsed);
      if (left !== null) expect(left).toBeGreaterThanOrEqual(0);
      if (k >= ids.length) expect(left).toBeCloseTo(0, 9);
    }));
  });

  it('the first estimate scales recorded builds to the rows and workers at hand', () => {
    const e = firstBuildEstimate([board([10, 30], 500, 2), board([40, 40], 1000, 2)], 1000, 1);
    // 20 s x 2 rows x 2 workers / 1 = 80; 40 s x 1 x 2 = 80.
    expect(e).toEqual({ low: 80, median: 80, high: 80 });
    expect(firstBuildEstimate([], 100, 2)).toBeNull();
  });
});
