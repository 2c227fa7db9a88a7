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
export { deriveSeed, mulberry32, normal, randomInt, sampleIndices, shuffleInPlace } from '../primitives/random.ts';
export type { Rng } from '../primitives/random.ts';
export { Trainer, drawTasks, methodConfigOf, tokenBudget, validateTrainerConfig } from './trainer.ts';
export type { GroupRecord, StepRecord, TrainerCheckpoint, TrainerConfig, TrainerPorts } from './trainer.ts';
export { evaluatePolicy, meanInterval, DEFAULT_EVAL_K } from './evaluate.ts';
export type { EvaluationOptions, EvaluationResult, TaskEvaluation } from './evaluate.ts';
export { addCosts, costShares, CostMeter, COST_COMPONENTS, emptyCost } from './cost.ts';
export type { CostComponent, CostCounts, CostSheet } from './cost.ts';
export { BASE_CONFIG, PRESETS, presetById, presetConfig, WMRL_RHO } from './presets.ts';
export type { Preset, PresetId } from './presets.ts';
export type {
  ExecutionRequest, ExecutionResult, ExecutionStatus, ExecutorPort, MedalName, OptimizerState, PolicyPort, PolicyUpdateRequest,
  PolicyUpdateResult, PolicyWeights, SampleBatchResult, SampleRequest, SampledSequence, SamplingOptions, ScorePair, TaskSource, TaskView,
  WorldModelPort, WorldModelScoreResult,
} from './ports.ts';
