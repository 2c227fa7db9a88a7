// Turns a parsed data table and a task spec into a task: validated target, seeded split, chosen
// features, train.csv (features + target last), test.csv (features only), hidden labels, card.
// The suite build and bring-your-own-data both go through here, so both get the same machinery.

import {
  CELL_BUDGET,
  MIN_CLASS_ROWS,
  MIN_ROWS,
  MIN_WIDTH,
  SUITE_SEED,
  TEST_CAP,
  TRAIN_CAP,
  defaultTestFraction,
} from './build-defaults.ts';
import { columnKind, describeColumn, isMissing, isNumericField } from './column-kinds.ts';
import { writeCsv, type CsvTable } from './csv.ts';
import { selectFeatures } from './feature-selection.ts';
import { METRIC_DIRECTION, METRICS_FOR_TYPE } from './metrics.ts';
import { hashString } from '../primitives/random.ts';
import { splitRows } from './split.ts';
import { cardFeatures, computeCardStats, renderCard } from './task-card.ts';
import { TaskDataError } from './task-errors.ts';
import type {
  BuiltTask,
  MetricName,
  ProgramInputs,
  TaskChoices,
  TaskMeta,
  TaskRole,
  TaskSplit,
  TaskType,
} from './task-types.ts';

export interface TaskSpec {
  id: string;
  split: TaskSplit;
  target: string;
  type: TaskType;
  metric: MetricName;
  /** Binary tasks: the class whose probability programs predict. */
  positive?: string;
  role?: TaskRole;
  roleWhy?: string;
  metricOverride?: { from: MetricName; why: string };
  attribution?: string;
  license?: string;
  seed?: number;
  testFraction?: number;
  trainCap?: number;
  testCap?: number;
  cellBudget?: number;
}

export function taskSeed(id: string): number {
  return (hashString(id) ^ SUITE_SEED) >>> 0;
}

function fmtList(values: readonly string[], max = 5): string {
  const shown = values.slice(0, max).map((v) => JSON.stringify(v));
  return values.length > max ? `${shown.join(', ')}, ...` : shown.join(', ');
}

/** Throws target_too_few_rows when fewer than MIN_ROWS rows have a target. */
export function assertEnoughRows(target: string, rowsWithTarget: number): void {
  if (rowsWithTarget < MIN_ROWS) {
    throw new TaskDataError(
      'target_too_few_rows',
      `target ${JSON.stringify(target)} has ${rowsWithTarget} non-missing rows; at least ${MIN_ROWS} are needed`,
    );
  }
}

/** Checks the target and metric; returns the usable rows (target present) and the class list. */
function validateTarget(
  table: CsvTable,
  spec: TaskSpec,
): { targetCol: number; rows: string[][]; classes?: string[]; negative?: string } {
  const targetCol = table.header.indexOf(spec.target);
  if (targetCol < 0) {
    throw new TaskDataError(
      'target_missing',
      `target column ${JSON.stringify(spec.target)} is not in the header (columns: ${fmtList(table.header, 8)})`,
    );
  }
  if (table.header.length < 2) throw new TaskDataError('no_features', 'the table has no feature column besides the target');
  if (!METRICS_FOR_TYPE[spec.type]) throw new TaskDataError('unknown_task_type', `unknown task type ${JSON.stringify(spec.type)}`);
  if (!METRICS_FOR_TYPE[spec.type].includes(spec.metric)) {
    throw new TaskDataError(
      'metric_incompatible',
      `metric ${spec.metric} does not apply to ${spec.type} tasks (use one of: ${METRICS_FOR_TYPE[spec.type].join(', ')})`,
    );
  }
  const rows = table.rows.filter((r) => !isMissing(r[targetCol]));
  assertEnoughRows(spec.target, rows.length);
  const values = rows.map((r) => r[targetCol]);
  const distinct = [...new Set(values)].sort();
  if (distinct.length < 2) {
    throw new TaskDataError('target_constant', `target ${JSON.stringify(spec.target)} has a single value ${JSON.stringify(distinct[0])}`);
  }
  if (spec.type === 'regression') {
    const bad = values.find((v) => !isNumericField(v));
    if (bad !== undefined) {
      throw new TaskDataError('target_not_numeric', `regression target ${JSON.stringify(spec.target)} has a non-numeric value ${JSON.stringify(bad)}`);
    }
    if (spec.metric === 'rmsle') {
      const neg = values.find((v) => Number(v) < 0);
      if (neg !== undefined) {
        throw new TaskDataError('target_negative', `rmsle needs a target >= 0, but ${JSON.stringify(spec.target)} has ${neg}`);
      }
    }
    return { targetCol, rows };
  }
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  for (const [cls, count] of counts) {
    if (count < MIN_CLASS_ROWS) {
      throw new TaskDataError(
        'target_class_too_small',
        `class ${JSON.stringify(cls)} of target ${JSON.stringify(spec.target)} has ${count} row; each class needs at least ${MIN_CLASS_ROWS}`,
      );
    }
  }
  if (spec.type === 'binary') {
    if (distinct.length !== 2) {
      throw new TaskDataError(
        'metric_incompatible',
        `a binary task needs exactly 2 classes, target ${JSON.stringify(spec.target)} has ${distinct.length} (${fmtList(distinct)})`,
      );
    }
    if (spec.positive === undefined || !distinct.includes(spec.positive)) {
      throw new TaskDataError(
        'positive_class_unknown',
        `positive class ${JSON.stringify(spec.positive)} is not a value of the target (values: ${fmtList(distinct)})`,
      );
    }
    return { targetCol, rows, classes: distinct, negative: distinct.find((c) => c !== spec.positive) };
  }
  return { targetCol, rows, classes: distinct };
}

export function buildTask(table: CsvTable, spec: TaskSpec): BuiltTask {
  const { targetCol, rows, classes } = validateTarget(table, spec);
  const seed = spec.seed ?? taskSeed(spec.id);
  const testFraction = spec.testFraction ?? defaultTestFraction(rows.length);
  const trainCap = spec.trainCap ?? TRAIN_CAP;
  const testCap = spec.testCap ?? TEST_CAP;
  const cellBudget = spec.cellBudget ?? CELL_BUDGET;
  const stratified = spec.type !== 'regression';
  const { train, test } = splitRows(rows.length, {
    seed,
    testFraction,
    trainCap,
    testCap,
    strata: stratified ? rows.map((r) => r[targetCol]) : undefined,
  });
  const trainRows = train.map((i) => rows[i]);
  const testRows = test.map((i) => rows[i]);

  const candidates = table.header.map((_, c) => c).filter((c) => c !== targetCol);
  const maxWidth = Math.max(MIN_WIDTH, Math.floor(cellBudget / Math.max(1, trainRows.length)));
  const sel = selectFeatures(candidates, rows, trainRows, maxWidth);
  if (sel.keep.length === 0) throw new TaskDataError('no_features', 'every feature column is constant or empty');

  const kinds = sel.keep.map((c) => columnKind(rows, c));
  const columns = sel.keep.map((c, k) => describeColumn(table.header[c], kinds[k], trainRows, c));
  const featureNames = sel.keep.map((c) => table.header[c]);
  const trainCsv = writeCsv(
    [...featureNames, spec.target],
    trainRows.map((r) => [...sel.keep.map((c) => r[c]), r[targetCol]]),
  );
  const testCsv = writeCsv(featureNames, testRows.map((r) => sel.keep.map((c) => r[c])));

  const trainTargets = trainRows.map((r) => r[targetCol]);
  const stats = computeCardStats({
    type: spec.type,
    metric: spec.metric,
    columns,
    nTrain: trainRows.length,
    nTest: testRows.length,
    trainTargets,
    positive: spec.positive,
  });
  const choices: TaskChoices = {
    seed,
    testFraction,
    trainCap,
    testCap,
    cellBudget,
    rowsInSource: table.rows.length,
    rowsDroppedMissingTarget: table.rows.length - rows.length,
    droppedConstantColumns: sel.droppedConstant.map((c) => table.header[c]),
    droppedForWidth: sel.droppedForWidth.map((c) => table.header[c]),
    stratified,
  };
  if (spec.metricOverride) choices.metricOverride = spec.metricOverride;
  if (spec.roleWhy) choices.roleWhy = spec.roleWhy;
  const meta: TaskMeta = {
    id: spec.id,
    split: spec.split,
    role: spec.role ?? 'scored',
    type: spec.type,
    metric: spec.metric,
    direction: METRIC_DIRECTION[spec.metric],
    target: spec.target,
    columns,
    nTrain: trainRows.length,
    nTest: testRows.length,
    card: renderCard(stats),
    cardFeatures: cardFeatures(stats),
    choices,
  };
  if (spec.type === 'binary') meta.positive = spec.positive;
  if (classes) meta.classes = classes;
  if (spec.attribution) meta.attribution = spec.attribution;
  if (spec.license) meta.license = spec.license;
  const labels = { id: spec.id, target: spec.target, type: spec.type, labels: testRows.map((r) => r[targetCol]) };
  return { meta, trainCsv, testCsv, labels: spec.type === 'binary' ? { ...labels, positive: spec.positive } : labels };
}

/**
 * The files a program gets: the two CSVs and a task.json with what it needs to write valid
 * predictions (target name, type, metric, classes, column kinds). No labels, no data set name.
 */
export function programInputs(task: Pick<BuiltTask, 'meta' | 'trainCsv' | 'testCsv'>): ProgramInputs {
  const { meta } = task;
  const info = {
    target: meta.target,
    type: meta.type,
    metric: meta.metric,
    direction: meta.direction,
    positive: meta.positive,
    classes: meta.classes,
    columns: meta.columns.map((c) => ({ name: c.name, kind: c.kind })),
    nTrain: meta.nTrain,
    nTest: meta.nTest,
  };
  return { 'train.csv': task.trainCsv, 'test.csv': task.testCsv, 'task.json': JSON.stringify(info) };
}
