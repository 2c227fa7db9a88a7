// The WMRL method core: pure TypeScript, no DOM or GPU. See docs/method.md for the map from the
// paper's formulas to these functions.

export { groupAdvantages, rewardSpread, zeroSpreadFraction, STD_EPSILON, ZERO_SPREAD_TOLERANCE } from './advantages.ts';
export type { AdvantageMode } from './advantages.ts';
export { fitIsotonic, identityCalibrator, OnlineCalibrator, pava } from './isotonic.ts';
export type { Calibrator, OnlineCalibratorOptions, OnlineCalibratorState, PavaBlock } from './isotonic.ts';
export { AnchorSchedule, anchorCount, chooseAnchorGroups } from './anchors.ts';
export type { AnchorPlan, AnchorScheduleState } from './anchors.ts';
export { fuseStreams, initialFusionState, inverseVarianceWeight, DEFAULT_EMA_RATE } from './fusion.ts';
export type { FusionConfig, FusionDiagnostics, FusionGroup, FusionMode, FusionResult, FusionState } from './fusion.ts';
export { BiasNoiseTracker } from './theory.ts';
export type { BiasNoiseEstimate, BiasNoiseTrackerState } from './theory.ts';
export { trainingRewards, worldModelRewards } from './rewards.ts';
export { planStep, scoreStep } from './step.ts';
export type { StepConfig, StepDiagnostics, StepInput, StepResult } from './step.ts';
export { MethodState } from './method-state.ts';
export type { MethodConfig, MethodSnapshot, MethodStepResult } from './method-state.ts';
export { deriveSeed, mulberry32, normal, randomInt, sampleIndices, shuffleInPlace } from './random.ts';
export type { Rng } from './random.ts';
