import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CARD_FEATURE_NAMES, cardFeatures, renderCard, skewness, type CardStats } from '../../../src/tasks/task-card.ts';
import { buildTask } from '../../../src/tasks/task-builder.ts';
import { parseCsv } from '../../../src/tasks/csv.ts';
import type { TaskMeta } from '../../../src/tasks/task-types.ts';
import type { TaskIndex } from '../../../src/tasks/task-index.ts';
import { syntheticCsv } from './fixtures.ts';

const tasksDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'public', 'tasks');

describe('task card', () => {
  it('renders the expected text for known statistics', () => {
    const s: CardStats = {
      type: 'binary',
      metric: 'auc',
      nTrain: 900,
      nTest: 300,
      nNumeric: 7,
      nCategorical: 2,
      missingRate: 0.034,
      positiveRate: 0.123,
      classShares: [0.877, 0.123],
      maxCardinality: 12,
    };
    expect(renderCard(s)).toBe(
      'Binary classification. Metric: AUC (higher is better). Rows: 900 train, 300 test. ' +
        'Features: 9 (7 numeric, 2 categorical, up to 12 levels). Missing: 3% of cells. Positive class: 12%.',
    );
    const r: CardStats = { type: 'regression', metric: 'rmsle', nTrain: 50, nTest: 20, nNumeric: 3, nCategorical: 0, missingRate: 0, targetSkew: 2.04, targetNonNegative: true, targetInteger: true, maxCardinality: 0 };
    expect(renderCard(r)).toBe(
      'Regression. Metric: RMSLE (lower is better). Rows: 50 train, 20 test. Features: 3 (3 numeric, 0 categorical). Missing: none. Target: non-negative integer, skew 2.0.',
    );
  });

  it('features are a fixed-length vector aligned with their names', () => {
    const t = buildTask(parseCsv(syntheticCsv({ rows: 300, kind: 'multiclass' })), {
      id: 'm',
      split: 'train',
      target: 'label',
      type: 'multiclass',
      metric: 'macro_f1',
    });
    const f = t.meta.cardFeatures;
    expect(f.names).toEqual([...CARD_FEATURE_NAMES]);
    expect(f.values.length).toBe(f.names.length);
    const get = (n: string): number => f.values[f.names.indexOf(n)];
    expect(get('type_multiclass')).toBe(1);
    expect(get('metric_macro_f1')).toBe(1);
    expect(get('n_classes')).toBe(3);
    expect(get('n_features')).toBe(3);
    expect(get('frac_numeric')).toBeCloseTo(2 / 3, 12);
    expect(get('missing_rate')).toBeGreaterThan(0);
    expect(t.meta.card).toContain('Classes: 3');
    expect(t.meta.card).toContain('(2 numeric, 1 categorical, up to 3 levels)');
    expect(cardFeatures({ ...({} as CardStats), type: 'binary', metric: 'auc', nTrain: 1, nTest: 1, nNumeric: 0, nCategorical: 0, missingRate: 0, maxCardinality: 0 }).values.every(Number.isFinite)).toBe(true);
  });

  it('skewness of a symmetric sample is 0 and of a right tail is positive', () => {
    expect(skewness([1, 2, 3])).toBeCloseTo(0, 12);
    expect(skewness([1, 1, 1, 10])).toBeGreaterThan(1);
    expect(skewness([5, 5])).toBe(0);
  });

  it('cards of the built suite are short and name no data set and no column', () => {
    const index = JSON.parse(readFileSync(join(tasksDir, 'index.json'), 'utf8')) as TaskIndex;
    expect(index.tasks.length).toBeGreaterThanOrEqual(25);
    for (const entry of index.tasks) {
      const meta = JSON.parse(readFileSync(join(tasksDir, entry.id, 'task.json'), 'utf8')) as TaskMeta;
      expect(entry.card).toBe(meta.card);
      expect(entry.card.length).toBeLessThanOrEqual(230);
      const words = new Set(entry.card.split(/[^A-Za-z0-9_]+/));
      for (const part of entry.id.split('_')) expect(words.has(part), `${entry.id} card names ${part}`).toBe(false);
      // Column names that are also ordinary card words ("class", "type") leak nothing.
      const generic = new Set(['class', 'Class', 'type', 'target']);
      for (const name of [...meta.columns.map((c) => c.name), meta.target]) {
        if (name.length >= 3 && !generic.has(name)) expect(words.has(name), `${entry.id} card names column ${name}`).toBe(false);
      }
    }
  });
});
