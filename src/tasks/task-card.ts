// The task card: the only thing the policy (and the world model) learns about a task. Short,
// deterministic text from statistics of the training rows, with no data set or column names.
// The same statistics are exposed as numbers (cardFeatures) for models that want a vector.

import { isNumericField } from './column-kinds.ts';
import { METRIC_DIRECTION } from './metrics.ts';
import type { CardFeatures, ColumnInfo, MetricName, TaskType } from './task-types.ts';

export interface CardStats {
  type: TaskType;
  metric: MetricName;
  nTrain: number;
  nTest: number;
  nNumeric: number;
  nCategorical: number;
  /** Fraction of missing feature cells in the training rows. */
  missingRate: number;
  /** Binary: share of the positive class in the training rows. */
  positiveRate?: number;
  /** Classification: class shares in the training rows, any order. */
  classShares?: number[];
  /** Regression: sample skewness of the training target. */
  targetSkew?: number;
  targetNonNegative?: boolean;
  targetInteger?: boolean;
  /** Most distinct values of any categorical feature (0 if none). */
  maxCardinality: number;
}

const METRIC_LABEL: Readonly<Record<MetricName, string>> = {
  rmse: 'RMSE',
  rmsle: 'RMSLE',
  auc: 'AUC',
  accuracy: 'accuracy',
  macro_f1: 'macro-F1',
};

/** Fisher-Pearson sample skewness; 0 for a constant sample. */
export function skewness(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  let m2 = 0;
  let m3 = 0;
  for (const v of values) {
    const d = v - mean;
    m2 += d * d;
    m3 += d * d * d;
  }
  m2 /= n;
  m3 /= n;
  return m2 === 0 ? 0 : m3 / Math.pow(m2, 1.5);
}

function pct(x: number): string {
  const p = 100 * x;
  if (p === 0) return '0%';
  if (p < 1) return '<1%';
  return `${Math.round(p)}%`;
}

export function computeCardStats(input: {
  type: TaskType;
  metric: MetricName;
  columns: readonly ColumnInfo[];
  nTrain: number;
  nTest: number;
  trainTargets: readonly string[];
  positive?: string;
}): CardStats {
  const { type, metric, columns, nTrain, nTest, trainTargets, positive } = input;
  const nNumeric = columns.filter((c) => c.kind === 'numeric').length;
  const nCategorical = columns.length - nNumeric;
  const missingCells = columns.reduce((a, c) => a + c.missing, 0);
  const missingRate = columns.length === 0 || nTrain === 0 ? 0 : missingCells / (columns.length * nTrain);
  const maxCardinality = columns.filter((c) => c.kind === 'categorical').reduce((a, c) => Math.max(a, c.distinct), 0);
  const stats: CardStats = { type, metric, nTrain, nTest, nNumeric, nCategorical, missingRate, maxCardinality };
  if (type === 'regression') {
    const y = trainTargets.filter(isNumericField).map(Number);
    stats.targetSkew = skewness(y);
    stats.targetNonNegative = y.every((v) => v >= 0);
    stats.targetInteger = y.every((v) => Number.isInteger(v));
  } else {
    const counts = new Map<string, number>();
    for (const t of trainTargets) counts.set(t, (counts.get(t) ?? 0) + 1);
    stats.classShares = [...counts.values()].map((c) => c / trainTargets.length);
    if (type === 'binary' && positive !== undefined) stats.positiveRate = (counts.get(positive) ?? 0) / trainTargets.length;
  }
  return stats;
}

/** The card text. About 200 characters; identical stats give identical text. */
export function renderCard(s: CardStats): string {
  const typeText =
    s.type === 'regression' ? 'Regression' : s.type === 'binary' ? 'Binary classification' : 'Multiclass classification';
  const dir = METRIC_DIRECTION[s.metric];
  const parts = [
    `${typeText}. Metric: ${METRIC_LABEL[s.metric]} (${dir} is better).`,
    `Rows: ${s.nTrain} train, ${s.nTest} test.`,
    `Features: ${s.nNumeric + s.nCategorical} (${s.nNumeric} numeric, ${s.nCategorical} categorical${
      s.nCategorical > 0 ? `, up to ${s.maxCardinality} levels` : ''
    }).`,
    `Missing: ${s.missingRate === 0 ? 'none' : `${pct(s.missingRate)} of cells`}.`,
  ];
  if (s.type === 'binary' && s.positiveRate !== undefined) {
    parts.push(`Positive class: ${pct(s.positiveRate)}.`);
  } else if (s.type === 'multiclass' && s.classShares) {
    const shares = s.classShares;
    parts.push(`Classes: ${shares.length}, largest ${pct(Math.max(...shares))}, smallest ${pct(Math.min(...shares))}.`);
  } else if (s.type === 'regression') {
    const kind = [s.targetNonNegative ? 'non-negative' : 'signed', s.targetInteger ? 'integer' : ''].filter(Boolean).join(' ');
    parts.push(`Target: ${kind}, skew ${(s.targetSkew ?? 0).toFixed(1)}.`);
  }
  return parts.join(' ');
}

export const CARD_FEATURE_NAMES: readonly string[] = [
  'type_regression',
  'type_binary',
  'type_multiclass',
  'metric_rmse',
  'metric_rmsle',
  'metric_auc',
  'metric_accuracy',
  'metric_macro_f1',
  'log10_train_rows',
  'log10_test_rows',
  'n_features',
  'frac_numeric',
  'missing_rate',
  'log10_max_cardinality',
  'n_classes',
  'positive_rate',
  'largest_class_share',
  'smallest_class_share',
  'target_skew',
  'target_nonnegative',
  'target_integer',
  'log10_features_per_row',
];

/** The card's statistics as a fixed-order numeric vector (0 where a feature does not apply). */
export function cardFeatures(s: CardStats): CardFeatures {
  const nFeatures = s.nNumeric + s.nCategorical;
  const shares = s.classShares ?? [];
  const values = [
    s.type === 'regression' ? 1 : 0,
    s.type === 'binary' ? 1 : 0,
    s.type === 'multiclass' ? 1 : 0,
    s.metric === 'rmse' ? 1 : 0,
    s.metric === 'rmsle' ? 1 : 0,
    s.metric === 'auc' ? 1 : 0,
    s.metric === 'accuracy' ? 1 : 0,
    s.metric === 'macro_f1' ? 1 : 0,
    Math.log10(Math.max(1, s.nTrain)),
    Math.log10(Math.max(1, s.nTest)),
    nFeatures,
    nFeatures === 0 ? 0 : s.nNumeric / nFeatures,
    s.missingRate,
    Math.log10(1 + s.maxCardinality),
    shares.length,
    s.positiveRate ?? 0,
    shares.length ? Math.max(...shares) : 0,
    shares.length ? Math.min(...shares) : 0,
    s.targetSkew ?? 0,
    s.targetNonNegative ? 1 : 0,
    s.targetInteger ? 1 : 0,
    Math.log10(Math.max(1, nFeatures) / Math.max(1, s.nTrain)),
  ];
  return { names: [...CARD_FEATURE_NAMES], values };
}
