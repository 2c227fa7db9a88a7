import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { anchorShare, calibrationCurve, costSeries, fusionSeries, rewardSeries, stepTimes, trailingMean } from '../../../src/ui/train/run-series.ts';
import { emptyCost } from '../../../src/training/cost.ts';
import type { StepRecord } from '../../../src/training/trainer.ts';

function record(step: number, over: Partial<StepRecord> = {}): StepRecord {
  const cost = emptyCost();
  cost.busyMs.sandbox = 1000 * (step + 1);
  cost.totalBusyMs = 1000 * (step + 1);
  cost.wallMs = 1500 * (step + 1);
  return {
    run: 'test', step, groups: [], anchorGroups: step % 2, anchorsSoFar: Math.ceil((step + 1) / 2), groupsSoFar: 2 * (step + 1),
    worldModelCalled: true, meanReward: 0.5, meanRealReward: step % 2 ? 0.4 : null, meanWmReward: 0.6,
    realVsWm: { pairs: 0, meanAbsError: null, meanError: null },
    fusion: { mode: 'ivw', wA: 0.3, wW: 0.7, r: 0.01, lambda: 0, vA: 1, vW: 1, weightsReused: false },
    theory: null, calibration: { pairs: 0, knots: { x: [], y: [] } }, zeroSpreadFraction: 0, wmZeroSpreadFraction: 0,
    executions: 0, validRunRate: null,
    update: { loss: 0, gradNorm: 0, clipScale: 1, clipFraction: 0, meanKl: 0, optimizerStep: step + 1, busyMs: 0 },
    batch: { sequences: 0, programTokens: 0, normalizer: 1 }, cost, cumulativeCost: cost, wallMs: 0,
    ...over,
  };
}

describe('Train view series', () => {
  it('plots real scores only on steps that executed anchors', () => {
    const s = rewardSeries([record(0), record(1), record(2), record(3)]);
    expect(s.training).toHaveLength(4);
    expect(s.real.map((p) => p[0])).toEqual([2, 4]);
  });

  it('hides fusion weights when the world model was not called (all-real GRPO)', () => {
    const f = fusionSeries([record(0, { worldModelCalled: false }), record(1)]);
    expect(f.wA).toEqual([[2, 0.3]]);
    expect(f.lambda).toEqual([]);
  });

  it('reports cumulative busy seconds per component and wall clock', () => {
    const c = costSeries([record(0), record(1)]);
    expect(c.components.find((x) => x.component === 'sandbox')!.points).toEqual([[1, 1], [2, 2]]);
    expect(c.wall).toEqual([[1, 1.5], [2, 3]]);
  });

  it('draws the identity before any anchor, and the knots extended to [0, 1] after', () => {
    expect(calibrationCurve(undefined)).toEqual([[0, 0], [1, 1]]);
    const r = record(0, { calibration: { pairs: 4, knots: { x: [0.2, 0.7], y: [0.1, 0.9] } } });
    expect(calibrationCurve(r)).toEqual([[0, 0.1], [0.2, 0.1], [0.7, 0.9], [1, 0.9]]);
    expect(anchorShare(record(3))).toBeCloseTo(2 / 8);
  });
});

describe("the fusion chart under the authors' anchor weight", () => {
  it('shows w / 4 and the anchors\' share of the update instead of the unused stream weights', () => {
    const base = record(1);
    const authors = {
      ...base,
      anchorGroups: 1,
      fusion: { ...base.fusion, mode: 'anchor-weight' as const, anchorWeight: 2 },
      groups: [true, false].map((anchor) => ({
        taskId: 't', anchor, programs: ['a', 'b'], programTokens: [1, 1], stopped: [true, true], wmScores: [0.4, 0.6], wmRewards: [0.4, 0.6],
        realScores: anchor ? [1, 0] : null, statuses: anchor ? ['ok' as const, 'error' as const] : null, rewards: [1, 0], advantages: [0.5, -0.5],
        coefficients: anchor ? [2, -2] : [1, -1],
      })),
    };
    const f = fusionSeries([authors]);
    expect(f.wA).toEqual([]);
    expect(f.authorsWeightQuarter).toEqual([[2, 0.5]]);
    expect(f.anchorShare[0][1]).toBeCloseTo(4 / 6, 12);
  });
});

describe('the smoothed real score', () => {
  it('averages the last window points it has, on the steps that have a real score', () => {
    const s = rewardSeries([record(0), record(1), record(2), record(3)]);
    expect(s.realSmoothed.map((p) => p[0])).toEqual([2, 4]);
    expect(trailingMean([[1, 0], [2, 1], [3, 2], [4, 6]], 2)).toEqual([[1, 0], [2, 0.5], [3, 1.5], [4, 4]]);
    expect(() => trailingMean([], 0)).toThrow(/window/);
  });

  it('stays within the range of the window it averages (property)', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), fc.integer({ min: 1, max: 8 }), (ys, w) => {
      const pts = ys.map((y, i) => [i + 1, y] as const);
      const m = trailingMean(pts, w);
      expect(m.map((p) => p[0])).toEqual(pts.map((p) => p[0]));
      m.forEach((p, i) => {
        const win = ys.slice(Math.max(0, i - w + 1), i + 1);
        expect(p[1]).toBeGreaterThanOrEqual(Math.min(...win) - 1e-12);
        expect(p[1]).toBeLessThanOrEqual(Math.max(...win) + 1e-12);
      });
    }));
  });
});

describe("where a step's time went", () => {
  it('lists the charged components, largest first, with the wall time', () => {
    const r = record(1);
    r.cost = { ...emptyCost(), busyMs: { ...emptyCost().busyMs, policySampling: 40_000, policyUpdate: 30_000, sandbox: 5_000 }, wallMs: 80_000 };
    const t = stepTimes(r);
    expect(t.wallSeconds).toBe(80);
    expect(t.parts.map((p) => [p.label, p.seconds])).toEqual([['policy sampling', 40], ['policy update', 30], ['sandbox executions', 5]]);
  });
});
