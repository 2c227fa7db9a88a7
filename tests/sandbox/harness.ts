// Shared set-up for the sandbox layer: the built app served on 127.0.0.1, headless Chromium on the
// sandbox harness page (sandbox.html), and helpers to run programs through the real worker pool.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, serveDist, type Served } from '../e2e/browser.ts';
import type { PoolOptions, PoolStats } from '../../src/sandbox-pyodide/pool.ts';
import type { SandboxFiles, SandboxJob, SandboxResult } from '../../src/sandbox-pyodide/protocol.ts';
import { programInputs } from '../../src/tasks/task-builder.ts';
import type { TaskMeta } from '../../src/tasks/task-types.ts';

export interface SandboxSession {
  served: Served;
  browser: Browser;
  page: Page;
  pageErrors: string[];
  consoleErrors: string[];
  start(options?: PoolOptions): Promise<PoolStats>;
  run(job: SandboxJob): Promise<SandboxResult>;
  runMany(jobs: SandboxJob[]): Promise<SandboxResult[]>;
  stats(): Promise<PoolStats>;
  close(): Promise<void>;
}

/** The pool of a harness page (sandbox.html) already loaded in `page`, whichever host served it. */
export function harnessPool(page: Page): Pick<SandboxSession, 'start' | 'run' | 'runMany' | 'stats'> {
  return {
    start: (options = {}) => page.evaluate((o) => window.sandbox.start(o), options),
    run: (job) => page.evaluate((j) => window.sandbox.run(j), job),
    runMany: (jobs) => page.evaluate((js) => window.sandbox.runMany(js), jobs),
    stats: () => page.evaluate(() => window.sandbox.stats()),
  };
}

/** The built sandbox worker's script, relative to the app's root (the bundler names it by hash). */
export function builtWorkerScript(): string {
  const assets = resolve(import.meta.dirname, '../../dist/assets');
  const file = readdirSync(assets).find((f) => /^sandbox-worker-[\w-]+\.js$/.test(f));
  if (!file) throw new Error('dist/assets holds no sandbox-worker-*.js: build the app first');
  return `assets/${file}`;
}

/** The harness page of this checkout's build, or (root) of another checkout's build, for a baseline. */
export async function openSandbox(root?: string): Promise<SandboxSession> {
  const served = await serveDist(root);
  const browser = await launchChromium({ webgpu: false });
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  await page.goto(`${served.url}sandbox.html`);
  await page.waitForSelector('#status[data-state=loaded]');
  return {
    served,
    browser,
    page,
    pageErrors,
    consoleErrors,
    ...harnessPool(page),
    async close() {
      await browser.close();
      await served.close();
    },
  };
}

/** A suite task's program inputs, from the build (dist/tasks). */
export function taskFiles(id: string): SandboxFiles {
  const dir = resolve(import.meta.dirname, '../../dist/tasks', id);
  const meta = JSON.parse(readFileSync(`${dir}/task.json`, 'utf8')) as TaskMeta;
  return programInputs({ meta, trainCsv: readFileSync(`${dir}/train.csv`, 'utf8'), testCsv: readFileSync(`${dir}/test.csv`, 'utf8') });
}

/** A tiny task: a few numeric rows, test rows without the target. */
export function tinyFiles(): SandboxFiles {
  const train = ['x1,x2,y', ...Array.from({ length: 20 }, (_, i) => `${i},${(i * 7) % 5},${2 * i + 1}`)].join('\n') + '\n';
  const test = ['x1,x2', ...Array.from({ length: 5 }, (_, i) => `${i + 20},${i % 3}`)].join('\n') + '\n';
  const task = JSON.stringify({ id: 'tiny', type: 'regression', metric: 'rmse', target: 'y' });
  return { 'train.csv': train, 'test.csv': test, 'task.json': task };
}

export function job(source: string, timeoutMs = 10_000, files: SandboxFiles = tinyFiles()): SandboxJob {
  return { source, files, timeoutMs };
}

/** A program that predicts the training mean for every test row. */
export const MEAN_PROGRAM = `
import csv
rows = list(csv.DictReader(open('train.csv')))
mean = sum(float(r['y']) for r in rows) / len(rows)
test = list(csv.DictReader(open('test.csv')))
with open('predictions.csv', 'w') as f:
    f.write('prediction\\n')
    for _ in test:
        f.write(f'{mean}\\n')
print('rows', len(rows))
`;
