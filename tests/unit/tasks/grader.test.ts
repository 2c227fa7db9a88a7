import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src/tasks/csv.ts';
import { buildTask } from '../../../src/tasks/task-builder.ts';
import { buildLeaderboard, type LeaderboardProvenance } from '../../../src/tasks/leaderboard.ts';
import { gradePredictions, trueScore, type GradeResult } from '../../../src/tasks/grader.ts';
import type { BuiltTask } from '../../../src/tasks/task-types.ts';
import { syntheticCsv } from './fixtures.ts';

const provenance: LeaderboardProvenance = { toolkitHash: 'test', programIds: [], seconds: 0, runner: 'test', builtAt: 'test' };

function task(kind: 'binary' | 'multiclass' | 'regression'): BuiltTask {
  const table = parseCsv(syntheticCsv({ rows: 200, kind }));
  if (kind === 'binary') return buildTask(table, { id: 'b', split: 'train', target: 'label', type: 'binary', metric: 'auc', positive: 'yes' });
  if (kind === 'multiclass') return buildTask(table, { id: 'm', split: 'train', target: 'label', type: 'multiclass', metric: 'accuracy' });
  return buildTask(table, { id: 'r', split: 'train', target: 'label', type: 'regression', metric: 'rmse' });
}

const csv = (header: string, values: readonly (string | number)[]): string => [header, ...values.map(String)].join('\n') + '\n';

function invalidMessage(r: GradeResult): string {
  if (r.status !== 'invalid') throw new Error(`expected invalid, got ${JSON.stringify(r)}`);
  return r.message;
}

describe('grader validation', () => {
  const b = task('binary');
  const n = b.meta.nTest;
  const grader = { meta: b.meta, labels: b.labels, leaderboard: { entries: [{ value: 0.5, programIds: ['x'] }] } };
  const good = Array.from({ length: n }, () => 0.5);

  it('accepts a well-formed file', () => {
    const r = gradePredictions(grader, csv('label', good));
    expect(r).toMatchObject({ status: 'ok', metric: 'auc', direction: 'higher', value: 0.5, percentile: 0.5 });
  });

  it('names a wrong header', () => {
    expect(invalidMessage(gradePredictions(grader, csv('prediction', good)))).toBe('predictions.csv header must be "label", got "prediction"');
  });

  it('names extra columns', () => {
    const text = ['id,label', ...good.map((v, i) => `${i},${v}`)].join('\n');
    expect(invalidMessage(gradePredictions(grader, text))).toMatch(/exactly one column named "label"; its header has 2 columns \("id", "label"\)/);
  });

  it('counts rows: too few and too many', () => {
    expect(invalidMessage(gradePredictions(grader, csv('label', good.slice(1))))).toBe(
      `predictions.csv has ${n - 1} rows; expected ${n} (one per test row, in test.csv order)`,
    );
    expect(invalidMessage(gradePredictions(grader, csv('label', [...good, 0.5])))).toContain(`has ${n + 1} rows; expected ${n}`);
  });

  it('names a non-number, an empty value, a probability out of range, a ragged row', () => {
    const bad = good.map(String);
    bad[2] = 'abc';
    expect(invalidMessage(gradePredictions(grader, csv('label', bad)))).toBe('predictions.csv row 3: "abc" is not a number');
    bad[2] = '';
    expect(invalidMessage(gradePredictions(grader, csv('label', bad)))).toBe('predictions.csv row 3 is empty (every test row needs a prediction)');
    bad[2] = '1.5';
    bad[4] = '-0.1';
    expect(invalidMessage(gradePredictions(grader, csv('label', bad)))).toBe(
      'predictions.csv row 3: 1.5 is not a probability in [0, 1] (and 1 more bad rows)',
    );
    bad[2] = '0.5,0.5';
    bad[4] = '0.5';
    expect(invalidMessage(gradePredictions(grader, csv('label', bad)))).toBe('predictions.csv row 3 has 2 fields, expected 1');
    bad[2] = 'NaN';
    expect(invalidMessage(gradePredictions(grader, csv('label', bad)))).toBe('predictions.csv row 3: "NaN" is not a number');
  });

  it('rejects empty text and broken CSV', () => {
    expect(invalidMessage(gradePredictions(grader, ''))).toMatch(/^predictions.csv is empty/);
    expect(invalidMessage(gradePredictions(grader, 'label\n"0.5\n'))).toMatch(/^predictions.csv is not valid CSV: .*never closed/);
  });

  it('multiclass: unknown labels are named with the known classes', () => {
    const m = task('multiclass');
    const g = { meta: m.meta, labels: m.labels, leaderboard: { entries: [] } };
    const preds = m.labels.labels.slice();
    preds[0] = 'cow';
    expect(invalidMessage(gradePredictions(g, csv('label', preds)))).toBe(
      'predictions.csv row 1: "cow" is not a known class (classes: "cat", "dog", "eel")',
    );
    const r = gradePredictions(g, csv('label', m.labels.labels));
    expect(r).toMatchObject({ status: 'ok', value: 1 });
  });

  it('regression: numbers with whitespace are read, words are not', () => {
    const r = task('regression');
    const g = { meta: r.meta, labels: r.labels, leaderboard: { entries: [] } };
    expect(gradePredictions(g, csv('label', r.labels.labels.map((v) => ` ${v}`)))).toMatchObject({ status: 'ok', value: 0 });
    expect(invalidMessage(gradePredictions(g, csv('label', r.labels.labels.map(() => 'ten'))))).toContain('"ten" is not a number (and');
  });

  it('a failed program scores 0, a graded one its percentile', () => {
    expect(trueScore({ status: 'failed' })).toBe(0);
    expect(trueScore({ status: 'invalid', message: 'x' })).toBe(0);
    expect(trueScore(gradePredictions(grader, csv('label', good)))).toBe(0.5);
  });
});

describe('leaderboard build', () => {
  it('deduplicates identical prediction vectors, sorts best first, and keeps failures apart', () => {
    const r = task('regression');
    const truth = r.labels.labels.map(Number);
    const runs = [
      { programId: 'perfect', predictionsCsv: csv('label', truth) },
      { programId: 'perfect-again', predictionsCsv: csv('label', truth.map((v) => v.toFixed(10))) },
      { programId: 'off-by-one', predictionsCsv: csv('label', truth.map((v) => v + 1)) },
      { programId: 'off-by-two', predictionsCsv: csv('label', truth.map((v) => v + 2)) },
      { programId: 'crashed', error: 'Traceback: ZeroDivisionError' },
      { programId: 'wrong-header', predictionsCsv: csv('y', truth) },
    ];
    const lb = buildLeaderboard(r.meta, r.labels, runs, provenance);
    expect(lb.entries.map((e) => e.programIds)).toEqual([['perfect', 'perfect-again'], ['off-by-one'], ['off-by-two']]);
    expect(lb.entries.map((e) => e.value)).toEqual([0, 1, 2].map((x) => expect.closeTo(x, 9)));
    expect(lb.failed.map((f) => f.programId)).toEqual(['crashed', 'wrong-header']);
    expect(lb.failed[1].message).toContain('header must be "label"');
    // A program equal to the middle entry beats one of three and ties one.
    const g = gradePredictions({ meta: r.meta, labels: r.labels, leaderboard: lb }, csv('label', truth.map((v) => v + 1)));
    expect(g).toMatchObject({ status: 'ok', percentile: 0.5 });
  });
});
