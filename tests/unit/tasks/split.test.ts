import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocate, splitRows, splitSizes } from '../../../src/tasks/split.ts';
import { buildTask, programInputs } from '../../../src/tasks/task-builder.ts';
import { parseCsv } from '../../../src/tasks/csv.ts';
import { syntheticCsv } from './fixtures.ts';

describe('split', () => {
  it('is deterministic for a seed and changes with the seed', () => {
    const a = splitRows(500, { seed: 1, testFraction: 0.25, trainCap: 1000, testCap: 1000 });
    const b = splitRows(500, { seed: 1, testFraction: 0.25, trainCap: 1000, testCap: 1000 });
    const c = splitRows(500, { seed: 2, testFraction: 0.25, trainCap: 1000, testCap: 1000 });
    expect(a).toEqual(b);
    expect(a.test).not.toEqual(c.test);
  });

  it('sides are disjoint, within range, and respect sizes and caps', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 3000 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.double({ min: 0.1, max: 0.5, noNaN: true }),
        fc.boolean(),
        (n, seed, frac, stratify) => {
          const strata = stratify ? Array.from({ length: n }, (_, i) => ['a', 'b', 'c'][i % 3 === 0 ? 0 : i % 7 === 0 ? 2 : 1]) : undefined;
          const s = splitRows(n, { seed, testFraction: frac, trainCap: 1200, testCap: 800, strata });
          const { nTrain, nTest } = splitSizes(n, frac, 1200, 800);
          expect(s.train.length).toBe(nTrain);
          expect(s.test.length).toBe(nTest);
          const all = new Set([...s.train, ...s.test]);
          expect(all.size).toBe(nTrain + nTest);
          for (const i of all) expect(i >= 0 && i < n).toBe(true);
          if (strata && nTest >= 3 && nTrain >= 3) {
            // Every class with at least two rows appears on both sides (when each side has room).
            for (const cls of new Set(strata)) {
              if (strata.filter((x) => x === cls).length >= 2) {
                expect(s.test.some((i) => strata[i] === cls)).toBe(true);
                expect(s.train.some((i) => strata[i] === cls)).toBe(true);
              }
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('stratification keeps class shares close to the source', () => {
    const strata = Array.from({ length: 1000 }, (_, i) => (i < 100 ? 'rare' : 'common'));
    const s = splitRows(1000, { seed: 3, testFraction: 0.25, trainCap: 1200, testCap: 800, strata });
    expect(s.test.filter((i) => strata[i] === 'rare').length).toBe(25);
    expect(s.train.filter((i) => strata[i] === 'rare').length).toBe(75);
  });

  it('allocate is proportional, sums to k and honours minimums', () => {
    expect(allocate([50, 30, 20], 10, 1, 2)).toEqual([5, 3, 2]);
    expect(allocate([98, 2], 10, 1, 2)).toEqual([9, 1]);
    expect(allocate([1, 99], 10, 1, 2)[0]).toBe(0);
    expect(() => allocate([1, 1], 3, 0, 1)).toThrow();
  });
});

describe('task building', () => {
  const table = parseCsv(syntheticCsv({ rows: 400, kind: 'binary' }));
  const spec = { id: 'synthetic', split: 'train' as const, target: 'label', type: 'binary' as const, metric: 'auc' as const, positive: 'yes' };

  it('is deterministic: the same files from the same input', () => {
    expect(buildTask(table, spec)).toEqual(buildTask(table, spec));
  });

  it('test.csv has no target column, train.csv has it last, labels match test rows', () => {
    const t = buildTask(table, spec);
    const train = parseCsv(t.trainCsv);
    const test = parseCsv(t.testCsv);
    expect(train.header[train.header.length - 1]).toBe('label');
    expect(test.header).not.toContain('label');
    expect(test.header).toEqual(train.header.slice(0, -1));
    expect(test.rows.length).toBe(t.meta.nTest);
    expect(t.labels.labels.length).toBe(t.meta.nTest);
    expect(train.rows.length).toBe(t.meta.nTrain);
    expect(t.meta.nTrain + t.meta.nTest).toBe(400);
  });

  it('no test label reaches what a program is given', () => {
    const t = buildTask(table, spec);
    const inputs = programInputs(t);
    expect(Object.keys(inputs).sort()).toEqual(['task.json', 'test.csv', 'train.csv']);
    const test = parseCsv(inputs['test.csv']);
    // No column of test.csv equals the hidden labels.
    for (let c = 0; c < test.header.length; c++) {
      expect(test.rows.map((r) => r[c])).not.toEqual(t.labels.labels);
    }
    const info = JSON.parse(inputs['task.json']) as Record<string, unknown>;
    expect(info).not.toHaveProperty('labels');
    expect(info).not.toHaveProperty('id');
    expect(inputs['task.json']).not.toContain('synthetic');
  });

  it('test rows are not copies of train rows by index (disjoint source rows)', () => {
    // Every source row has a unique width value, so disjoint rows mean disjoint widths.
    const t = buildTask(table, spec);
    const trainW = new Set(parseCsv(t.trainCsv).rows.map((r) => r[0]));
    const testW = parseCsv(t.testCsv).rows.map((r) => r[0]);
    expect(testW.filter((w) => trainW.has(w))).toEqual([]);
  });

  it('caps rows and records the choices', () => {
    const big = parseCsv(syntheticCsv({ rows: 3000, kind: 'regression' }));
    const t = buildTask(big, { id: 'big', split: 'train', target: 'label', type: 'regression', metric: 'rmse' });
    expect(t.meta.nTrain).toBe(1200);
    expect(t.meta.nTest).toBe(750);
    expect(t.meta.choices.trainCap).toBe(1200);
    expect(t.meta.choices.rowsInSource).toBe(3000);
  });

  it('drops constant columns and trims wide tables by entropy, recording both', () => {
    const header = ['const', ...Array.from({ length: 30 }, (_, i) => `f${i}`), 'y'];
    const rows = Array.from({ length: 200 }, (_, r) => ['1', ...Array.from({ length: 30 }, (_, i) => String(i < 5 ? r % 2 : r * (i + 1))), String(r % 3)]);
    const t = buildTask({ header, rows }, { id: 'wide', split: 'train', target: 'y', type: 'multiclass', metric: 'accuracy', cellBudget: 120 * 26 });
    expect(t.meta.choices.droppedConstantColumns).toEqual(['const']);
    // Width budget: 26 features for 120 train rows; the five two-valued columns have least entropy;
    // among those ties the earliest column is kept.
    expect(t.meta.columns.length).toBe(26);
    expect(t.meta.choices.droppedForWidth).toEqual(['f1', 'f2', 'f3', 'f4']);
  });
});
