// One robot run (a preset at a seed) from start to its held-out evaluation, as a JSON-safe record:
// what `npm run experiment -- --domain robot` writes per run, and what a test compares across two
// runs. No file system here (the CLI writes the files), so the page can run it too. A run can be cut
// into segments: after every step it tells what an interrupted run needs to go on (onProgress), and
// given that (from) it goes on where it stopped and ends as the uninterrupted run would.

import type { PolicyEngine } from '../engine/policy-engine.ts';
import type { PolicyFrameTokens } from './policy-model.ts';
import type { ProgressScorer } from './progress-scorer.ts';
import { evaluateRobotPolicy, type RobotEvaluation } from './robot-evaluation.ts';
import { RobotTrainer, type RobotStepRecord, type RobotStepResult, type RobotTrainerCheckpoint, type RobotTrainerConfig } from './robot-trainer.ts';

export interface RobotRunRequest {
  preset: string;
  seed: number;
  config: RobotTrainerConfig;
  /** trials: rollouts per initial state when sampling (absent: 1, as requests before sampled evaluation had trials). */
  evaluation: { statesPerTask: number; temperature: number; trials?: number };
  /** sha256 of the policy checkpoint and of the progress model the run started from. */
  policySha256: string;
  progressSha256: string;
}

export interface RobotRunResult {
  format: 'wmrl-robot-run';
  version: 1;
  request: RobotRunRequest;
  steps: RobotStepRecord[];
  /** The held-out evaluation after the last step (of the starting policy for robot-sft). */
  evaluation: RobotEvaluation;
  /** Wall time of the run; of a resumed run, the sum of its segments' (the runner adds the earlier ones). */
  wallMs: number;
  machine: string;
}

/** A run between steps: the trainer's checkpoint and the records of the steps done, enough to go on exactly. */
export interface RobotRunProgress {
  checkpoint: RobotTrainerCheckpoint;
  steps: RobotStepRecord[];
}

export interface RobotRunSegmenting {
  /** Where an interrupted run stopped: this call goes on from there, and its records come first. */
  from?: RobotRunProgress;
  /** Told after every step (after onStep), with this call's wall time so far: what a runner saves to go on later. */
  onProgress?: (p: RobotRunProgress & { wallMs: number }) => void | Promise<void>;
}

export function isRobotRunResult(x: unknown): x is RobotRunResult {
  const r = x as Partial<RobotRunResult> | null;
  return r !== null && typeof r === 'object' && r.format === 'wmrl-robot-run' && r.version === 1 && Array.isArray(r.steps) && typeof r.evaluation === 'object';
}

export async function runRobot(
  request: RobotRunRequest,
  ports: { engine: PolicyEngine; frames: PolicyFrameTokens; progress: ProgressScorer },
  machine: string,
  onStep: (r: RobotStepResult) => void | Promise<void> = () => {},
  { from, onProgress }: RobotRunSegmenting = {},
): Promise<RobotRunResult> {
  const t0 = performance.now();
  if (from) checkRunProgress(request, from);
  const trainer = from ? await RobotTrainer.resume(from.checkpoint, ports) : new RobotTrainer(request.config, ports);
  const steps: RobotStepRecord[] = from ? [...from.steps] : [];
  await trainer.run(async (r) => {
    steps.push(r.record);
    await onStep(r);
    if (onProgress) await onProgress({ checkpoint: await trainer.checkpoint(), steps: [...steps], wallMs: performance.now() - t0 });
  });
  const evaluation = await evaluateRobotPolicy(ports.engine, ports.frames, { ...request.evaluation, seed: request.seed, horizon: request.config.horizon });
  return { format: 'wmrl-robot-run', version: 1, request, steps, evaluation, wallMs: performance.now() - t0, machine };
}

/** A saved run is this request's, and its records are those of the steps its checkpoint has taken. */
export function checkRunProgress(request: RobotRunRequest, p: RobotRunProgress): void {
  if (JSON.stringify(p.checkpoint.config) !== JSON.stringify(request.config)) throw new Error('robot run: the saved run was trained with other settings than this request');
  const n = p.checkpoint.step;
  if (!(Number.isInteger(n) && n >= 0 && n <= request.config.steps)) throw new Error(`robot run: the saved run has taken ${n} steps of ${request.config.steps}`);
  if (p.steps.length !== n || p.steps.some((r, i) => r.step !== i)) throw new Error(`robot run: the saved run's checkpoint is after ${n} steps, its records are of ${p.steps.length}`);
}

/**
 * A run without its timings: what two runs of the same request must agree on exactly. The provenance
 * the CLI adds to a run file (the commit, the runner's clock) is left out too.
 */
export function robotRunBehaviour(run: RobotRunResult): unknown {
  return JSON.parse(JSON.stringify(run, (key, value) => (key === 'ms' || key === 'busyMs' || key === 'wallMs' || key === 'machine' || key === 'provenance' ? undefined : value)));
}
