// Score integrity: no prediction file, however adversarial, may turn a metric that is not finite
// into a percentile above 0 or a medal. A policy under RL pressure searches for exactly such files
// (issue 8: mean predictions with one value 1e308 made RMSE infinite, which tied every entry: gold).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseCsv } from '../../../src/tasks/csv.ts';
import { gradePredictions, trueScore, type GradeResult, type GraderTask } from '../../../src/tasks/grader.ts';
import { buildLeaderboard, leaderboardValues, type Leaderboard, type LeaderboardProvenance } from '../../../src/tasks/leaderboard.ts';
import { medalFor, medalThresholds } from '../../../src/tasks/medals.ts';
import { METRICS_FOR_TYPE, rmse } from '../../../src/tasks/metrics.ts';
import { isBetter, metricTies, percentileOf } from '../../../src/tasks/percentile.ts';
import { buildTask } from '../../../src/tasks/task-builder.ts';
import type { BuiltTask, Direction, MetricName, TaskType } from '../../../src/tasks/task-types.ts';
import { syntheticCsv } from './fixtures.ts';

const provenance: LeaderboardProvenance = { toolkitHash: 'test', programIds: [], seconds: 0, runner: 'test', builtAt: 'test' };
const csv = (header: string, values: readonly (string | number)[]): string => [header, ...values.map(String)].join('\n') + '\n';
const NON_FINITE = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY] as const;
const DIRECTIONS: readonly Direction[] = ['higher', 'lower'];

function task(type: TaskType, metric: MetricName): BuiltTask {
  const table = parseCsv(syntheticCsv({ rows: 160, kind: type, seed: 11 }));
  return buildTask(table, { id: `${type}-${metric}`, split: 'train', target: 'label', type, metric, positive: type === 'binary' ? 'yes' : undefined });
}

/** A leaderboard of honest programs: perfect, constant, shifted or noisy predictions. */
function honestBoard(t: BuiltTask): Leaderboard {
  const y = t.labels.labels;
  const classes = t.meta.classes ?? [];
  const runs =
    t.meta.type === 'regression'
      ? [y.map(Number), y.map(() => 10), y.map((v) => Number(v) + 1), y.map((v, i) => Number(v) + (i % 3) - 1)]
      : t.meta.type === 'binary'
        ? [y.map((v) => (v === 'yes' ? 0.9 : 0.1)), y.map(() => 0.5), y.map((_, i) => (i % 7) / 7), y.map((v, i) => (v === 'yes' ? 0.6 : (i % 5) / 5))]
        : [y, y.map(() => classes[0]), y.map((v, i) => (i % 4 === 0 ? classes[(classes.indexOf(v) + 1) % classes.length] : v))];
  return buildLeaderboard(
    t.meta,
    t.labels,
    runs.map((r, i) => ({ programId: `honest-${i}`, predictionsCsv: csv(t.meta.target, r) })),
    provenance,
  );
}

/** Fields a program could write: huge finite numbers, overflowing and special spellings, out-of-range probabilities. */
const hostileNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, Number.MAX_VALUE, -Number.MAX_VALUE, 1.5e154, 1e200, -1e200, 5e-324, 0, -0, 1, -1),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -2, max: 3, noNaN: true }),
);
const hostileSpelling = fc.constantFrom(
  'NaN', 'nan', '-nan', 'Infinity', '-Infinity', 'inf', '-inf', '+inf', '1e400', '-1e400', '1e-400', '0x10', '1_000',
  '1,5', ' 1 ', '', '   ', '"0.5"', '∞', '1e308', '-1e308', '9'.repeat(400), '1.7976931348623159e308',
);

function hostileField(t: BuiltTask): fc.Arbitrary<string> {
  const classes = t.meta.classes ?? [];
  const asText = hostileNumber.map(String);
  if (t.meta.type !== 'multiclass') return fc.oneof(asText, hostileSpelling);
  return fc.oneof(fc.constantFrom(...classes), fc.constantFrom('cow', 'Cat', ' cat'), asText, hostileSpelling);
}

/** A whole predictions column: all one value, honest values with some rows replaced, or anything. */
function hostileColumn(t: BuiltTask): fc.Arbitrary<string[]> {
  const n = t.meta.nTest;
  const field = hostileField(t);
  const honest = t.meta.type === 'binary' ? t.labels.labels.map((v) => (v === 'yes' ? '0.8' : '0.2')) : t.labels.labels.slice();
  return fc.oneof(
    field.map((v) => Array.from({ length: n }, () => v)),
    fc.array(fc.tuple(fc.nat({ max: n - 1 }), field), { minLength: 1, maxLength: 5 }).map((swaps) => {
      const out = honest.slice();
      for (const [i, v] of swaps) out[i] = v;
      return out;
    }),
    fc.array(field, { minLength: n, maxLength: n }),
    // A mean prediction with one huge value: the attack of issue 8.
    fc.tuple(fc.nat({ max: n - 1 }), fc.constantFrom('1e308', '-1e308', '1.7976931348623157e308')).map(([i, v]) => {
      const out = honest.map(() => (t.meta.type === 'multiclass' ? (t.meta.classes ?? [])[0] : '0.5'));
      out[i] = v;
      return out;
    }),
  );
}

/** What must hold for every grade: a reward or a medal only for a finite metric, percentile in [0, 1]. */
function assertHonestGrade(g: GradeResult): void {
  if (g.status !== 'ok') {
    expect(trueScore(g)).toBe(0);
    expect(g.message.length).toBeGreaterThan(0);
    return;
  }
  expect(Number.isFinite(g.value)).toBe(true);
  expect(g.percentile).toBeGreaterThanOrEqual(0);
  expect(g.percentile).toBeLessThanOrEqual(1);
}

const COMBINATIONS: [TaskType, MetricName][] = (Object.keys(METRICS_FOR_TYPE) as TaskType[]).flatMap((type) =>
  METRICS_FOR_TYPE[type].map((metric): [TaskType, MetricName] => [type, metric]),
);

describe('the attack of issue 8', () => {
  const t = task('regression', 'rmse');
  const board = honestBoard(t);
  const grader: GraderTask = { meta: t.meta, labels: t.labels, leaderboard: board };

  it('mean predictions with one value 1e308: rmse is infinite, so the run fails and says why', () => {
    const mean = t.labels.labels.map(Number).reduce((a, b) => a + b, 0) / t.meta.nTest;
    const preds = t.labels.labels.map(() => String(mean));
    preds[6] = '1e308';
    expect(rmse(t.labels.labels.map(Number), preds.map(Number))).toBe(Infinity);
    const g = gradePredictions(grader, csv('label', preds));
    expect(g).toEqual({
      status: 'invalid',
      message:
        'predictions.csv gives rmse = Infinity, not a finite number: the predictions are too large to score ' +
        '(largest prediction: 1e+308 at row 7); the run fails and scores 0',
    });
    expect(trueScore(g)).toBe(0);
  });

  it('a reference program whose metric overflows is a failure, not an entry', () => {
    const preds = t.labels.labels.map(() => '1e200');
    const lb = buildLeaderboard(t.meta, t.labels, [{ programId: 'huge', predictionsCsv: csv('label', preds) }], provenance);
    expect(lb.entries).toEqual([]);
    expect(lb.failed).toEqual([{ programId: 'huge', message: expect.stringContaining('rmse = Infinity') }]);
  });

  it('a stored leaderboard with a value that is not a number is refused (JSON writes Infinity as null)', () => {
    const stored = JSON.parse(JSON.stringify({ entries: [{ value: 1, programIds: ['a'] }, { value: Infinity, programIds: ['b'] }] })) as Pick<Leaderboard, 'entries'>;
    expect(() => leaderboardValues(stored)).toThrow('leaderboard entry 2 has value null, not a finite number; rebuild the leaderboard');
    expect(() => gradePredictions({ ...grader, leaderboard: stored }, csv('label', t.labels.labels))).toThrow(/entry 2 has value null/);
  });
});

describe('percentile and medals never reward a value that is not finite', () => {
  const board = fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 300 });

  it('NaN and ±Infinity score 0 and earn no medal, on any finite board, in either direction', () => {
    fc.assert(
      fc.property(board, fc.constantFrom(...NON_FINITE), fc.constantFrom(...DIRECTIONS), (b, v, dir) => {
        expect(percentileOf(v, b, dir)).toBe(0);
        expect(medalFor(v, b, dir)).toBeNull();
        expect(percentileOf(v, [], dir)).toBe(0);
        for (const other of b) {
          expect(metricTies(v, other)).toBe(false);
          expect(isBetter(v, other, dir)).toBe(false);
        }
      }),
    );
  });

  it('for any double (NaN and infinities included): a percentile above 0 or a medal implies a finite value', () => {
    fc.assert(
      fc.property(board, fc.double(), fc.constantFrom(...DIRECTIONS), (b, v, dir) => {
        const p = percentileOf(v, b, dir);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
        if (p > 0 || medalFor(v, b, dir) !== null) expect(Number.isFinite(v)).toBe(true);
      }),
    );
  });

  it('a board holding a value that is not finite is refused rather than ranked', () => {
    fc.assert(
      fc.property(board, fc.constantFrom(...NON_FINITE), fc.double({ noNaN: true, noDefaultInfinity: true }), (b, bad, v) => {
        const corrupt = [...b, bad];
        expect(() => percentileOf(v, corrupt, 'lower')).toThrow(/not a finite number/);
        expect(() => medalThresholds(corrupt, 'higher')).toThrow(/not a finite number/);
      }),
    );
  });
});

describe.each(COMBINATIONS)('adversarial predictions, %s task scored by %s', (type, metric) => {
  const t = task(type, metric);
  const board = honestBoard(t);
  const grader: GraderTask = { meta: t.meta, labels: t.labels, leaderboard: board };

  it('the honest leaderboard is finite and non-empty', () => {
    expect(board.entries.length).toBeGreaterThan(1);
    for (const v of leaderboardValues(board)) expect(Number.isFinite(v)).toBe(true);
  });

  it('no prediction file earns a percentile above 0 or a medal without a finite metric', () => {
    fc.assert(
      fc.property(hostileColumn(t), (column) => {
        const g = gradePredictions(grader, csv(t.meta.target, column));
        assertHonestGrade(g);
        if (trueScore(g) > 0 || (g.status === 'ok' && g.medal !== null)) expect(g.status === 'ok' && Number.isFinite(g.value)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('reference runs with the same files never put a value that is not finite on a leaderboard', () => {
    fc.assert(
      fc.property(fc.array(hostileColumn(t), { minLength: 1, maxLength: 4 }), (columns) => {
        const runs = columns.map((c, i) => ({ programId: `p${i}`, predictionsCsv: csv(t.meta.target, c) }));
        const lb = buildLeaderboard(t.meta, t.labels, runs, provenance);
        expect(lb.entries.length + lb.failed.length).toBeLessThanOrEqual(runs.length);
        for (const e of lb.entries) expect(Number.isFinite(e.value)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('constant predictions and all one class grade (finite) or fail with a message, never reward overflow', () => {
    const constants = t.meta.type === 'multiclass' ? (t.meta.classes ?? []) : ['0', '1', '0.5', '1e308', '-1e308', '1e-300'];
    for (const v of constants) assertHonestGrade(gradePredictions(grader, csv(t.meta.target, t.labels.labels.map(() => v))));
  });

  it('NaN and infinity spellings are not numbers', () => {
    for (const v of ['NaN', 'Infinity', '-Infinity', 'inf', '1e400']) {
      const column = t.labels.labels.map(() => (t.meta.type === 'multiclass' ? (t.meta.classes ?? [])[0] : '0.5'));
      column[0] = v;
      const g = gradePredictions(grader, csv(t.meta.target, column));
      expect(g.status).toBe('invalid');
      expect(g.status === 'invalid' && g.message).toMatch(/^predictions\.csv row 1: /);
    }
  });
});
