// Composed corpus programs are valid toolkit code: a seeded sample of them runs in the TRUSTED Node
// runner (they are our own template programs, not model samples) and writes gradable predictions.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrustedPyodideRunner } from '../../../src/sandbox-pyodide/node-runner.ts';
import { buildCorpus } from '../../../src/pipeline/corpus.ts';
import { scorePredictions } from '../../../src/tasks/leaderboard.ts';
import { nodeFileLoader } from '../../../src/tasks/node-file-loader.ts';
import { programInputs } from '../../../src/tasks/task-builder.ts';
import { TaskRegistry } from '../../../src/tasks/task-registry.ts';

const registry = new TaskRegistry(nodeFileLoader(resolve(import.meta.dirname, '../../../public/tasks')));
let runner: TrustedPyodideRunner;
beforeAll(async () => {
  runner = await TrustedPyodideRunner.create();
}, 60_000);
afterAll(() => undefined);

describe('composed programs in the trusted runner', () => {
  it('run and write valid predictions on small tasks of each type', async () => {
    // small tasks keep this fast; one task per type
    const taskIds = ['vega_cars', 'mlbench_Sonar', 'mlbench_Glass'];
    const all = await registry.list({ includeSmoke: true });
    const corpus = buildCorpus(all.filter((t) => taskIds.includes(t.id)), { seed: 9, composedPerTask: 4 });
    for (const id of taskIds) {
      const task = await registry.loadTask(id);
      const labels = await registry.loadLabels(id);
      const inputs = programInputs(task);
      const composed = corpus.filter((e) => e.taskId === id && e.origin === 'composed').slice(0, 3);
      expect(composed.length).toBe(3);
      for (const p of composed) {
        const r = await runner.run(p.source, inputs['train.csv'], inputs['test.csv'], inputs['task.json'], 30_000);
        expect(r.traceback ?? '', `${p.programId}`).toBe('');
        expect(r.status).toBe('ok');
        const s = scorePredictions(task.meta, labels, r.predictionsCsv ?? '');
        expect(s.ok, `${p.programId}: ${s.ok ? '' : s.message}`).toBe(true);
      }
    }
  }, 60_000);
});
