// The five task metrics, each with its direction. Inputs are plain arrays; validation of a
// submission happens in the grader, so these assume equal lengths and well-formed values.

import type { Direction, MetricName, TaskType } from './task-types.ts';

export const METRIC_NAMES: readonly MetricName[] = ['rmse', 'rmsle', 'auc', 'accuracy', 'macro_f1'];

export const METRIC_DIRECTION: Readonly<Record<MetricName, Direction>> = {
  rmse: 'lower',
  rmsle: 'lower',
  auc: 'higher',
  accuracy: 'higher',
  macro_f1: 'higher',
};

/** Which metrics make sense for which task type. */
export const METRICS_FOR_TYPE: Readonly<Record<TaskType, readonly MetricName[]>> = {
  regression: ['rmse', 'rmsle'],
  binary: ['auc', 'accuracy', 'macro_f1'],
  multiclass: ['accuracy', 'macro_f1'],
};

export function isMetricName(name: string): name is MetricName {
  return (METRIC_NAMES as readonly string[]).includes(name);
}

function assertSameLength(a: ArrayLike<unknown>, b: ArrayLike<unknown>): void {
  if (a.length !== b.length) throw new Error(`metric: ${a.length} truths but ${b.length} predictions`);
  if (a.length === 0) throw new Error('metric: no rows');
}

export function rmse(truth: readonly number[], pred: readonly number[]): number {
  assertSameLength(truth, pred);
  let s = 0;
  for (let i = 0; i < truth.length; i++) {
    const d = pred[i] - truth[i];
    s += d * d;
  }
  return Math.sqrt(s / truth.length);
}

/**
 * Root mean squared log error, log(1 + x). Targets must be >= 0 (checked when a task is built).
 * Negative predictions are clipped to 0 rather than rejected: a linear model that undershoots on a
 * count target is a weak program, not a malformed one.
 */
export function rmsle(truth: readonly number[], pred: readonly number[]): number {
  assertSameLength(truth, pred);
  let s = 0;
  for (let i = 0; i < truth.length; i++) {
    const d = Math.log1p(Math.max(0, pred[i])) - Math.log1p(truth[i]);
    s += d * d;
  }
  return Math.sqrt(s / truth.length);
}

/**
 * Area under the ROC curve as the Mann-Whitney statistic with mid-ranks, so tied scores count half.
 * Throws when only one class is present (the AUC is undefined there).
 */
export function auc(isPositive: readonly boolean[], score: readonly number[]): number {
  assertSameLength(isPositive, score);
  const order = score.map((_, i) => i).sort((a, b) => score[a] - score[b]);
  let nPos = 0;
  let rankSumPos = 0;
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && score[order[j + 1]] === score[order[i]]) j++;
    const midRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      if (isPositive[order[k]]) {
        nPos++;
        rankSumPos += midRank;
      }
    }
    i = j + 1;
  }
  const nNeg = order.length - nPos;
  if (nPos === 0 || nNeg === 0) throw new Error('auc: needs both classes among the truths');
  return (rankSumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

export function accuracy(truth: readonly string[], pred: readonly string[]): number {
  assertSameLength(truth, pred);
  let hit = 0;
  for (let i = 0; i < truth.length; i++) if (truth[i] === pred[i]) hit++;
  return hit / truth.length;
}

/**
 * Unweighted mean of per-class F1 over the classes that occur in the truths or the predictions
 * (scikit-learn's default label set). A class never predicted has precision 0/0, taken as 0, so its
 * F1 is 0 and it pulls the mean down: that is the point of the macro average.
 */
export function macroF1(truth: readonly string[], pred: readonly string[]): number {
  assertSameLength(truth, pred);
  const classes = [...new Set([...truth, ...pred])].sort();
  let total = 0;
  for (const c of classes) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (let i = 0; i < truth.length; i++) {
      const t = truth[i] === c;
      const p = pred[i] === c;
      if (t && p) tp++;
      else if (p) fp++;
      else if (t) fn++;
    }
    // F1 = 2tp / (2tp + fp + fn); the denominator is > 0 because c occurs somewhere.
    total += (2 * tp) / (2 * tp + fp + fn);
  }
  return total / classes.length;
}

/** Predictions after validation: numbers (regression, binary probabilities) or class labels. */
export type PredictionVector =
  | { kind: 'numeric'; values: number[] }
  | { kind: 'label'; values: string[] };

/** Threshold for turning a binary probability into a label for accuracy or macro-F1. */
export const BINARY_THRESHOLD = 0.5;

/**
 * Computes a task's metric from its hidden labels and validated predictions.
 * Binary tasks: predictions are probabilities of `positive`; `negative` is the other class.
 */
export function computeMetric(
  metric: MetricName,
  type: TaskType,
  labels: readonly string[],
  pred: PredictionVector,
  classes: { positive?: string; negative?: string } = {},
): number {
  if (type === 'regression') {
    if (pred.kind !== 'numeric') throw new Error('regression needs numeric predictions');
    const y = labels.map(Number);
    if (metric === 'rmse') return rmse(y, pred.values);
    if (metric === 'rmsle') return rmsle(y, pred.values);
  } else if (type === 'binary') {
    if (pred.kind !== 'numeric') throw new Error('binary tasks need probabilities');
    const { positive, negative } = classes;
    if (positive === undefined || negative === undefined) throw new Error('binary tasks need both class names');
    if (metric === 'auc') return auc(labels.map((l) => l === positive), pred.values);
    const asLabels = pred.values.map((p) => (p >= BINARY_THRESHOLD ? positive : negative));
    if (metric === 'accuracy') return accuracy(labels, asLabels);
    if (metric === 'macro_f1') return macroF1(labels, asLabels);
  } else {
    if (pred.kind !== 'label') throw new Error('multiclass tasks need labels');
    if (metric === 'accuracy') return accuracy(labels, pred.values);
    if (metric === 'macro_f1') return macroF1(labels, pred.values);
  }
  throw new Error(`metric ${metric} does not apply to ${type} tasks`);
}
