// One robot run (a preset at a seed) from start to its held-out evaluation, as a JSON-safe record:
// what `npm run experiment -- --domain robot` writes per run, and what a test compares across two
// runs. No file system here (the CLI writes the files), so the page can run it too.

import type { PolicyEngine } from '../engine/policy-engine.ts';
import type { PolicyFrameTokens } from './policy-model.ts';
import type { ProgressScorer } from './progress-scorer.ts';
import { evaluateRobotPolicy, type RobotEvaluation } from './robot-evaluation.ts';
import { RobotTrainer, type RobotStepRecord, type RobotStepResult, type RobotTrainerConfig } from './robot-trainer.ts';

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
  wallMs: number;
  machine: string;
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
): Promise<RobotRunResult> {
  const t0 = performance.now();
  const trainer = new RobotTrainer(request.config, ports);
  const steps: RobotStepRecord[] = [];
  await trainer.run(async (r) => {
    steps.push(r.record);
    await onStep(r);
  });
  const evaluation = await evaluateRobotPolicy(ports.engine, ports.frames, { ...request.evaluation, seed: request.seed, horizon: request.config.horizon });
  return { format: 'wmrl-robot-run', version: 1, request, steps, evaluation, wallMs: performance.now() - t0, machine };
}

/**
 * A run without its timings: what two runs of the same request must agree on exactly. The provenance
 * the CLI adds to a run file (the commit, the runner's clock) is left out too.
 */
export function robotRunBehaviour(run: RobotRunResult): unknown {
  return JSON.parse(JSON.stringify(run, (key, value) => (key === 'ms' || key === 'busyMs' || key === 'wallMs' || key === 'machine' || key === 'provenance' ? undefined : value)));
}
