// One WMRL step as a pure function over plain arrays (method.md 3.2-3.7). MethodState plans which
// groups to execute (AnchorSchedule), the trainer gathers world-model scores for every group and real
// scores for the anchors, then `scoreStep` turns them into loss coefficients, and MethodState feeds
// `anchorPairs` to the online calibrator afterwards.
//
// Calibration timing (a choice; the paper only says "refit every step"): a step is scored with the
// calibrator fitted on anchors of *earlier* steps, and its own anchor pairs are added after. This keeps
// r an out-of-sample error (a calibrator refitted on the very pairs it is judged on would look better
// than it is) and keeps the world model independent of the anchors it is rectified on, which PPI needs
// to stay unbiased. The cost is a one-step lag in what the calibrator has seen.

import { groupAdvantages, zeroSpreadFraction, type AdvantageMode } from './advantages.ts';
import { fuseStreams, type FusionConfig, type FusionDiagnostics, type FusionState } from './fusion.ts';
import type { Calibrator } from './isotonic.ts';
import { trainingRewards, worldModelRewards } from './rewards.ts';

export interface StepConfig {
  advantageMode: AdvantageMode;
  /** Debiasing on: world-model groups use g(s); off: raw s. */
  debias: boolean;
  fusion: FusionConfig;
}

export interface StepInput {
  /** World-model scores s, per group and program; every group has them. */
  s: readonly (readonly number[])[];
  /** Real scores y for anchor groups, null for world-model groups. */
  y: readonly (readonly number[] | null)[];
  /** The calibrator fitted on earlier steps' anchors (identity before any). */
  calibrator: Calibrator;
  fusionState: FusionState;
  config: StepConfig;
}

export interface StepDiagnostics extends FusionDiagnostics {
  /** Fraction of groups whose training rewards have zero spread (no gradient from them). */
  zeroSpreadFraction: number;
  /** Same, over world-model groups only, on their calibrated rewards (a flat calibrator shows here). */
  wmZeroSpreadFraction: number;
  /** Mean training reward, mean real reward on anchors (null without), mean world-model reward. */
  meanReward: number;
  meanRealReward: number | null;
  meanWmReward: number;
}

export interface StepResult {
  /** Rewards the policy is trained on: y on anchors, g(s) (or s) elsewhere. */
  rewards: number[][];
  /** World-model rewards g(s) (or s) for every group, anchors included. */
  wmRewards: number[][];
  /** Advantages of the training rewards. */
  advantages: number[][];
  /** Advantages of the world-model rewards, every group. */
  wmAdvantages: number[][];
  /** Per-sequence loss coefficients: L = -sum_i coefficients[g][i] * sum_tokens logp / Z. */
  coefficients: number[][];
  /** This step's (s, y) anchor pairs, for the calibrator. */
  anchorPairs: { s: number[]; y: number[] };
  /** Anchor groups' world-model and real advantages, paired, for the bias/noise tracker. */
  anchorAdvantages: { wm: number[][]; real: number[][] };
  fusionState: FusionState;
  diagnostics: StepDiagnostics;
}

function mean(groups: readonly (readonly number[])[]): number | null {
  let sum = 0;
  let n = 0;
  for (const g of groups) for (const v of g) {
    sum += v;
    n++;
  }
  return n === 0 ? null : sum / n;
}

export function scoreStep(input: StepInput): StepResult {
  const { s, y, calibrator, fusionState, config } = input;
  if (s.length !== y.length) throw new RangeError(`${s.length} groups of world-model scores but ${y.length} entries of real scores`);

  const wmRewards = s.map((g) => worldModelRewards(g, calibrator, config.debias));
  const rewards = wmRewards.map((g, k) => trainingRewards(g, y[k]));
  const advantages = rewards.map((g) => groupAdvantages(g, config.advantageMode));
  const wmAdvantages = wmRewards.map((g, k) => (y[k] === null ? advantages[k] : groupAdvantages(g, config.advantageMode)));

  const fused = fuseStreams(
    wmAdvantages.map((wm, k) => ({ wm, real: y[k] === null ? null : advantages[k] })),
    fusionState,
    config.fusion,
  );

  const pairS: number[] = [];
  const pairY: number[] = [];
  const anchorWm: number[][] = [];
  const anchorReal: number[][] = [];
  const realRewards: number[][] = [];
  const wmGroupRewards: number[][] = [];
  for (let k = 0; k < s.length; k++) {
    const yk = y[k];
    if (yk === null) {
      wmGroupRewards.push(wmRewards[k]);
      continue;
    }
    pairS.push(...s[k]);
    pairY.push(...yk);
    anchorWm.push(wmAdvantages[k]);
    anchorReal.push(advantages[k]);
    realRewards.push(rewards[k]);
  }

  return {
    rewards,
    wmRewards,
    advantages,
    wmAdvantages,
    coefficients: fused.coefficients,
    anchorPairs: { s: pairS, y: pairY },
    anchorAdvantages: { wm: anchorWm, real: anchorReal },
    fusionState: fused.state,
    diagnostics: {
      ...fused.diagnostics,
      zeroSpreadFraction: zeroSpreadFraction(rewards),
      wmZeroSpreadFraction: zeroSpreadFraction(wmGroupRewards),
      meanReward: mean(rewards) ?? 0,
      meanRealReward: mean(realRewards),
      meanWmReward: mean(wmRewards) ?? 0,
    },
  };
}
