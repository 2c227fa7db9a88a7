import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ladderReward, RUNGS } from '../../../src/wmrl/reward-ladder.ts';

describe("the authors' reward ladder", () => {
  it('puts each rung at its reward', () => {
    expect(ladderReward('no-compile', 0.9)).toBe(0);
    expect(ladderReward('failed', 0.9)).toBe(0.1);
    expect(ladderReward('no-submission', 0.9)).toBe(0.2);
    expect(ladderReward('valid', 0)).toBe(0.5);
    expect(ladderReward('valid', 1)).toBe(1);
    expect(ladderReward('valid', 0.4)).toBeCloseTo(0.7, 12);
  });

  it('ranks every rung above the ones below it, whatever the positions (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (p, q) => {
        for (let i = 1; i < RUNGS.length; i++) expect(ladderReward(RUNGS[i], p)).toBeGreaterThan(ladderReward(RUNGS[i - 1], q));
      }),
    );
  });

  it('refuses a position outside [0, 1] for a valid run', () => {
    expect(() => ladderReward('valid', 1.5)).toThrow(/position/);
    expect(() => ladderReward('valid', Number.NaN)).toThrow(/position/);
  });
});
