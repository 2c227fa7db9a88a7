// The one mean: left-to-right sums, NaN or null for no data, and the same float as the sums it replaced.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meanOf, meanOrNull } from '../../../src/primitives/mean.ts';

describe('meanOf and meanOrNull', () => {
  it('no data is NaN or null', () => {
    expect(meanOf([])).toBeNaN();
    expect(meanOrNull([])).toBeNull();
  });

  it('sums left to right: bit for bit the loop the callers used before, nested groups flattened in order', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 6 }), { maxLength: 6 }), (groups) => {
        let sum = 0;
        let n = 0;
        for (const g of groups) for (const v of g) {
          sum += v;
          n++;
        }
        const got = meanOrNull(groups.flat());
        if (n === 0) expect(got).toBeNull();
        else expect(Object.is(got, sum / n)).toBe(true);
      }),
    );
  });
});
