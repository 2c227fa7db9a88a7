import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { integerTicks, nearestByX, readoutAt } from '../../../src/ui/charts/readout.ts';

describe('chart readouts', () => {
  it('each line gives its point nearest the x; a scatter only its point near the pointer', () => {
    const line = { label: 'w_A', color: 'blue', points: [[0, 0.1], [1, 0.4], [2, 0.9]] as [number, number][] };
    const dots = { label: 'pairs', color: 'grey', kind: 'scatter' as const, points: [[1, 5], [2, 7]] as [number, number][] };
    const id = (p: readonly [number, number]) => [p[0] * 100, p[1] * 10] as const;
    expect(readoutAt([line, dots], 1.2, [100, 50], id)).toEqual([
      { label: 'w_A', color: 'blue', x: 1, y: 0.4 },
      { label: 'pairs', color: 'grey', x: 1, y: 5 },
    ]);
    // far from every dot: the scatter is left out
    expect(readoutAt([line, dots], 1.2, [100, 200], id)).toEqual([{ label: 'w_A', color: 'blue', x: 1, y: 0.4 }]);
    expect(nearestByX([[0, Number.NaN], [3, 1]], 0)).toEqual([3, 1]);
    expect(nearestByX([], 0)).toBeNull();
  });

  it('nearestByX is the minimiser of |x - p.x| among finite points', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })), { minLength: 1, maxLength: 30 }), fc.double({ min: -60, max: 60, noNaN: true }), (pts, x) => {
        const p = nearestByX(pts, x)!;
        for (const q of pts) expect(Math.abs(p[0] - x)).toBeLessThanOrEqual(Math.abs(q[0] - x));
      }),
    );
  });

  it('integer axes tick at whole numbers only', () => {
    expect(integerTicks([0, 0.5, 1, 1.5, 2], 0, 2)).toEqual([0, 1, 2]);
    expect(integerTicks([1.5, 2, 2.5], 1.2, 2.8)).toEqual([2]);
    expect(integerTicks([0.2, 0.4, 0.6], 0, 1)).toEqual([0, 1]);
  });
});
