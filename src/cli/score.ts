// `npm run score`: run one program in the real browser sandbox (headless Chromium on 127.0.0.1,
// serving the built app) and grade it here, in Node, where the hidden labels stay.
//   npm run score -- --task <id> --program <file.py> [--json] [--timeout <s>]
//   npm run score -- --csv <file.csv> --target <column> --metric <metric> --program <file.py> [--json]
//   npm run score -- --list
// Untrusted programs never run in Node: Pyodide there can reach the host.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { TaskRegistry } from '../tasks/task-registry.ts';
import { nodeFileLoader } from '../tasks/node-file-loader.ts';
import { gradePredictions, type GradeResult } from '../tasks/grader.ts';
import { scorePredictions } from '../tasks/leaderboard.ts';
import { createCustomTask } from '../tasks/byo-data.ts';
import { programInputs } from '../tasks/task-builder.ts';
import type { SandboxFiles, SandboxResult } from '../sandbox-pyodide/protocol.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function usage(): never {
  console.error(
    'usage: npm run score -- --task <id> --program <file.py> [--json] [--timeout <s>]\n' +
      '       npm run score -- --csv <file.csv> --target <column> --metric <metric> --program <file.py> [--json]\n' +
      '       npm run score -- --list',
  );
  process.exit(2);
}

async function runInBrowser(files: SandboxFiles, source: string, timeoutMs: number): Promise<SandboxResult> {
  if (!existsSync(resolve(root, 'dist/sandbox.html'))) {
    console.error('dist/ is missing: building the app (vite build) ...');
    const r = spawnSync(process.execPath, [resolve(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  const server = await preview({ root, configFile: resolve(root, 'vite.config.ts'), logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no TCP address');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${address.port}/sandbox.html`);
    await page.waitForSelector('#status[data-state=loaded]');
    await page.evaluate(() => window.sandbox.start({ size: 1, spares: 0 }));
    return await page.evaluate((job) => window.sandbox.run(job), { source, files, timeoutMs });
  } finally {
    await browser.close();
    await server.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      task: { type: 'string' },
      program: { type: 'string' },
      csv: { type: 'string' },
      target: { type: 'string' },
      metric: { type: 'string' },
      timeout: { type: 'string', default: '120' },
      json: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
    },
  });
  const registry = new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks')));
  if (values.list) {
    const tasks = await registry.list({ includeSmoke: true });
    if (values.json) console.log(JSON.stringify(tasks, null, 2));
    else for (const t of tasks) console.log(`${t.id.padEnd(28)} ${t.split.padEnd(8)} ${t.role.padEnd(7)} ${t.type.padEnd(11)} ${t.metric}`);
    return;
  }
  if (!values.program || (!values.task && !(values.csv && values.target && values.metric))) usage();
  const source = readFileSync(values.program, 'utf8');
  const timeoutMs = Number(values.timeout) * 1000;

  let files: SandboxFiles;
  let grade: (csv: string) => GradeResult;
  let taskId: string;
  if (values.task) {
    const task = await registry.loadTask(values.task);
    const grader = await registry.loadGraderTask(values.task);
    files = programInputs(task);
    grade = (csv) => gradePredictions(grader, csv);
    taskId = task.meta.id;
  } else {
    const built = createCustomTask({ csv: readFileSync(values.csv as string, 'utf8'), target: values.target as string, metric: values.metric as string });
    files = programInputs(built);
    // A custom task has no reference leaderboard here: the metric is exact, percentile and medal are not given.
    grade = (csv) => {
      const s = scorePredictions(built.meta, built.labels, csv);
      return s.ok
        ? { status: 'ok', metric: built.meta.metric, direction: built.meta.direction, value: s.value, percentile: Number.NaN, medal: null }
        : { status: 'invalid', message: s.message };
    };
    taskId = built.meta.id;
  }

  const result = await runInBrowser(files, source, timeoutMs);
  const graded = result.status === 'ok' && result.predictionsCsv !== undefined ? grade(result.predictionsCsv) : null;
  const out = {
    task: taskId,
    status: result.status,
    metric: graded?.status === 'ok' ? graded.metric : undefined,
    value: graded?.status === 'ok' ? graded.value : undefined,
    percentile: graded?.status === 'ok' && Number.isFinite(graded.percentile) ? graded.percentile : undefined,
    medal: graded?.status === 'ok' ? graded.medal : undefined,
    seconds: result.seconds,
    error:
      result.status !== 'ok'
        ? (result.traceback ?? result.reason ?? result.status)
        : result.predictionsCsv === undefined
          ? 'the program wrote no predictions.csv'
          : graded?.status === 'invalid'
            ? graded.message
            : undefined,
    stdout: result.stdout,
    stderr: result.stderr,
  };
  if (values.json) {
    console.log(JSON.stringify(out, null, 2));
  } else {
    console.log(`task        ${out.task}`);
    console.log(`status      ${out.status}${out.status === 'ok' && out.error ? ' (predictions not graded)' : ''}`);
    if (out.metric) console.log(`metric      ${out.metric} = ${out.value}`);
    console.log(`percentile  ${out.percentile ?? 'n/a'}`);
    console.log(`medal       ${out.medal ?? 'none'}`);
    console.log(`run time    ${out.seconds.toFixed(3)} s`);
    if (out.error) console.log(`error\n${out.error}`);
  }
  process.exitCode = out.error ? 1 : 0;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
