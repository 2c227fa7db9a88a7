import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DELTA_WINDOW, PROGRESS_FRAMES, denseReward, frameIndices, type DenseRewardMode } from '../../../src/embodied/shaping.ts';

const score = fc.double({ min: 0, max: 1, noNaN: true });
const scores = fc.array(score, { minLength: PROGRESS_FRAMES, maxLength: PROGRESS_FRAMES });
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('frame indices', () => {
  it('spread 8 frames from the first to the last, in order, distinct once there are 8 or more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), (n) => {
        const idx = frameIndices(n);
        expect(idx.length).toBe(PROGRESS_FRAMES);
        expect(idx[0]).toBe(0);
        expect(idx[PROGRESS_FRAMES - 1]).toBe(n - 1);
        for (let i = 1; i < idx.length; i++) expect(idx[i]).toBeGreaterThanOrEqual(idx[i - 1]);
        if (n >= PROGRESS_FRAMES) expect(new Set(idx).size).toBe(PROGRESS_FRAMES);
        // numpy's linspace(0, n - 1, 8).astype(int), exactly.
        idx.forEach((v, i) => expect(v).toBe(Math.floor(((n - 1) * i) / 7 + 1e-9)));
      }),
    );
    expect(frameIndices(15)).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
    expect(() => frameIndices(0)).toThrow(/at least one observation/);
  });
});

describe('dense reward from 8 progress scores', () => {
  it("'delta' is the mean of the last 3 minus the mean of the first 3", () => {
    expect(denseReward([0, 0, 0, 0.5, 0.5, 1, 1, 1])).toBe(1);
    expect(denseReward([0.2, 0.4, 0.6, 0, 0, 0.1, 0.2, 0.3], 'delta')).toBeCloseTo(-0.2, 12);
    expect(denseReward([0.2, 0.4, 0.6, 0, 0, 0.1, 0.2, 0.3], 'final')).toBe(0.3);
    expect(denseReward([0.2, 0.4, 0.6, 0, 0, 0.1, 0.2, 0.3], 'max')).toBe(0.6);
  });

  it("property: 'delta' lies in [-1, 1]; 'final' and 'max' in [0, 1] with max >= final and max >= every score", () => {
    fc.assert(
      fc.property(scores, (p) => {
        const d = denseReward(p, 'delta');
        expect(d).toBeGreaterThanOrEqual(-1);
        expect(d).toBeLessThanOrEqual(1);
        const f = denseReward(p, 'final');
        const m = denseReward(p, 'max');
        expect(f).toBe(p[7]);
        expect(m).toBeGreaterThanOrEqual(f);
        for (const v of p) expect(m).toBeGreaterThanOrEqual(v);
      }),
    );
  });

  it("property: 'delta' is potential-based shaping, a fixed positive sum of frame-to-frame differences", () => {
    // mean(last 3) - mean(first 3) = sum_k w_k (p[k+1] - p[k]) with w = (1, 2, 3, 3, 3, 2, 1) / 3.
    const w = [1, 2, 3, 3, 3, 2, 1].map((v) => v / 3);
    fc.assert(
      fc.property(scores, (p) => {
        const telescoped = w.reduce((acc, wk, k) => acc + wk * (p[k + 1] - p[k]), 0);
        expect(denseReward(p, 'delta')).toBeCloseTo(telescoped, 12);
        expect(denseReward(p, 'delta')).toBeCloseTo(mean(p.slice(-DELTA_WINDOW)) - mean(p.slice(0, DELTA_WINDOW)), 12);
      }),
    );
  });

  it("property: 'delta' ignores where progress starts, rewards progress made, and reverses sign with time", () => {
    fc.assert(
      fc.property(scores, fc.double({ min: -1, max: 1, noNaN: true }), (p, c) => {
        const shifted = p.map((v) => v + c);
        if (shifted.every((v) => v >= 0 && v <= 1)) expect(denseReward(shifted, 'delta')).toBeCloseTo(denseReward(p, 'delta'), 12);
        expect(denseReward([...p].reverse(), 'delta')).toBeCloseTo(-denseReward(p, 'delta'), 12);
        const rising = [...p].sort((a, b) => a - b);
        expect(denseReward(rising, 'delta')).toBeGreaterThanOrEqual(0);
        expect(denseReward(p.map(() => p[0]), 'delta')).toBe(0);
      }),
    );
  });

  it("'max' can be gamed by one good-looking frame that 'delta' and 'final' do not reward", () => {
    const spike = [0, 0, 0, 1, 0, 0, 0, 0];
    expect(denseReward(spike, 'max')).toBe(1);
    expect(denseReward(spike, 'delta')).toBe(0);
    expect(denseReward(spike, 'final')).toBe(0);
  });

  it('refuses the wrong number of scores, a score outside [0, 1] and an unknown mode, with a message', () => {
    expect(() => denseReward([0.1, 0.2])).toThrow(/needs 8 progress scores, got 2/);
    expect(() => denseReward([0, 0, 0, 0, 0, 0, 0, 1.5])).toThrow(/score 7 is 1.5/);
    expect(() => denseReward([0, 0, 0, Number.NaN, 0, 0, 0, 0])).toThrow(/score 3 is NaN/);
    expect(() => denseReward([0, 0, 0, 0, 0, 0, 0, 0], 'mean' as DenseRewardMode)).toThrow(/unknown dense reward mode "mean"/);
  });
});
