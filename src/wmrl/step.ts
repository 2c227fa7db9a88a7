// One WMRL step, top to bottom (method.md 3.2-3.7). A step of the trainer goes:
//
//   1. plan      MethodState.plan    which groups are anchors, executed for real (AnchorSchedule, rho)
//      ... the trainer samples n programs per group, the frozen world model scores every program (s),
//      ... the sandbox runs the anchor groups (y)
//   2. score     MethodState.score -> scoreStep, a pure function over plain arrays:
//        calibrate   g(s) with the isotonic calibrator fitted on earlier steps' anchors
//        rewards     y on anchor groups, g(s) on world-model groups
//        advantages  group-normalised, for the training rewards and for the world-model stream
//        fuse        noise estimate, stream weights (IVW or PPI++), per-sequence loss coefficients
//      then, still inside MethodState.score (there is no separate learn call):
//        learn       the step's (s, y) anchor pairs join the calibrator, which refits by its rule (ours:
//                    PAVA on every pair, every step; the authors': binned, after a warm-up, every few
//                    pairs); the bias/noise tracker sees the paired anchor advantages
//
// The trainer loop owns policy, world model and sandbox; this file only turns scores into loss
// coefficients and diagnostics, and keeps the state that carries across steps.
//
// Calibration timing (a choice; the paper only says "refit every step"): a step is scored with the
// calibrator fitted on anchors of *earlier* steps, and its own anchor pairs are added after. This keeps
// r an out-of-sample error (a calibrator refitted on the very pairs it is judged on would look better
// than it is) and keeps the world model independent of the anchors it is rectified on, which PPI needs
// to stay unbiased. The cost is a one-step lag in what the calibrator has seen. The authors' anchor
// weight measures its disagreement on the calibrated residual *after* the step's pairs have joined
// (their loop's order, so the weight relaxes as the map removes bias): scoreStep gets both fits.

import { gradedAdvantages, groupAdvantages, zeroSpreadFraction, type AdvantageMode } from './advantages.ts';
import { groupDisagreement } from './anchor-weight.ts';
import { AnchorSchedule, type AnchorPlan, type AnchorScheduleState, type PerStepAnchors } from './anchors.ts';
import { BinnedCalibrator, type BinnedCalibratorConfig, type BinnedCalibratorState } from './binned-isotonic.ts';
import { fuseStreams, initialFusionState, type FusionConfig, type FusionDiagnostics, type FusionState } from './fusion.ts';
import { OnlineCalibrator, type AnchorCalibrator, type Calibrator, type OnlineCalibratorState } from './isotonic.ts';
import { trainingRewards, worldModelRewards } from './rewards.ts';
import { BiasNoiseTracker, type BiasNoiseEstimate, type BiasNoiseTrackerState } from './theory.ts';
import { meanOrNull } from '../primitives/mean.ts';

export interface MethodConfig {
  /** Fraction of groups executed for real (0.10 by default in the paper; 1 = all-real GRPO). */
  rho: number;
  seed: number;
  advantageMode: AdvantageMode;
  debias: boolean;
  fusion: FusionConfig;
  /** Calibrator half-life in steps; undefined: no age weighting. PAVA calibrator only. */
  halfLife?: number;
  /** The authors' binned calibrator instead of PAVA on every point (absent: PAVA). */
  binned?: BinnedCalibratorConfig;
  /** The authors' per-step anchor rule instead of the accumulator at rho (absent: the accumulator). */
  perStepAnchors?: PerStepAnchors;
}

type CheckpointableCalibrator = AnchorCalibrator & { snapshotState(): OnlineCalibratorState | BinnedCalibratorState };

function makeCalibrator(config: MethodConfig): CheckpointableCalibrator {
  return config.binned ? new BinnedCalibrator(config.binned) : new OnlineCalibrator({ halfLife: config.halfLife });
}

function restoreCalibrator(state: OnlineCalibratorState | BinnedCalibratorState): CheckpointableCalibrator {
  return state.kind === 'binned' ? BinnedCalibrator.restore(state) : OnlineCalibrator.restore(state);
}

export interface MethodStepResult extends StepResult {
  step: number;
  theory: BiasNoiseEstimate;
  /** Calibrator knots after this step's refit, for the UI. */
  knots: { x: number[]; y: number[] };
  calibrationPairs: number;
}

/**
 * Outcomes of world-model groups that may calibrate but not reward (null for a group without them): where
 * every outcome is free (the robot simulator's success), the authors calibrate on all of them while the
 * reward stays the world model's on every group but the anchors.
 */
export type CalibrationOnly = readonly (readonly number[] | null)[];

/** Everything needed to resume a run between steps (JSON-safe). */
export interface MethodSnapshot {
  config: MethodConfig;
  schedule: AnchorScheduleState;
  calibrator: OnlineCalibratorState | BinnedCalibratorState;
  fusion: FusionState;
  tracker: BiasNoiseTrackerState;
}

/** The method's state across steps: anchor schedule, online calibrator, fusion state, bias/noise tracker. */
export class MethodState {
  readonly config: MethodConfig;
  private schedule: AnchorSchedule;
  private calibrator: CheckpointableCalibrator;
  private tracker: BiasNoiseTracker;
  private fusion: FusionState = initialFusionState();
  private pending: AnchorPlan | null = null;

  constructor(config: MethodConfig) {
    this.config = config;
    this.schedule = new AnchorSchedule(config.rho, config.seed, config.perStepAnchors);
    this.calibrator = makeCalibrator(config);
    this.tracker = new BiasNoiseTracker(config.fusion.emaRate);
  }

  /** State between steps, for checkpoints. Not allowed while a planned step awaits its scores. */
  snapshot(): MethodSnapshot {
    if (this.pending !== null) throw new Error(`step ${this.pending.step} is planned but not scored`);
    return {
      config: structuredClone(this.config),
      schedule: this.schedule.snapshot(),
      calibrator: this.calibrator.snapshotState(),
      fusion: { ...this.fusion },
      tracker: this.tracker.snapshotState(),
    };
  }

  static restore(snap: MethodSnapshot): MethodState {
    const m = new MethodState(snap.config);
    m.schedule = AnchorSchedule.restore(snap.schedule);
    m.calibrator = restoreCalibrator(snap.calibrator);
    m.fusion = { ...snap.fusion };
    m.tracker = BiasNoiseTracker.restore(snap.tracker);
    return m;
  }

  /** 1. plan: chooses the anchor groups of the next step. */
  plan(groups: number): AnchorPlan {
    if (this.pending !== null) throw new Error(`step ${this.pending.step} was planned but never scored`);
    this.pending = this.schedule.next(groups);
    return this.pending;
  }

  /**
   * 2. score, then learn: scores the planned step: s for every group, y for exactly the planned anchor groups (null
   * elsewhere). The step is scored with the fit of earlier steps; its anchor pairs then join the calibrator
   * (which refits by its rule) and the tracker sees the paired anchor advantages.
   */
  score(s: readonly (readonly number[])[], y: StepInput['y'], known?: StepInput['known'], calibrationOnly?: CalibrationOnly): MethodStepResult {
    const plan = this.pending;
    if (plan === null) throw new Error('score called before plan');
    if (s.length !== plan.isAnchor.length || y.length !== plan.isAnchor.length) {
      throw new RangeError(`planned ${plan.isAnchor.length} groups, got ${s.length} score groups and ${y.length} real entries`);
    }
    y.forEach((yk, k) => {
      if ((yk !== null) !== plan.isAnchor[k]) {
        throw new RangeError(`group ${k}: real scores ${yk === null ? 'missing for an anchor' : 'given for a world-model group'}`);
      }
    });
    const before = this.calibrator.frozen();
    const saved = this.calibrator.snapshotState();
    let result: StepResult;
    try {
      const pairs = anchorPairsOf(s, y, known);
      // outcomes known on world-model groups too (the robot domain's free anchors) calibrate, never reward
      if (calibrationOnly && calibrationOnly.length !== s.length) throw new RangeError(`calibration-only outcomes for ${calibrationOnly.length} groups, ${s.length} planned`);
      calibrationOnly?.forEach((yk, k) => {
        if (yk === null) return;
        if (y[k] !== null) throw new RangeError(`group ${k}: calibration-only outcomes given for an anchor group`);
        if (yk.length !== s[k].length) throw new RangeError(`group ${k}: ${yk.length} calibration-only outcomes for ${s[k].length} scores`);
        yk.forEach((v, i) => {
          pairs.s.push(s[k][i]);
          pairs.y.push(v);
        });
      });
      this.calibrator.learn(pairs.s, pairs.y, plan.step);
      result = scoreStep({
        s,
        y,
        ...(known ? { known } : {}),
        calibrator: before,
        calibratorAfter: this.calibrator.frozen(),
        fusionState: this.fusion,
        config: { advantageMode: this.config.advantageMode, debias: this.config.debias, fusion: this.config.fusion },
      });
    } catch (e) {
      this.calibrator = restoreCalibrator(saved); // a step that cannot be scored teaches nothing
      throw e;
    }
    this.fusion = result.fusionState;
    if (result.anchorAdvantages.real.length > 0) this.tracker.update(result.anchorAdvantages.wm, result.anchorAdvantages.real);
    this.pending = null;
    const { x, y: ky } = this.calibrator.knots;
    return {
      ...result,
      step: plan.step,
      theory: this.tracker.estimate(this.fusion.r),
      knots: { x: [...x], y: [...ky] },
      calibrationPairs: this.calibrator.pairCount,
    };
  }

  /** The current calibrated score of a world-model score (identity before any anchor). */
  calibrate(s: number): number {
    return this.calibrator.predict(s);
  }

  get fusionState(): FusionState {
    return { ...this.fusion };
  }

  get anchorsSoFar(): number {
    return this.schedule.anchorsSoFar;
  }

  get groupsSoFar(): number {
    return this.schedule.groupsSoFar;
  }
}

// ---- 2. score: one step as a pure function ----

export interface StepConfig {
  advantageMode: AdvantageMode;
  /** Debiasing on: world-model groups use g(s); off: raw s. */
  debias: boolean;
  fusion: FusionConfig;
}

export interface StepInput {
  /** World-model scores s, per group and program; every group has them. */
  s: readonly (readonly number[])[];
  /**
   * Real scores y for anchor groups, null for world-model groups. Inside an anchor group, null marks a
   * program whose run gave no verdict (stopped by the machine, not the program): it is left out of
   * its group's comparison, the calibrator and the disagreement, and gets coefficient 0.
   */
  y: readonly (readonly (number | null)[] | null)[];
  /**
   * Rewards known before either stream, per group and program, null where unknown: the free
   * verifier's 0 for a program that cannot run (the wmrl-static row, beyond the paper). They stand
   * in for g(s) and for y, and their (s, y) never reach the calibrator. Absent: none known.
   */
  known?: readonly (readonly (number | null)[] | null)[];
  /** The calibrator fitted on earlier steps' anchors (identity before any). */
  calibrator: Calibrator;
  /**
   * 'anchor-weight' only: the calibrator after this step's pairs joined, on which the anchor groups'
   * disagreement is measured (the authors' order). Absent: `calibrator`.
   */
  calibratorAfter?: Calibrator;
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
  /** Anchor groups' world-model and real advantages, paired, for the bias/noise tracker. */
  anchorAdvantages: { wm: number[][]; real: number[][] };
  fusionState: FusionState;
  diagnostics: StepDiagnostics;
}

/** Mean over every value of every group (summed in order), null when there is none. */
function mean(groups: readonly (readonly number[])[]): number | null {
  return meanOrNull(groups.flat());
}

/** The (s, y) pairs of a step's anchor groups, leaving out programs whose reward was known before either stream. */
export function anchorPairsOf(s: StepInput['s'], y: StepInput['y'], known?: StepInput['known']): { s: number[]; y: number[] } {
  const out = { s: [] as number[], y: [] as number[] };
  y.forEach((yk, k) => yk?.forEach((v, i) => {
    if (v === null || (known?.[k]?.[i] ?? null) !== null) return;
    out.s.push(s[k][i]);
    out.y.push(v);
  }));
  return out;
}

export function scoreStep(input: StepInput): StepResult {
  const { s, y, calibrator, fusionState, config } = input;
  if (s.length !== y.length) throw new RangeError(`${s.length} groups of world-model scores but ${y.length} entries of real scores`);
  const known = (k: number, i: number): number | null => input.known?.[k]?.[i] ?? null;

  const wmRewards = s.map((g, k) => worldModelRewards(g, calibrator, config.debias).map((r, i) => known(k, i) ?? r));
  // an ungraded program (null y) keeps a placeholder reward of 0 in the record; its advantage is 0
  const graded = (k: number, i: number): boolean => y[k] === null || known(k, i) !== null || y[k]![i] !== null;
  const allGraded = (k: number): boolean => y[k] === null || y[k]!.every((_, i) => graded(k, i));
  const rewards = wmRewards.map((g, k) => trainingRewards(g, y[k] && y[k].map((v, i) => known(k, i) ?? v ?? 0)));
  const maskAdvantages = (r: readonly number[], k: number): number[] =>
    allGraded(k) ? groupAdvantages(r, config.advantageMode) : gradedAdvantages(r.map((v, i) => (graded(k, i) ? v : null)), config.advantageMode);
  const advantages = rewards.map((g, k) => maskAdvantages(g, k));
  const wmAdvantages = wmRewards.map((g, k) => (y[k] === null ? advantages[k] : maskAdvantages(g, k)));

  // The authors' disagreement: calibrated d (after this step's pairs) against y, over the programs
  // whose reward was not known in advance.
  const disagreement = (k: number): number | null => {
    const keep = (_: unknown, i: number) => known(k, i) === null && graded(k, i);
    const after = input.calibratorAfter ?? calibrator;
    const d = worldModelRewards(s[k], after, config.debias).filter(keep);
    return groupDisagreement(d, (y[k] as readonly (number | null)[]).filter(keep) as number[]);
  };
  const fused = fuseStreams(
    wmAdvantages.map((wm, k) => ({
      wm,
      real: y[k] === null ? null : advantages[k],
      ...(config.fusion.mode === 'anchor-weight' && y[k] !== null ? { disagreement: disagreement(k) } : {}),
    })),
    fusionState,
    config.fusion,
  );

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
