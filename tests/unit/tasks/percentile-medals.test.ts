import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { percentileOf, isBetter } from '../../../src/tasks/percentile.ts';
import { medalFor, medalPlaces, medalThresholds } from '../../../src/tasks/medals.ts';

describe('percentile', () => {
  it('counts beaten entries fully and ties half, higher is better', () => {
    // Beats 0.5 and 0.6, ties 0.7 -> (2 + 0.5) / 4.
    expect(percentileOf(0.7, [0.5, 0.6, 0.7, 0.9], 'higher')).toBeCloseTo(0.625, 12);
    expect(percentileOf(1.0, [0.5, 0.6], 'higher')).toBe(1);
    expect(percentileOf(0.1, [0.5, 0.6], 'higher')).toBe(0);
  });

  it('lower is better flips the comparison', () => {
    // rmse 2: beats 3 and 4, ties 2, loses to 1 -> 2.5 / 4.
    expect(percentileOf(2, [1, 2, 3, 4], 'lower')).toBeCloseTo(0.625, 12);
    expect(percentileOf(0.5, [1, 2], 'lower')).toBe(1);
  });

  it('treats floating-point noise as a tie', () => {
    expect(percentileOf(0.1 + 0.2, [0.3], 'higher')).toBe(0.5);
    expect(isBetter(0.1 + 0.2, 0.3, 'higher')).toBe(false);
  });

  it('a leaderboard of identical values gives 0.5 to that value', () => {
    expect(percentileOf(3, [3, 3, 3], 'lower')).toBe(0.5);
  });

  it('lies in [0, 1], is monotone in the value, and mirrors under direction flip', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }), (board, a, b) => {
        const pa = percentileOf(a, board, 'higher');
        expect(pa).toBeGreaterThanOrEqual(0);
        expect(pa).toBeLessThanOrEqual(1);
        if (a <= b) expect(pa).toBeLessThanOrEqual(percentileOf(b, board, 'higher'));
        expect(percentileOf(a, board, 'lower')).toBeCloseTo(1 - pa, 12);
      }),
    );
  });
});

describe('MLE-bench medals', () => {
  it('places at boundary sizes', () => {
    expect(medalPlaces(1)).toEqual({ gold: 1, silver: 1, bronze: 1 });
    expect(medalPlaces(9)).toEqual({ gold: 1, silver: 1, bronze: 3 });
    expect(medalPlaces(50)).toEqual({ gold: 5, silver: 10, bronze: 20 });
    expect(medalPlaces(99)).toEqual({ gold: 9, silver: 19, bronze: 39 });
    expect(medalPlaces(100)).toEqual({ gold: 10, silver: 20, bronze: 40 });
    expect(medalPlaces(249)).toEqual({ gold: 10, silver: 49, bronze: 99 });
    expect(medalPlaces(250)).toEqual({ gold: 10, silver: 50, bronze: 100 });
    expect(medalPlaces(999)).toEqual({ gold: 11, silver: 50, bronze: 100 });
    expect(medalPlaces(1000)).toEqual({ gold: 12, silver: 50, bronze: 100 });
    expect(medalPlaces(5000)).toEqual({ gold: 20, silver: 250, bronze: 500 });
    expect(() => medalPlaces(0)).toThrow();
  });

  it('thresholds are the values at those places and ties with a threshold earn the medal', () => {
    const board = Array.from({ length: 50 }, (_, i) => i + 1); // 50 best ... 1 worst (higher is better)
    expect(medalThresholds(board, 'higher')).toEqual({ gold: 46, silver: 41, bronze: 31 });
    expect(medalFor(46, board, 'higher')).toBe('gold');
    expect(medalFor(45.5, board, 'higher')).toBe('silver');
    expect(medalFor(41, board, 'higher')).toBe('silver');
    expect(medalFor(31, board, 'higher')).toBe('bronze');
    expect(medalFor(30.9, board, 'higher')).toBeNull();
    // Lower is better: the same board read as errors.
    expect(medalThresholds(board, 'lower')).toEqual({ gold: 5, silver: 10, bronze: 20 });
    expect(medalFor(5, board, 'lower')).toBe('gold');
    expect(medalFor(20.5, board, 'lower')).toBeNull();
    expect(medalFor(1, [], 'lower')).toBeNull();
  });
});
