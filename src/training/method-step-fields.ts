// What every training loop's step record carries about the method, whatever the domain: the coding
// loop's StepRecord (trainer.ts) and the robot loop's RobotStepRecord (src/embodied/robot-trainer.ts)
// both extend it, so a reader (and a chart) finds the method's numbers under the same names in both.
import type { FusionMode } from '../wmrl/fusion.ts';
import type { AnchorPlan } from '../wmrl/anchors.ts';
import type { MethodStepResult } from '../wmrl/step.ts';
import type { PolicyUpdateResult } from './ports.ts';

/** The fusion of the two advantage streams this step (method.md 3). */
export interface FusionRecord {
  mode: FusionMode;
  wA: number;
  wW: number;
  r: number | null;
  lambda: number;
  vA: number | null;
  vW: number | null;
  /** Whether the fusion reused an earlier step's weights (too few anchors this step to estimate them). */
  weightsReused: boolean;
  /** fusion 'anchor-weight' only: the weight on anchor advantages this step. */
  anchorWeight?: number;
}

export interface MethodStepFields {
  run: string;
  step: number;
  anchorGroups: number;
  anchorsSoFar: number;
  groupsSoFar: number;
  meanReward: number;
  meanRealReward: number | null;
  meanWmReward: number | null;
  fusion: FusionRecord;
  calibration: { pairs: number; knots: { x: number[]; y: number[] } };
  zeroSpreadFraction: number;
  update: PolicyUpdateResult;
}

/**
 * The method's slice of a step record, built the same way by both loops from what the method core
 * returned for the step. `worldModelCalled`: whether the world model (or the robot's progress model)
 * scored this step; without it the fusion's r is null.
 */
export function methodStepFields(o: {
  run: string;
  step: number;
  plan: AnchorPlan;
  method: { anchorsSoFar: number; groupsSoFar: number };
  scored: MethodStepResult;
  worldModelCalled: boolean;
  update: PolicyUpdateResult;
}): MethodStepFields {
  const d = o.scored.diagnostics;
  return {
    run: o.run,
    step: o.step,
    anchorGroups: o.plan.anchors.length,
    anchorsSoFar: o.method.anchorsSoFar,
    groupsSoFar: o.method.groupsSoFar,
    meanReward: d.meanReward,
    meanRealReward: d.meanRealReward,
    meanWmReward: o.worldModelCalled ? d.meanWmReward : null,
    fusion: {
      mode: d.mode, wA: d.wA, wW: d.wW, r: o.worldModelCalled ? d.r : null, lambda: d.lambda, vA: d.vA, vW: d.vW, weightsReused: d.weightsReused,
      ...(d.anchorWeight !== undefined ? { anchorWeight: d.anchorWeight } : {}),
    },
    calibration: { pairs: o.scored.calibrationPairs, knots: o.scored.knots },
    zeroSpreadFraction: d.zeroSpreadFraction,
    update: o.update,
  };
}
