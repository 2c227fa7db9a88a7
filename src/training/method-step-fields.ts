// What every training loop's step record carries about the method, whatever the domain: the coding
// loop's StepRecord (trainer.ts) and the robot loop's RobotStepRecord (src/embodied/robot-trainer.ts)
// both extend it, so a reader (and a chart) finds the method's numbers under the same names in both.
import type { FusionMode } from '../wmrl/fusion.ts';
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
