// The robot domain's committed models as the page gets them: public/models/robot holds copies of the
// frozen progress model and the behaviour-cloning policy from results/ (with their reports), listed
// in a wmrl-models manifest (name, bytes, sha256), so the page checks every file as it checks the
// coding models. The copies are made by `npm run build:robot-models`; a unit test keeps them equal
// to results/.

/** Each shipped file: its name in public/models/robot, and where it is copied from. */
export const ROBOT_MODEL_FILES = {
  progress: { name: 'progress-model.ckpt', from: 'results/robot-progress/progress-model.ckpt', role: 'frozen progress model (the Robometer analogue): src/model/checkpoint.ts format, frame tokenizer in its meta (kind robot-progress)' },
  progressReport: { name: 'progress-report.json', from: 'results/robot-progress/report.json', role: 'the progress model\'s training settings and held-out validation (src/cli/robot-progress.ts)' },
  policy: { name: 'policy.ckpt', from: 'results/robot-bc/policy.ckpt', role: 'behaviour-cloning policy: src/model/checkpoint.ts format, frame tokenizer, encoding and octants in its meta (kind robot-bc-policy)' },
  policyReport: { name: 'policy-report.json', from: 'results/robot-bc/report-egocentric-octants-readout-dagger-then-10000-steps.json', role: 'the committed policy\'s training chain, teacher-forced accuracy and rollout success (src/cli/robot-bc.ts)' },
} as const;

export type RobotModelFile = keyof typeof ROBOT_MODEL_FILES;

/** What a reader can do about a bad file of public/models/robot. */
export const ROBOT_MODELS_REMEDY = 'rebuild with npm run build:robot-models or restore it with git checkout';

/** Size budget of one checkpoint: the page fetches both before the first rollout. */
export const ROBOT_CHECKPOINT_BUDGET_BYTES = 1_000_000;
