// Held-out evaluation (method.md 5): for each held-out task sample k = 8 programs, execute all of
// them, average their percentiles (avg@k), then average over tasks. Also the MLE-bench style medal
// rate: the share of (task, program) runs that earn a medal, and the share of tasks where at least
// one of the k programs does (any-medal@k). Seeded: the same policy weights, tasks and seed give
// the same programs.

import type { CostSheet } from './cost.ts';
import { CostMeter } from './cost.ts';
import { deriveSeed } from '../primitives/random.ts';
import { realReward } from './execution-rung.ts';
import { isScored } from './ports.ts';
import type { ExecutionResult, ExecutionStatus, ExecutorPort, MedalName, PolicyPort, SamplingOptions, TaskView } from './ports.ts';
import { meanOf } from '../primitives/mean.ts';

export interface EvaluationOptions {
  /** Programs per task (k of avg@k; 8 in the paper). */
  k: number;
  seed: number;
  sampling: SamplingOptions;
  /** Also report the authors' ladder reward beside the percentile (runs trained on the ladder). */
  ladder?: boolean;
}

export const DEFAULT_EVAL_K = 8;

export interface TaskEvaluation {
  taskId: string;
  scores: number[];
  statuses: ExecutionStatus[];
  medals: (MedalName | null)[];
  /** Mean percentile over the task's scored programs (all k unless some were unscored; NaN if none was). */
  avg: number;
  anyMedal: boolean;
  /** With options.ladder: the ladder reward of each scored program (unscored ones left out) and their mean. */
  ladder?: number[];
  ladderAvg?: number;
  /** Runs of this task that gave no verdict (left out of avg); absent when none. */
  unscored?: number;
}

export interface EvaluationResult {
  k: number;
  seed: number;
  tasks: TaskEvaluation[];
  /** Mean over tasks of the per-task avg@k, in [0, 1]; multiply by 100 for the paper's table. */
  avgAtK: number;
  /** Share of all runs that earned a medal. */
  medalRate: number;
  /** Share of tasks with a medal among their k programs. */
  anyMedalRate: number;
  /** Share of runs that ran and wrote valid predictions. */
  validRunRate: number;
  /** With options.ladder: mean over tasks of the per-task mean ladder reward (the percentile stays the primary metric). */
  ladderAvgAtK?: number;
  /** Runs that gave no verdict, left out of every average; absent when none. */
  unscored?: number;
  cost: CostSheet;
}

/** Seed stream of evaluation samples, apart from the training streams. */
const EVAL_STREAM = 101;

export async function evaluatePolicy(policy: PolicyPort, executor: ExecutorPort, tasks: readonly TaskView[], options: EvaluationOptions): Promise<EvaluationResult> {
  const { k, seed } = options;
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`evaluation: k must be a positive integer, got ${k}`);
  if (tasks.length === 0) throw new Error('evaluation: no held-out tasks');
  const t0 = performance.now();
  const meter = new CostMeter();
  const requests = tasks.flatMap((t, ti) => Array.from({ length: k }, (_, i) => ({ card: t.card, seed: deriveSeed(seed, EVAL_STREAM, ti, i) })));
  const sampled = await policy.sample(requests, options.sampling);
  meter.charge('policySampling', sampled.busyMs);
  meter.count('programsSampled', requests.length);
  const runs = await executor.run(sampled.samples.map((s, j) => ({ taskId: tasks[Math.floor(j / k)].id, program: s.program })));
  if (runs.length !== requests.length) throw new Error(`evaluation: executor returned ${runs.length} results for ${requests.length} programs`);
  for (const r of runs) {
    meter.charge('sandbox', r.busyMs);
    meter.charge('sandboxStart', r.startMs);
  }
  meter.count('executions', runs.length);

  // A run that gave no verdict (unscored: the sandbox's backstop) is left out of every average and
  // counted apart; a task none of whose runs was scored is left out of the mean over tasks.
  const perTask: TaskEvaluation[] = tasks.map((t, ti) => {
    const mine = runs.slice(ti * k, (ti + 1) * k);
    const scored = mine.filter(isScored);
    const scores = mine.map((r) => r.score);
    const unscored = mine.length - scored.length;
    return {
      taskId: t.id,
      scores,
      statuses: mine.map((r) => r.status),
      medals: mine.map((r) => r.medal),
      avg: meanOf(scored.map((r) => r.score)),
      anyMedal: mine.some((r) => r.medal !== null),
      ...(options.ladder ? ladderOf(scored) : {}),
      ...(unscored > 0 ? { unscored } : {}),
    };
  });
  meter.wall(performance.now() - t0);
  const scoredTasks = perTask.filter((t) => Number.isFinite(t.avg));
  const scoredRuns = runs.filter(isScored);
  const unscored = runs.length - scoredRuns.length;
  if (scoredRuns.length === 0) throw new Error(`evaluation: none of the ${runs.length} runs gave a verdict (every one was stopped by the sandbox's backstop)`);
  return {
    k,
    seed,
    tasks: perTask,
    avgAtK: meanOf(scoredTasks.map((t) => t.avg)),
    medalRate: scoredRuns.filter((r) => r.medal !== null).length / scoredRuns.length,
    anyMedalRate: perTask.filter((t) => t.anyMedal).length / perTask.length,
    validRunRate: scoredRuns.filter((r) => r.status === 'ok').length / scoredRuns.length,
    ...(options.ladder ? { ladderAvgAtK: meanOf(scoredTasks.map((t) => t.ladderAvg as number)) } : {}),
    ...(unscored > 0 ? { unscored } : {}),
    cost: meter.result(),
  };
}

function ladderOf(runs: readonly ExecutionResult[]): { ladder: number[]; ladderAvg: number } {
  const ladder = runs.map((r) => realReward(r, 'ladder'));
  return { ladder, ladderAvg: ladder.reduce((a, b) => a + b, 0) / ladder.length };
}
