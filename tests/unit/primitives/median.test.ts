// The one median: the middle value, or the mean of the middle two; the input left in its order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { medianOf } from '../../../src/primitives/median.ts';

describe('medianOf', () => {
  it('no data is NaN; odd and even counts', () => {
    expect(medianOf([])).toBeNaN();
    expect(medianOf([3, 1, 2])).toBe(2);
    expect(medianOf([4, 1, 3, 2])).toBe(2.5);
  });

  it('as many values at or below it as at or above it, and the input not reordered', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 20 }), (xs) => {
        const copy = [...xs];
        const m = medianOf(xs);
        expect(xs).toEqual(copy);
        expect(xs.filter((x) => x <= m).length).toBeGreaterThanOrEqual(xs.length / 2);
        expect(xs.filter((x) => x >= m).length).toBeGreaterThanOrEqual(xs.length / 2);
      }),
    );
  });
});
