// wm-eval's fitting set: the committed build's training-task programs (composed and broken on
// purpose), rebuilt from the manifest's settings and read from the committed outcome store.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutcomeStore } from '../../../src/pipeline/outcome-store.ts';
import { fitSetPrograms, type FitSetSettings } from '../../../src/pipeline/wm-fit-set.ts';
import { nodeFileLoader } from '../../../src/tasks/node-file-loader.ts';
import { TaskRegistry } from '../../../src/tasks/task-registry.ts';

const root = resolve(import.meta.dirname, '../../..');

describe('wm-eval fitting set', () => {
  it('rebuilds every training program the build ran, from training tasks only, and counts what the store lacks', { timeout: 60_000 }, async () => {
    const settings = (JSON.parse(readFileSync(resolve(root, 'public/models/manifest.json'), 'utf8')) as { training: FitSetSettings }).training;
    const tasks = await new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks'))).list({ includeSmoke: true });
    const store = new OutcomeStore(resolve(root, 'data/models-build/outcomes.jsonl'));
    const { programs, missing } = fitSetPrograms(tasks, settings, (k) => store.get(k));
    // The build ran 3,153: 2,065 composed programs and 1,088 broken on purpose (docs/models.md). The
    // store now holds back the wall-clock-era outcomes that the work budget could judge otherwise
    // (timeouts, runs near the limit: docs/sandbox.md), so those count as missing until rerun.
    expect(programs.length + missing).toBe(3153);
    expect(missing).toBeGreaterThan(0);
    expect(missing).toBeLessThan(0.3 * 3153);
    expect(programs.filter((p) => p.origin === 'composed').length).toBeLessThanOrEqual(2065);
    expect(programs.filter((p) => p.origin === 'mutant').length).toBeLessThanOrEqual(1088);
    const train = new Set(tasks.filter((t) => t.split === 'train' && t.role === 'scored').map((t) => t.id));
    expect(programs.every((p) => train.has(p.taskId))).toBe(true);
    expect(new Set(programs.map((p) => `${p.taskId}\u0000${p.program}`)).size).toBe(programs.length);
    const none = fitSetPrograms(tasks, settings, () => undefined);
    expect(none.programs).toHaveLength(0);
    expect(none.missing).toBe(programs.length + missing);
  });
});
