// The grader: the only place where hidden test labels meet a program's predictions. It validates
// predictions.csv strictly and turns the metric into the program's true score (leaderboard
// percentile) and an MLE-bench medal. A failed or invalid program scores 0.

import { scorePredictions, leaderboardValues, type Leaderboard } from './leaderboard.ts';
import { medalFor, type Medal } from './medals.ts';
import { percentileOf } from './percentile.ts';
import type { Direction, MetricName, TaskLabels, TaskMeta } from './task-types.ts';

export interface GraderTask {
  meta: TaskMeta;
  labels: TaskLabels;
  leaderboard: Pick<Leaderboard, 'entries'>;
}

export type GradeResult =
  | { status: 'ok'; metric: MetricName; direction: Direction; value: number; percentile: number; medal: Medal | null }
  | { status: 'invalid'; message: string };

export function gradePredictions(task: GraderTask, predictionsCsv: string): GradeResult {
  const { meta, labels } = task;
  if (labels.id !== meta.id || labels.labels.length !== meta.nTest) {
    throw new Error(`grader: labels of ${labels.id} (${labels.labels.length}) do not match task ${meta.id} (${meta.nTest} test rows)`);
  }
  const scored = scorePredictions(meta, labels, predictionsCsv);
  if (!scored.ok) return { status: 'invalid', message: scored.message };
  const board = leaderboardValues(task.leaderboard);
  return {
    status: 'ok',
    metric: meta.metric,
    direction: meta.direction,
    value: scored.value,
    percentile: percentileOf(scored.value, board, meta.direction),
    medal: medalFor(scored.value, board, meta.direction),
  };
}

/** The reward of a program: its percentile if it ran and graded, else 0. */
export function trueScore(result: GradeResult | { status: 'failed' }): number {
  return result.status === 'ok' ? result.percentile : 0;
}
