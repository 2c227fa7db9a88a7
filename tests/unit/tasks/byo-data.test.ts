import { describe, expect, it } from 'vitest';
import { createCustomTask, inferTaskType, targetColumnProblem } from '../../../src/tasks/byo-data.ts';
import { TaskDataError, type TaskErrorCode } from '../../../src/tasks/task-errors.ts';
import { TaskRegistry } from '../../../src/tasks/task-registry.ts';
import { parseCsv } from '../../../src/tasks/csv.ts';
import { syntheticCsv } from './fixtures.ts';

function codeOf(fn: () => unknown): { code: TaskErrorCode; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof TaskDataError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a TaskDataError');
}

const binaryCsv = syntheticCsv({ rows: 120, kind: 'binary' });

describe('bring your own data', () => {
  it('builds a task with the suite machinery and a stable id', () => {
    const t = createCustomTask({ csv: binaryCsv, target: 'label', metric: 'auc' });
    expect(t.meta.type).toBe('binary');
    expect(t.meta.split).toBe('custom');
    expect(t.meta.positive).toBe('yes');
    expect(t.meta.nTrain + t.meta.nTest).toBe(120);
    expect(t.meta.card).toMatch(/^Binary classification\. Metric: AUC/);
    expect(createCustomTask({ csv: binaryCsv, target: 'label', metric: 'auc' }).meta.id).toBe(t.meta.id);
    expect(parseCsv(t.testCsv).header).not.toContain('label');
  });

  it('infers the type from the target and honours an override', () => {
    expect(inferTaskType(['a', 'b', 'a'], 'accuracy')).toBe('binary');
    expect(inferTaskType(['a', 'b', 'c'], 'accuracy')).toBe('multiclass');
    expect(inferTaskType(['1', '2', '3'], 'macro_f1')).toBe('multiclass');
    expect(inferTaskType(['1', '2', '3.5'], 'macro_f1')).toBe('regression');
    expect(inferTaskType(['1', '2', '3'], 'rmse')).toBe('regression');
    const reg = syntheticCsv({ rows: 100, kind: 'regression' });
    expect(createCustomTask({ csv: reg, target: 'label', metric: 'rmse' }).meta.type).toBe('regression');
    const t = createCustomTask({ csv: binaryCsv, target: 'label', metric: 'accuracy', positive: 'no' });
    expect(t.meta.positive).toBe('no');
  });

  it('rejects unparseable CSV and ragged rows', () => {
    expect(codeOf(() => createCustomTask({ csv: 'a,b\n"1,2\n', target: 'b', metric: 'rmse' })).code).toBe('csv_unparseable');
    const e = codeOf(() => createCustomTask({ csv: 'a,b\n1,2\n3\n', target: 'b', metric: 'rmse' }));
    expect(e.code).toBe('csv_ragged');
    expect(e.message).toContain('row 2 has 1 fields but the header has 2');
  });

  it('rejects a missing target column, naming the columns', () => {
    const e = codeOf(() => createCustomTask({ csv: binaryCsv, target: 'outcome', metric: 'auc' }));
    expect(e.code).toBe('target_missing');
    expect(e.message).toBe('target column "outcome" is not in the header (columns: "width", "colour", "weight", "label")');
  });

  it('rejects a constant target', () => {
    const csv = 'x,y\n' + Array.from({ length: 50 }, (_, i) => `${i},same`).join('\n');
    const e = codeOf(() => createCustomTask({ csv, target: 'y', metric: 'accuracy' }));
    expect(e).toEqual({ code: 'target_constant', message: 'target "y" has a single value "same"' });
  });

  it('rejects a target with too few rows (missing targets do not count)', () => {
    const csv = 'x,y\n' + Array.from({ length: 60 }, (_, i) => `${i},${i < 20 ? i % 2 : ''}`).join('\n');
    const e = codeOf(() => createCustomTask({ csv, target: 'y', metric: 'auc' }));
    expect(e.code).toBe('target_too_few_rows');
    expect(e.message).toBe('target "y" has 20 non-missing rows; at least 30 are needed');
  });

  it('rejects a class with a single row', () => {
    const csv = 'x,y\n' + Array.from({ length: 40 }, (_, i) => `${i},${i === 0 ? 'c' : i % 2 ? 'a' : 'b'}`).join('\n');
    expect(codeOf(() => createCustomTask({ csv, target: 'y', metric: 'accuracy' })).code).toBe('target_class_too_small');
  });

  it('rejects an unknown metric, an unknown type, and a metric incompatible with the type', () => {
    expect(codeOf(() => createCustomTask({ csv: binaryCsv, target: 'label', metric: 'f2' }))).toEqual({
      code: 'unknown_metric',
      message: 'unknown metric "f2" (use one of: rmse, rmsle, auc, accuracy, macro_f1)',
    });
    expect(codeOf(() => createCustomTask({ csv: binaryCsv, target: 'label', metric: 'auc', type: 'ranking' })).code).toBe('unknown_task_type');
    const e = codeOf(() => createCustomTask({ csv: binaryCsv, target: 'label', metric: 'rmse' }));
    expect(e.code).toBe('metric_incompatible');
    expect(e.message).toContain('metric rmse does not apply to a binary task');
    expect(e.message).toContain('or set the task type');
    const multi = syntheticCsv({ rows: 100, kind: 'multiclass' });
    expect(codeOf(() => createCustomTask({ csv: multi, target: 'label', metric: 'auc' })).code).toBe('metric_incompatible');
    expect(codeOf(() => createCustomTask({ csv: multi, target: 'label', metric: 'accuracy', type: 'binary' })).code).toBe('metric_incompatible');
  });

  it('rejects a non-numeric regression target, a negative rmsle target, an unknown positive class', () => {
    expect(codeOf(() => createCustomTask({ csv: binaryCsv, target: 'label', metric: 'rmse', type: 'regression' })).code).toBe('target_not_numeric');
    const neg = 'x,y\n' + Array.from({ length: 40 }, (_, i) => `${i},${i - 5}`).join('\n');
    expect(codeOf(() => createCustomTask({ csv: neg, target: 'y', metric: 'rmsle' })).code).toBe('target_negative');
    expect(codeOf(() => createCustomTask({ csv: binaryCsv, target: 'label', metric: 'auc', positive: 'maybe' })).code).toBe('positive_class_unknown');
  });

  it('rejects a table whose only column is the target', () => {
    const csv = 'y\n' + Array.from({ length: 40 }, (_, i) => `${i % 2}`).join('\n');
    expect(codeOf(() => createCustomTask({ csv, target: 'y', metric: 'auc' })).code).toBe('no_features');
  });

  it('a failed attempt changes nothing in the registry; a good one adds a task', async () => {
    const index = { version: 1, tasks: [] };
    const reg = new TaskRegistry(async (p) => {
      if (p === 'index.json') return JSON.stringify(index);
      throw new TaskDataError('bad_task_file', `no ${p}`);
    });
    const before = await reg.list();
    expect(() => createCustomTask({ csv: 'a,b\n1\n', target: 'b', metric: 'rmse' })).toThrow(TaskDataError);
    expect(await reg.list()).toEqual(before);
    const t = createCustomTask({ csv: binaryCsv, target: 'label', metric: 'auc' });
    await reg.addCustomTask(t);
    expect((await reg.list()).map((x) => x.id)).toEqual([t.meta.id]);
    expect((await reg.loadLabels(t.meta.id)).labels).toEqual(t.labels.labels);
    await expect(reg.loadLeaderboard(t.meta.id)).rejects.toThrow(/no leaderboard yet/);
  });
});

describe('targetColumnProblem (the Playground checks the target when a file loads)', () => {
  const rows = (f: (i: number) => string) => 'x,y\n' + Array.from({ length: 40 }, (_, i) => `${i},${f(i)}`).join('\n');

  it('an empty target column is refused with a message of its own, not a row count', () => {
    const table = parseCsv(rows(() => ''));
    expect(targetColumnProblem(table, 'y')).toBe('column "y" is empty: none of its 40 rows has a value; choose a target column that has values');
    expect(targetColumnProblem(table, 'x')).toBeNull();
  });

  it('otherwise the same messages as createCustomTask, and null for a usable column', () => {
    const few = rows((i) => (i < 5 ? String(i % 2) : ''));
    expect(targetColumnProblem(parseCsv(few), 'y')).toBe(codeOf(() => createCustomTask({ csv: few, target: 'y', metric: 'auc' })).message);
    expect(targetColumnProblem(parseCsv(rows(() => 'same')), 'y')).toBe('target "y" has a single value "same"');
    expect(targetColumnProblem(parseCsv(rows((i) => String(i % 2))), 'z')).toMatch(/^target column "z" is not in the header/);
    expect(targetColumnProblem(parseCsv(rows((i) => String(i % 2))), 'y')).toBeNull();
  });
});
