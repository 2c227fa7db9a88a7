// Checks the committed leaderboards against the committed tasks: shape, order, provenance, and that
// each was built on the task files now in the tree (a rebuilt split without rebuilt leaderboards
// fails here).
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pythonLibraryHash } from '../../../src/sandbox-pyodide/node-runner.ts';
import { gradePredictions } from '../../../src/tasks/grader.ts';
import type { Leaderboard } from '../../../src/tasks/leaderboard.ts';
import type { TaskIndex } from '../../../src/tasks/task-index.ts';
import type { TaskLabels, TaskMeta } from '../../../src/tasks/task-types.ts';

const tasksDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'public', 'tasks');
const index = JSON.parse(readFileSync(join(tasksDir, 'index.json'), 'utf8')) as TaskIndex;
const currentToolkit = pythonLibraryHash();
const built = index.tasks.filter((t) => existsSync(join(tasksDir, t.id, 'leaderboard.json')));

function sha256(parts: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\u0000');
  return h.digest('hex');
}

describe('committed leaderboards', () => {
  it('exist for the suite', () => {
    expect(built.length).toBeGreaterThan(0);
  });

  it.each(built.map((t) => t.id))('%s is well formed, sorted, and matches its task files', (id) => {
    const read = (f: string): string => readFileSync(join(tasksDir, id, f), 'utf8');
    const lb = JSON.parse(read('leaderboard.json')) as Leaderboard;
    const meta = JSON.parse(read('task.json')) as TaskMeta;
    const labels = JSON.parse(read('labels.json')) as TaskLabels;
    expect(lb.taskId).toBe(id);
    expect(lb.metric).toBe(meta.metric);
    expect(lb.direction).toBe(meta.direction);
    expect(lb.provenance.taskHash).toBe(sha256(['train.csv', 'test.csv', 'labels.json'].map(read)));
    expect(lb.entries.length).toBeGreaterThanOrEqual(20);
    const values = lb.entries.map((e) => e.value);
    for (let i = 1; i < values.length; i++) {
      if (lb.direction === 'higher') expect(values[i]).toBeLessThanOrEqual(values[i - 1]);
      else expect(values[i]).toBeGreaterThanOrEqual(values[i - 1]);
    }
    const ids = [...lb.entries.flatMap((e) => e.programIds), ...lb.failed.map((f) => f.programId)];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice().sort()).toEqual(lb.provenance.programIds.slice().sort());
    // Built with the toolkit as committed: a toolkit change means `npm run build:leaderboards`.
    expect(lb.provenance.toolkitHash).toBe(currentToolkit);
    // Perfect predictions are at least as good as every reference program: gold, top percentile.
    const perfect =
      meta.type === 'binary'
        ? labels.labels.map((l) => (l === meta.positive ? '1' : '0'))
        : labels.labels.map((l) => (/[",\n\r]/.test(l) || /^\s|\s$/.test(l) ? `"${l.replace(/"/g, '""')}"` : l));
    const g = gradePredictions({ meta, labels, leaderboard: lb }, [meta.target, ...perfect].join('\n') + '\n');
    expect(g.status).toBe('ok');
    if (g.status === 'ok') {
      expect(g.medal).toBe('gold');
      expect(g.percentile).toBeGreaterThan(0.9);
    }
  });
});
