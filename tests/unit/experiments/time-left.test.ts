import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTimeLeft, formatDuration } from '../../../src/experiments/time-left.ts';

describe('experiment time left', () => {
  it("judges each remaining run by its own preset's median, else by its kind's", () => {
    const finished = [
      { preset: 'grpo-all-real', kind: 'train' as const, wallMs: 100 },
      { preset: 'grpo-all-real', kind: 'train' as const, wallMs: 300 },
      { preset: 'grpo-all-real', kind: 'train' as const, wallMs: 200 },
      { preset: 'wmrl', kind: 'train' as const, wallMs: 50 },
      { preset: 'sft', kind: 'sft' as const, wallMs: 10 },
    ];
    expect(estimateTimeLeft(finished, [{ preset: 'grpo-all-real', kind: 'train' }])).toBe(200);
    expect(estimateTimeLeft(finished, [{ preset: 'wmrl', kind: 'train' }, { preset: 'sft', kind: 'sft' }])).toBe(60);
    // an unseen preset: the median of all training runs (100, 200, 300, 50 -> 150)
    expect(estimateTimeLeft(finished, [{ preset: 'wmrl-static', kind: 'train' }])).toBe(150);
    expect(estimateTimeLeft([], [{ preset: 'wmrl', kind: 'train' }])).toBeNull();
    expect(estimateTimeLeft(finished.slice(0, 4), [{ preset: 'sft', kind: 'sft' }])).toBeNull();
    expect(estimateTimeLeft(finished, [])).toBe(0);
  });

  it('is additive over remaining runs and lies within the range of finished walls per run', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1e7 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 10 }), (walls, n) => {
        const finished = walls.map((wallMs) => ({ preset: 'p', kind: 'train' as const, wallMs }));
        const left = estimateTimeLeft(finished, Array.from({ length: n }, () => ({ preset: 'p', kind: 'train' as const })))!;
        expect(left).toBeGreaterThanOrEqual(n * Math.min(...walls));
        expect(left).toBeLessThanOrEqual(n * Math.max(...walls));
      }),
    );
  });

  it('formats durations for a progress line', () => {
    expect(formatDuration(40_000)).toBe('40 s');
    expect(formatDuration(12 * 60_000)).toBe('12 min');
    expect(formatDuration(65 * 60_000)).toBe('1 h 05 min');
  });
});
