// Held-out evaluation (method.md 5): for each held-out task sample k = 8 programs, execute all of
// them, average their percentiles (avg@k), then average over tasks. Also the MLE-bench style medal
// rate: the share of (task, program) runs that earn a medal, and the share of tasks where at least
// one of the k programs does (any-medal@k). Seeded: the same policy weights, tasks and seed give
// the same programs.

import type { CostSheet } from './cost.ts';
import { CostMeter } from './cost.ts';
import { deriveSeed } from '../primitives/random.ts';
import { realReward } from './execution-rung.ts';
import type { ExecutionResult, ExecutionStatus, ExecutorPort, MedalName, PolicyPort, SamplingOptions, TaskView } from './ports.ts';

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
  /** Mean percentile over the k programs. */
  avg: number;
  anyMedal: boolean;
  /** With options.ladder: the ladder reward of each program and their mean. */
  ladder?: number[];
  ladderAvg?: number;
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

  const perTask: TaskEvaluation[] = tasks.map((t, ti) => {
    const mine = runs.slice(ti * k, (ti + 1) * k);
    const scores = mine.map((r) => r.score);
    return {
      taskId: t.id,
      scores,
      statuses: mine.map((r) => r.status),
      medals: mine.map((r) => r.medal),
      avg: scores.reduce((a, b) => a + b, 0) / k,
      anyMedal: mine.some((r) => r.medal !== null),
      ...(options.ladder ? ladderOf(mine) : {}),
    };
  });
  meter.wall(performance.now() - t0);
  return {
    k,
    seed,
    tasks: perTask,
    avgAtK: perTask.reduce((a, t) => a + t.avg, 0) / perTask.length,
    medalRate: runs.filter((r) => r.medal !== null).length / runs.length,
    anyMedalRate: perTask.filter((t) => t.anyMedal).length / perTask.length,
    validRunRate: runs.filter((r) => r.status === 'ok').length / runs.length,
    ...(options.ladder ? { ladderAvgAtK: perTask.reduce((a, t) => a + (t.ladderAvg as number), 0) / perTask.length } : {}),
    cost: meter.result(),
  };
}

function ladderOf(runs: readonly ExecutionResult[]): { ladder: number[]; ladderAvg: number } {
  const ladder = runs.map((r) => realReward(r, 'ladder'));
  return { ladder, ladderAvg: ladder.reduce((a, b) => a + b, 0) / ladder.length };
}
