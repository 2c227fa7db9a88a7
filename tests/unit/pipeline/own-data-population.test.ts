// Population (c) of wm-eval: the committed spec rebuilds, through the own-data path, exactly the
// tasks that the committed leaderboards and executed samples name; none of them is a suite task.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readExecutedSamples } from '../../../src/pipeline/executed-samples.ts';
import { createCustomTask } from '../../../src/tasks/byo-data.ts';

const root = resolve(import.meta.dirname, '../../..');

describe('own-data population (c)', () => {
  it('spec, leaderboards and samples agree on the tasks, and the cards are the ones the tasks build', { timeout: 60_000 }, () => {
    const spec = JSON.parse(readFileSync(resolve(root, 'data/wm-eval-own/tasks.json'), 'utf8')) as { tasks: { name: string; csv: string; target: string; metric: string }[] };
    const samples = readExecutedSamples(resolve(root, 'data/wm-eval/own-data-heldout-sources.jsonl'));
    const suite = JSON.parse(readFileSync(resolve(root, 'public/tasks/index.json'), 'utf8')) as { tasks: { id: string }[] };
    const ids = new Set<string>();
    for (const t of spec.tasks) {
      const built = createCustomTask({ csv: readFileSync(resolve(root, t.csv), 'utf8'), target: t.target, metric: t.metric });
      const lb = JSON.parse(readFileSync(resolve(root, `data/wm-eval-own/leaderboards/${t.name}.leaderboard.json`), 'utf8')) as { taskId: string };
      expect(lb.taskId).toBe(built.meta.id);
      const mine = samples.filter((s) => s.taskId === built.meta.id);
      expect(mine.length).toBe(16);
      expect(mine.every((s) => s.card === built.meta.card)).toBe(true);
      ids.add(built.meta.id);
    }
    expect(samples.every((s) => ids.has(s.taskId))).toBe(true);
    expect(suite.tasks.some((t) => ids.has(t.id))).toBe(false);
  });
});
