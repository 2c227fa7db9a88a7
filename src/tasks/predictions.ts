// Strict reading of a program's predictions.csv against its task: one column named after the
// target, one value per test row, numbers where numbers are due, probabilities in [0, 1] for binary
// tasks, known labels for multiclass ones. Returns the parsed vector or exactly what was wrong.

import { isNumericField } from './column-kinds.ts';
import { parseCsvRecords } from './csv.ts';
import type { PredictionVector } from './metrics.ts';
import { TaskDataError } from './task-errors.ts';
import { hexByte } from './text-files.ts';
import type { TaskMeta } from './task-types.ts';

export type PredictionsCheck = { ok: true; predictions: PredictionVector } | { ok: false; message: string };

/** The fields of the task a check needs (a TaskMeta has them all). */
export type PredictionsSpec = Pick<TaskMeta, 'target' | 'type' | 'nTest' | 'classes'>;

function describe(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
}

// C0 controls other than tab, LF, CR, and DEL: no number or class label has them, binary data does.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function checkPredictions(spec: PredictionsSpec, csvText: string): PredictionsCheck {
  // Before parsing: binary bytes parse as one ragged row, which would read as a wrong row count.
  const control = CONTROL.exec(csvText);
  if (control) {
    const line = csvText.slice(0, control.index).split('\n').length;
    return {
      ok: false,
      message: `predictions.csv holds binary data: control character ${hexByte(control[0].charCodeAt(0))} on line ${line}; expected text, a header ${JSON.stringify(spec.target)} and one value per test row`,
    };
  }
  let records: string[][];
  try {
    records = parseCsvRecords(csvText);
  } catch (e) {
    return { ok: false, message: `predictions.csv is not valid CSV: ${e instanceof TaskDataError ? e.message : String(e)}` };
  }
  // One final newline is normal; further empty lines at the end are tolerated too.
  while (records.length > 0 && records[records.length - 1].length === 1 && records[records.length - 1][0] === '') records.pop();
  if (records.length === 0) return { ok: false, message: `predictions.csv is empty: expected a header "${spec.target}" and ${spec.nTest} rows` };
  const header = records[0];
  if (header.length !== 1) {
    return {
      ok: false,
      message: `predictions.csv must have exactly one column named ${JSON.stringify(spec.target)}; its header has ${header.length} columns (${header
        .slice(0, 5)
        .map(describe)
        .join(', ')})`,
    };
  }
  if (header[0] !== spec.target) {
    return { ok: false, message: `predictions.csv header must be ${JSON.stringify(spec.target)}, got ${describe(header[0])}` };
  }
  const rows = records.slice(1);
  if (rows.length !== spec.nTest) {
    return { ok: false, message: `predictions.csv has ${rows.length} rows; expected ${spec.nTest} (one per test row, in test.csv order)` };
  }
  const problems: string[] = [];
  const numeric: number[] = [];
  const labels: string[] = [];
  const known = new Set(spec.classes ?? []);
  rows.forEach((rec, i) => {
    const where = `row ${i + 1}`;
    if (rec.length !== 1) {
      problems.push(`${where} has ${rec.length} fields, expected 1`);
      return;
    }
    const v = rec[0];
    if (v.trim() === '') {
      problems.push(`${where} is empty (every test row needs a prediction)`);
      return;
    }
    if (spec.type === 'multiclass') {
      if (!known.has(v)) problems.push(`${where}: ${describe(v)} is not a known class (classes: ${[...known].map(describe).join(', ')})`);
      else labels.push(v);
      return;
    }
    if (!isNumericField(v)) {
      problems.push(`${where}: ${describe(v)} is not a number`);
      return;
    }
    const x = Number(v);
    if (spec.type === 'binary' && (x < 0 || x > 1)) {
      problems.push(`${where}: ${v.trim()} is not a probability in [0, 1]`);
      return;
    }
    numeric.push(x);
  });
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more bad rows)` : '';
    return { ok: false, message: `predictions.csv ${problems[0]}${more}` };
  }
  return {
    ok: true,
    predictions: spec.type === 'multiclass' ? { kind: 'label', values: labels } : { kind: 'numeric', values: numeric },
  };
}

/** A key equal for two prediction vectors exactly when they predict the same thing on every row. */
export function predictionKey(p: PredictionVector): string {
  return p.kind === 'numeric' ? p.values.map((v) => String(v)).join('\n') : p.values.join('\n');
}
