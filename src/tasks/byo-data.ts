// Bring your own data: a CSV text, a target column and a metric become a task through the same
// split and card machinery as the suite. The task type is inferred from the target (overridable).
// Any problem throws a TaskDataError before anything is built, so a failed attempt changes nothing.
// The caller builds the leaderboard on the spot: run reference programs on programInputs(task),
// then buildLeaderboard(task.meta, task.labels, runs, provenance).

import { isMissing, isNumericField } from './column-kinds.ts';
import { parseCsv, type CsvTable } from './csv.ts';
import { METRICS_FOR_TYPE, METRIC_NAMES, isMetricName } from './metrics.ts';
import { hashString } from '../primitives/random.ts';
import { assertEnoughRows, buildTask } from './task-builder.ts';
import { TaskDataError } from './task-errors.ts';
import type { BuiltTask, MetricName, TaskType } from './task-types.ts';

export interface CustomTaskRequest {
  csv: string;
  target: string;
  metric: string;
  /** Overrides the inferred task type. */
  type?: string;
  /** Binary tasks: the class programs give probabilities for (default: the rarer class). */
  positive?: string;
  /** Defaults to a hash of the inputs, so the same data gives the same id. */
  id?: string;
  seed?: number;
}

const CLASSIFICATION_METRICS: readonly MetricName[] = ['accuracy', 'macro_f1'];
/** Most distinct integer values a numeric target may have to be read as classes. */
const MAX_INTEGER_CLASSES = 50;

/**
 * Infers the task type from the target's values: two values -> binary; other text -> multiclass;
 * numbers -> regression, unless a classification metric is asked for and the values are a few
 * integers (then multiclass).
 */
export function inferTaskType(values: readonly string[], metric: MetricName): TaskType {
  const distinct = new Set(values);
  if (distinct.size === 2) return 'binary';
  const numeric = values.every(isNumericField);
  if (!numeric) return 'multiclass';
  if (
    CLASSIFICATION_METRICS.includes(metric) &&
    distinct.size <= MAX_INTEGER_CLASSES &&
    [...distinct].every((v) => Number.isInteger(Number(v)))
  ) {
    return 'multiclass';
  }
  return 'regression';
}

function asTaskType(type: string): TaskType {
  if (type === 'regression' || type === 'binary' || type === 'multiclass') return type;
  throw new TaskDataError('unknown_task_type', `unknown task type ${JSON.stringify(type)} (use regression, binary or multiclass)`);
}

/** The rarer of two classes; on a tie the one that sorts last (so "1" over "0", "yes" over "no"). */
function defaultPositive(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const [a, b] = [...counts.keys()].sort();
  return (counts.get(b) ?? 0) <= (counts.get(a) ?? 0) ? b : a;
}

/** The target's non-missing values, once the column is known to exist and to make a task (enough rows, two values or more). */
function targetValues(table: CsvTable, target: string): string[] {
  const targetCol = table.header.indexOf(target);
  if (targetCol < 0) {
    throw new TaskDataError(
      'target_missing',
      `target column ${JSON.stringify(target)} is not in the header (columns: ${table.header.slice(0, 8).map((h) => JSON.stringify(h)).join(', ')}${table.header.length > 8 ? ', ...' : ''})`,
    );
  }
  const values = table.rows.map((r) => r[targetCol]).filter((v) => !isMissing(v));
  // Row count first: one row always has "a single value", which would hide the real problem.
  assertEnoughRows(target, values.length);
  if (new Set(values).size === 1) {
    throw new TaskDataError('target_constant', `target ${JSON.stringify(target)} has a single value ${JSON.stringify(values[0])}`);
  }
  return values;
}

/**
 * What keeps `target` from being the target column of `table`, or null: the same checks as
 * createCustomTask, for the Playground to say at the field as soon as a file loads or the column
 * changes, and a message of its own for a column with no value at all.
 */
export function targetColumnProblem(table: CsvTable, target: string): string | null {
  const col = table.header.indexOf(target);
  if (col >= 0 && table.rows.length > 0 && table.rows.every((r) => isMissing(r[col]))) {
    return `column ${JSON.stringify(target)} is empty: none of its ${table.rows.length} rows has a value; choose a target column that has values`;
  }
  try {
    targetValues(table, target);
    return null;
  } catch (e) {
    if (e instanceof TaskDataError) return e.message;
    throw e;
  }
}

export function createCustomTask(req: CustomTaskRequest): BuiltTask {
  if (!isMetricName(req.metric)) {
    throw new TaskDataError('unknown_metric', `unknown metric ${JSON.stringify(req.metric)} (use one of: ${METRIC_NAMES.join(', ')})`);
  }
  const metric = req.metric;
  const table = parseCsv(req.csv);
  const values = targetValues(table, req.target);
  const type = req.type !== undefined ? asTaskType(req.type) : inferTaskType(values, metric);
  if (!METRICS_FOR_TYPE[type].includes(metric)) {
    throw new TaskDataError(
      'metric_incompatible',
      `metric ${metric} does not apply to a ${type} task (target ${JSON.stringify(req.target)} has ${new Set(values).size} distinct values; ` +
        `use one of ${METRICS_FOR_TYPE[type].join(', ')}${req.type === undefined ? ', or set the task type' : ''})`,
    );
  }
  const positive = type === 'binary' ? (req.positive ?? defaultPositive(values)) : undefined;
  const id = req.id ?? `custom_${hashString(`${req.target}\u0000${metric}\u0000${type}\u0000${req.csv}`).toString(16).padStart(8, '0')}`;
  return buildTask(table, { id, split: 'custom', target: req.target, type, metric, positive, seed: req.seed });
}
