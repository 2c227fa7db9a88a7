// A task's reference leaderboard: the metric values of a population of reference programs, run
// once. Programs that write identical prediction vectors are one entry (many preprocessing variants
// are the same program on clean data), so no single behaviour is over-weighted.

import { computeMetric, type PredictionVector } from './metrics.ts';
import { assertFiniteBoard } from './percentile.ts';
import { checkPredictions, predictionKey } from './predictions.ts';
import type { Direction, MetricName, TaskLabels, TaskMeta } from './task-types.ts';

export interface LeaderboardEntry {
  value: number;
  /** Every reference program that wrote this exact prediction vector. */
  programIds: string[];
}

export interface LeaderboardProvenance {
  /** Hash of the toolkit source the programs ran against. */
  toolkitHash: string;
  /** Every program attempted, in order. */
  programIds: string[];
  /** Wall-clock seconds of the whole build for this task. */
  seconds: number;
  /** Seconds per program (same order as programIds), as measured by the runner. */
  programSeconds?: number[];
  runner: string;
  builtAt: string;
  jobs?: number;
  /** Hash of the task's files, so a leaderboard can be matched to the split it was built on. */
  taskHash?: string;
}

export interface Leaderboard {
  version: 1;
  taskId: string;
  metric: MetricName;
  direction: Direction;
  /** Distinct prediction vectors, best first. */
  entries: LeaderboardEntry[];
  /** Reference programs that failed or wrote invalid predictions (not on the leaderboard). */
  failed: { programId: string; message: string }[];
  provenance: LeaderboardProvenance;
}

/** The outcome of running one reference program. */
export type ReferenceRun = { programId: string; predictionsCsv: string } | { programId: string; error: string };

export type ScoredPredictions = { ok: true; value: number; key: string } | { ok: false; message: string };

export function negativeClass(meta: Pick<TaskMeta, 'positive' | 'classes'>): string | undefined {
  return meta.classes?.find((c) => c !== meta.positive);
}

/** Validates predictions and computes the metric on the hidden labels (no leaderboard needed). */
export function scorePredictions(meta: TaskMeta, labels: TaskLabels, csvText: string): ScoredPredictions {
  const check = checkPredictions(meta, csvText);
  if (!check.ok) return check;
  const value = computeMetric(meta.metric, meta.type, labels.labels, check.predictions, {
    positive: meta.positive,
    negative: negativeClass(meta),
  });
  // Finite predictions can still overflow a metric (1e308 squared is Infinity). Such a value has no
  // place on a leaderboard: the run fails here, before any percentile or medal is computed.
  if (!Number.isFinite(value)) return { ok: false, message: nonFiniteMetricMessage(meta.metric, value, check.predictions) };
  return { ok: true, value, key: predictionKey(check.predictions) };
}

/** Why a metric came out NaN or infinite, naming the largest prediction when the predictions are numbers. */
export function nonFiniteMetricMessage(metric: MetricName, value: number, predictions: PredictionVector): string {
  let where = '';
  if (predictions.kind === 'numeric' && predictions.values.length > 0) {
    let at = 0;
    predictions.values.forEach((v, i) => {
      if (Math.abs(v) > Math.abs(predictions.values[at])) at = i;
    });
    where = ` (largest prediction: ${predictions.values[at]} at row ${at + 1})`;
  }
  const why = Number.isNaN(value) ? 'the metric is undefined for these predictions' : 'the predictions are too large to score';
  return `predictions.csv gives ${metric} = ${value}, not a finite number: ${why}${where}; the run fails and scores 0`;
}

export function buildLeaderboard(
  meta: TaskMeta,
  labels: TaskLabels,
  runs: readonly ReferenceRun[],
  provenance: LeaderboardProvenance,
): Leaderboard {
  const byKey = new Map<string, LeaderboardEntry>();
  const failed: { programId: string; message: string }[] = [];
  for (const run of runs) {
    if ('error' in run) {
      failed.push({ programId: run.programId, message: run.error });
      continue;
    }
    const scored = scorePredictions(meta, labels, run.predictionsCsv);
    if (!scored.ok) {
      failed.push({ programId: run.programId, message: scored.message });
      continue;
    }
    const entry = byKey.get(scored.key);
    if (entry) entry.programIds.push(run.programId);
    else byKey.set(scored.key, { value: scored.value, programIds: [run.programId] });
  }
  const entries = [...byKey.values()];
  entries.sort((a, b) => (meta.direction === 'higher' ? b.value - a.value : a.value - b.value));
  return { version: 1, taskId: meta.id, metric: meta.metric, direction: meta.direction, entries, failed, provenance };
}

/** The entries' metric values; throws when one is not a finite number (JSON turns Infinity into null). */
export function leaderboardValues(lb: Pick<Leaderboard, 'entries'>): number[] {
  const values = lb.entries.map((e) => e.value);
  assertFiniteBoard(values);
  return values;
}
