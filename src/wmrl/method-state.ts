// The method's state across steps: anchor accumulator, online calibrator, fusion state and the
// bias/noise tracker, driven in the order a training step needs them. The trainer loop owns policy,
// world model and sandbox; this class only turns scores into loss coefficients and diagnostics.
//
//   const plan = method.plan(groups.length);          // which groups to execute for real
//   ... world-model scores s for all groups, real scores y for plan.anchors ...
//   const out = method.score(s, y);                   // rewards, advantages, coefficients, diagnostics

import type { AdvantageMode } from './advantages.ts';
import { AnchorSchedule, type AnchorPlan, type AnchorScheduleState } from './anchors.ts';
import { initialFusionState, type FusionConfig, type FusionState } from './fusion.ts';
import { OnlineCalibrator, type OnlineCalibratorState } from './isotonic.ts';
import { scoreStep, type StepResult } from './step.ts';
import { BiasNoiseTracker, type BiasNoiseEstimate, type BiasNoiseTrackerState } from './theory.ts';

export interface MethodConfig {
  /** Fraction of groups executed for real (0.10 by default in the paper; 1 = all-real GRPO). */
  rho: number;
  seed: number;
  advantageMode: AdvantageMode;
  debias: boolean;
  fusion: FusionConfig;
  /** Calibrator half-life in steps; undefined: no age weighting. */
  halfLife?: number;
}

export interface MethodStepResult extends StepResult {
  step: number;
  theory: BiasNoiseEstimate;
  /** Calibrator knots after this step's refit, for the UI. */
  knots: { x: number[]; y: number[] };
  calibrationPairs: number;
}

/** Everything needed to resume a run between steps (JSON-safe). */
export interface MethodSnapshot {
  config: MethodConfig;
  schedule: AnchorScheduleState;
  calibrator: OnlineCalibratorState;
  fusion: FusionState;
  tracker: BiasNoiseTrackerState;
}

export class MethodState {
  readonly config: MethodConfig;
  private schedule: AnchorSchedule;
  private calibrator: OnlineCalibrator;
  private tracker: BiasNoiseTracker;
  private fusion: FusionState = initialFusionState();
  private pending: AnchorPlan | null = null;

  constructor(config: MethodConfig) {
    this.config = config;
    this.schedule = new AnchorSchedule(config.rho, config.seed);
    this.calibrator = new OnlineCalibrator({ halfLife: config.halfLife });
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
    m.calibrator = OnlineCalibrator.restore(snap.calibrator);
    m.fusion = { ...snap.fusion };
    m.tracker = BiasNoiseTracker.restore(snap.tracker);
    return m;
  }

  /** Chooses the anchor groups of the next step. */
  plan(groups: number): AnchorPlan {
    if (this.pending !== null) throw new Error(`step ${this.pending.step} was planned but never scored`);
    this.pending = this.schedule.next(groups);
    return this.pending;
  }

  /**
   * Scores the planned step: s for every group, y for exactly the planned anchor groups (null
   * elsewhere). Then adds the anchor pairs to the calibrator, refits it, and updates the tracker.
   */
  score(s: readonly (readonly number[])[], y: readonly (readonly number[] | null)[]): MethodStepResult {
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
    const result = scoreStep({
      s,
      y,
      calibrator: this.calibrator.snapshot(),
      fusionState: this.fusion,
      config: { advantageMode: this.config.advantageMode, debias: this.config.debias, fusion: this.config.fusion },
    });
    this.fusion = result.fusionState;
    if (result.anchorPairs.s.length > 0) this.calibrator.add(result.anchorPairs.s, result.anchorPairs.y, plan.step);
    this.calibrator.refit(plan.step);
    if (result.anchorAdvantages.real.length > 0) this.tracker.update(result.anchorAdvantages.wm, result.anchorAdvantages.real);
    this.pending = null;
    const { x, y: ky } = this.calibrator.knots;
    return {
      ...result,
      step: plan.step,
      theory: this.tracker.estimate(),
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
