// The robot train panel's pure parts: the form becomes the preset's RobotTrainerConfig at the page's
// sizes (or a sentence naming the bad field, and no config), a step's record becomes the chart's
// points (mean s over every rollout, g(s) only when the run debiases), and a step's rollouts are
// listed by group, each exactly once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROBOT_BASE, robotPresetConfig } from '../../../src/embodied/robot-presets.ts';
import type { RobotGroupRecord, RobotRollout, RobotStepRecord } from '../../../src/embodied/robot-trainer.ts';
import { HORIZON } from '../../../src/embodied/rollout.ts';
import { ROBOT_TRAIN_DEFAULTS, ROBOT_TRAIN_LIMITS, TRAINABLE_ROBOT_PRESETS, robotTrainConfig, robotTrainFormFromParams, robotTrainFormParams } from '../../../src/ui/robot/robot-train-settings.ts';
import { ROBOT_DEFAULTS, robotSettingsParams } from '../../../src/ui/robot/robot-settings.ts';
import { paramOf } from '../../../src/ui/url-state.ts';
import { methodNumbers, rolloutGroups, seriesOf, stepPoint } from '../../../src/ui/robot/robot-train-view.ts';

describe('the train form', () => {
  it('defaults: robot-wmrl at B 4 x G 4, the preset horizon and lr, one anchor group a step', () => {
    const got = robotTrainConfig(ROBOT_TRAIN_DEFAULTS);
    if (!got.ok) throw new Error(got.error);
    expect(got.config).toEqual(robotPresetConfig('robot-wmrl', { seed: 1, groupsPerStep: 4, groupSize: 4, lr: ROBOT_BASE.lr, steps: 10 }));
    expect(got.config.horizon).toBe(HORIZON);
    expect(got.config.rho).toBe(1 / 4);
  });

  it('offers every robot preset that trains, not the SFT row', () => {
    expect(TRAINABLE_ROBOT_PRESETS.map((p) => p.id)).toEqual(['robot-grpo-sparse', 'robot-progress-only', 'robot-wmrl', 'robot-neither', 'robot-debias-only', 'robot-fusion-only',
      'robot-paper-grpo-sparse', 'robot-paper-progress-only', 'robot-paper-wmrl', 'robot-paper-wmrl-anchors']);
    const sft = robotTrainConfig({ ...ROBOT_TRAIN_DEFAULTS, preset: 'robot-sft' });
    expect(sft.ok).toBe(false);
  });

  it.each([
    [{ groupSize: 1 }, /G \(rollouts per state\)/],
    [{ groupsPerStep: 0 }, /B \(initial states a step\)/],
    [{ groupsPerStep: 2.5 }, /B \(initial states a step\)/],
    [{ seed: -1 }, /the seed/],
    [{ lr: 0 }, /lr must be/],
    [{ lr: Number.NaN }, /lr must be/],
    [{ steps: 0 }, /steps must be/],
  ])('refuses %o with a sentence naming the field', (change, message) => {
    const got = robotTrainConfig({ ...ROBOT_TRAIN_DEFAULTS, ...change });
    expect(got.ok).toBe(false);
    if (!got.ok) expect(got.error).toMatch(message);
  });

  it('any accepted form is a valid config of its preset (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TRAINABLE_ROBOT_PRESETS.map((p) => p.id)),
        fc.integer({ min: -3, max: 20 }),
        fc.integer({ min: -3, max: 12 }),
        fc.double({ min: -1, max: 1, noNaN: false }),
        (preset, b, g, lr) => {
          const got = robotTrainConfig({ ...ROBOT_TRAIN_DEFAULTS, preset, groupsPerStep: b, groupSize: g, lr });
          const valid = b >= 1 && b <= 16 && g >= 2 && g <= 8 && lr > 0 && lr <= 0.1;
          expect(got.ok).toBe(valid);
          if (got.ok) expect(got.config).toEqual(robotPresetConfig(preset, { seed: 1, groupsPerStep: b, groupSize: g, lr, steps: 10 }));
        },
      ),
    );
  });
});

function group(over: Partial<RobotGroupRecord>): RobotGroupRecord {
  return { taskId: 't', initialIndex: 0, anchor: false, success: [], lengths: [], progress: null, wmScores: null, wmRewards: null, realScores: null, rewards: [], advantages: [], coefficients: [], ...over };
}
function record(groups: RobotGroupRecord[], over: Partial<RobotStepRecord> = {}): RobotStepRecord {
  return {
    run: 'r', step: 0, groups, anchorGroups: groups.filter((g) => g.anchor).length, anchorsSoFar: 0, groupsSoFar: 0, progressModelCalled: true, successRate: 0.25, meanReward: 0, meanRealReward: null, meanWmReward: null,
    fusion: { mode: 'ivw', wA: 0.25, wW: 0.75, r: null, lambda: 0, vA: null, vW: null, weightsReused: false }, calibration: { pairs: 4, knots: { x: [], y: [] } }, zeroSpreadFraction: 0,
    update: { loss: 0.5, gradNorm: 1, clipScale: 1, clipFraction: 0, meanKl: 0, optimizerStep: 1, busyMs: 0 }, batch: { sequences: 10, rolloutSteps: 20, normalizer: 30 }, ms: { rollouts: 0, progress: 0, update: 0, wall: 0 },
    ...over,
  };
}

describe('the train form in the URL', () => {
  const urlOf = (values: Record<string, number | string>, defaults: Record<string, number | string>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) {
      const p = paramOf(v, defaults[k]);
      if (p !== null) q.set(k, p);
    }
    return q;
  };

  it('defaults leave the URL empty; its keys are rt.-prefixed, so none is the rollout view\'s or the coding view\'s', () => {
    const { values, defaults } = robotTrainFormParams(ROBOT_TRAIN_DEFAULTS);
    expect(urlOf(values, defaults).toString()).toBe('');
    expect(Object.keys(values).every((k) => k.startsWith('rt.'))).toBe(true);
    const viewKeys = Object.keys(robotSettingsParams(ROBOT_DEFAULTS).values);
    expect(Object.keys(values).some((k) => viewKeys.includes(k))).toBe(false);
    expect(robotTrainFormFromParams(new URLSearchParams('seed=9&r.seed=4&steps=3&B=2'))).toEqual(ROBOT_TRAIN_DEFAULTS);
  });

  it('round-trips any form the panel accepts (property)', () => {
    fc.assert(fc.property(
      fc.record({
        preset: fc.constantFrom(...TRAINABLE_ROBOT_PRESETS.map((p) => p.id)),
        seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        groupsPerStep: fc.integer({ min: 1, max: ROBOT_TRAIN_LIMITS.groupsPerStep }),
        groupSize: fc.integer({ min: 2, max: ROBOT_TRAIN_LIMITS.groupSize }),
        lr: fc.double({ min: 1e-7, max: 0.1, noNaN: true }),
        steps: fc.integer({ min: 1, max: ROBOT_TRAIN_LIMITS.steps }),
      }),
      (form) => {
        expect(robotTrainConfig(form).ok).toBe(true);
        const { values, defaults } = robotTrainFormParams(form);
        expect(robotTrainFormFromParams(urlOf(values, defaults))).toEqual(form);
      },
    ));
  });

  it('a hand-edited value the panel would refuse falls back to its default, field by field', () => {
    const got = robotTrainFormFromParams(new URLSearchParams('rt.preset=robot-sft&rt.seed=-1&rt.B=99&rt.G=1&rt.lr=0&rt.steps=2.5'));
    expect(got).toEqual(ROBOT_TRAIN_DEFAULTS);
    expect(robotTrainFormFromParams(new URLSearchParams('rt.preset=robot-grpo-sparse&rt.G=8&rt.lr=0.001'))).toEqual({ ...ROBOT_TRAIN_DEFAULTS, preset: 'robot-grpo-sparse', groupSize: 8, lr: 0.001 });
  });
});

describe('a step on the chart', () => {
  it('mean s over every rollout; g(s) only when the run debiases; steps count from 1', () => {
    const r = record([group({ wmScores: [0.1, 0.3], wmRewards: [0, 1], anchor: true, success: [true, false] }), group({ wmScores: [0.5, -0.1], wmRewards: [0.5, 0.5], success: [true, true] })], { step: 2 });
    expect(stepPoint(r, true)).toEqual({ step: 3, success: 0.25, dense: 0.2, calibrated: 0.5, anchorSuccess: 0.5, anchorCalibrated: 0.5 });
    expect(stepPoint(r, false)).toMatchObject({ calibrated: null, anchorCalibrated: null, anchorSuccess: 0.5 });
    expect(stepPoint(record([group({ success: [true] })]), true).anchorSuccess).toBeNull();
  });

  it('no progress model (rho 1): no dense point, the success point stays', () => {
    const p = stepPoint(record([group({})], { progressModelCalled: false }), false);
    expect(p.dense).toBeNull();
    expect(seriesOf([p], 'dense')).toEqual([]);
    expect(seriesOf([p], 'success')).toEqual([[1, 0.25]]);
  });

  it("the method's numbers: anchors, the fusion weights, the calibration pairs", () => {
    const n = methodNumbers(record([group({ anchor: true }), group({})]));
    expect(n).toMatchObject({ anchorGroups: 1, groups: 2, calibrationPairs: 4, sequences: 10, distinct: null });
    const merged = record([group({})]);
    expect(methodNumbers({ ...merged, batch: { ...merged.batch, distinct: 4 } }).distinct).toBe(4);
    expect(n.fusion).toBe('ivw: w_A 0.250, w_W 0.750');
    expect(methodNumbers(record([], { fusion: { mode: 'none', wA: 0.5, wW: 0.5, r: null, lambda: 0, vA: null, vW: null, weightsReused: false } })).fusion).toMatch(/^none/);
  });
});

describe("a step's rollouts by group", () => {
  it('every rollout once, groups in order, rollouts in order within each (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 7 })), { maxLength: 30 }), (pairs) => {
        const unique = [...new Map(pairs.map(([g, i]) => [`${g}:${i}`, [g, i] as const])).values()];
        const rollouts = unique.map(([g, i]) => ({ group: g, index: i, taskId: `task${g}`, initialIndex: g, anchor: g === 0 }) as RobotRollout);
        const got = rolloutGroups(rollouts);
        expect(got.flatMap((x) => x.rollouts).length).toBe(rollouts.length);
        expect(got.map((x) => x.group)).toEqual([...new Set(unique.map(([g]) => g))].sort((a, b) => a - b));
        for (const x of got) {
          expect(x.rollouts.every((r) => r.group === x.group)).toBe(true);
          expect(x.rollouts.map((r) => r.index)).toEqual([...x.rollouts.map((r) => r.index)].sort((a, b) => a - b));
          expect(x.anchor).toBe(x.group === 0);
        }
      }),
    );
  });
});
