// When the experiment page keeps its run so far: before every evaluation, the first time, and then
// only once training has run KEEP_COST_RATIO times the last keep's cost.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEEP_COST_RATIO, keepAfterStep } from '../../../src/experiments/keeping.ts';

describe('keepAfterStep', () => {
  it('keeps the first step of an invocation and every step an evaluation follows, however recent the last keep', () => {
    expect(keepAfterStep(null, 0, false)).toBe(true);
    expect(keepAfterStep({ at: 1000, ms: 500 }, 1001, true)).toBe(true);
  });

  it('between evaluations, keeps exactly when the time since the last keep reaches the ratio times its cost', () => {
    expect(KEEP_COST_RATIO).toBe(20);
    expect(keepAfterStep({ at: 1000, ms: 500 }, 1000 + 20 * 500 - 1, false)).toBe(false);
    expect(keepAfterStep({ at: 1000, ms: 500 }, 1000 + 20 * 500, false)).toBe(true);
  });

  it('with keeps of one cost, keeping takes at most 1 / (1 + ratio) of the time after the first keep', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 60_000 }), { minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 20_000 }), (steps, cost) => {
        let now = 0;
        let last: { at: number; ms: number } | null = null;
        let after = 0;
        let keeping = 0;
        for (const step of steps) {
          now += step;
          if (last) after += step;
          if (keepAfterStep(last, now, false)) {
            if (last) {
              keeping += cost;
              after += cost;
            }
            now += cost;
            last = { at: now, ms: cost };
          }
        }
        expect(keeping * (1 + KEEP_COST_RATIO)).toBeLessThanOrEqual(after);
      }),
    );
  });
});
