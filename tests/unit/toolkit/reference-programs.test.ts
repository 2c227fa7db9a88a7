import { describe, expect, it } from 'vitest';
import { programFamilies, referencePrograms } from '../../../src/sandbox-pyodide/reference-programs.ts';
import type { TaskType } from '../../../src/tasks/task-types.ts';

const TYPES: TaskType[] = ['regression', 'binary', 'multiclass'];

describe('reference program population', () => {
  it('has at least 50 distinct programs per task type with unique ids', () => {
    for (const t of TYPES) {
      for (const metric of t === 'regression' ? ['rmse', 'rmsle'] : [undefined]) {
        const progs = referencePrograms(t, metric);
        expect(progs.length).toBeGreaterThanOrEqual(50);
        expect(new Set(progs.map((p) => p.id)).size).toBe(progs.length);
        expect(new Set(progs.map((p) => p.source)).size).toBe(progs.length);
      }
    }
  });

  it('is deterministic and spans weak and strong families', () => {
    for (const t of TYPES) {
      expect(referencePrograms(t)).toEqual(referencePrograms(t));
      const fams = new Set(referencePrograms(t).map((p) => p.family));
      for (const f of ['baseline', 'knn', 'tree', 'forest', 'gbm', 'select']) expect(fams.has(f)).toBe(true);
      expect(fams.has(t === 'regression' ? 'ridge' : 'logistic')).toBe(true);
    }
  });

  it('uses log targets under rmsle, and every program writes predictions through the toolkit', () => {
    const logged = referencePrograms('regression', 'rmsle').filter((p) => p.source.includes("'log1p'"));
    expect(logged.length).toBeGreaterThanOrEqual(5);
    for (const t of TYPES) for (const p of referencePrograms(t)) expect(p.source).toContain('tk.write_predictions(task');
  });

  it('program families name a toolkit class for every task type they serve', () => {
    for (const f of programFamilies) {
      expect(Object.values(f.classes).some((c) => c !== null)).toBe(true);
    }
  });
});
