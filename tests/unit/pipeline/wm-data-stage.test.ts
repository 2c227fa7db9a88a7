// The wm-data stage on planted executed samples: held-out tasks never enter the world model's data
// (neither their samples nor their mutants nor composed programs), a program repeated at low temperature is one example,
// failures are y = 0 with valid = false, and programs broken on purpose join with their real outcome.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { quickSettings, runPipeline } from '../../../src/pipeline/run-pipeline.ts';
import type { WmExample } from '../../../src/pipeline/wm-data.ts';
import { nodeFileLoader } from '../../../src/tasks/node-file-loader.ts';
import { TaskRegistry } from '../../../src/tasks/task-registry.ts';

const root = resolve(import.meta.dirname, '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'wmrl-wmdata-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (status: string, y: number) => ({ taskId: 'x', status, y, seconds: 1 });
const sample = (taskId: string, split: string, program: string, status: string, y: number, temperature = 0.6) => ({
  taskId,
  card: `card of ${taskId}`,
  index: 0,
  program,
  stopped: true,
  tokens: 10,
  split,
  temperature,
  run: { ...run(status, y), taskId },
});

describe('wm-data stage', () => {
  it('learns from training-task samples, mutants and composed programs only, one example per distinct program', async () => {
    const workDir = join(tmp, 'work');
    mkdirSync(workDir, { recursive: true });
    const settings = quickSettings(3);
    writeFileSync(
      join(workDir, 'samples.json'),
      JSON.stringify([
        sample('vega_cars', 'train', 'good', 'ok', 0.7, 0.4),
        sample('vega_cars', 'train', 'good', 'ok', 0.7, 0.6),
        sample('vega_cars', 'train', 'broken', 'error', 0),
        sample('mlbench_Glass', 'train', 'slow', 'timeout', 0, 1),
        sample('carData_Wells', 'heldout', 'held-out program', 'ok', 0.9),
      ]),
    );
    writeFileSync(
      join(workDir, 'mutants.json'),
      JSON.stringify([
        { taskId: 'vega_cars', card: 'card of vega_cars', kind: 'drop-line', program: 'mutant', run: run('error', 0) },
        { taskId: 'vega_cars', card: 'card of vega_cars', kind: 'bad-value', program: 'good', run: run('ok', 0.7) },
        { taskId: 'carData_Wells', card: 'card of carData_Wells', kind: 'drop-line', program: 'held-out mutant', run: run('error', 0) },
      ]),
    );
    writeFileSync(
      join(workDir, 'composed.json'),
      JSON.stringify([
        { taskId: 'vega_cars', card: 'card of vega_cars', program: 'composed', run: run('ok', 0.4) },
        { taskId: 'vega_cars', card: 'card of vega_cars', program: 'good', run: run('ok', 0.7) },
        { taskId: 'carData_Wells', card: 'card of carData_Wells', program: 'held-out composed', run: run('ok', 0.5) },
      ]),
    );
    await runPipeline({ root, workDir, outDir: join(tmp, 'out'), registry: new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks'))), settings, log: () => {} }, ['wm-data']);
    const examples = JSON.parse(readFileSync(join(workDir, 'wm-data.json'), 'utf8')) as WmExample[];
    const fromPolicy = examples.filter((e) => e.origin !== 'reference');
    expect(fromPolicy.map((e) => [e.taskId, e.program, e.origin, e.y, e.valid])).toEqual([
      ['vega_cars', 'good', 'sample', 0.7, true],
      ['vega_cars', 'broken', 'sample', 0, false],
      ['mlbench_Glass', 'slow', 'sample', 0, false],
      ['vega_cars', 'mutant', 'mutant', 0, false],
      ['vega_cars', 'composed', 'composed', 0.4, true],
    ]);
    expect(examples.some((e) => e.taskId === 'carData_Wells')).toBe(false);
  });
});
