// What the hand-written SVG charts cost with long runs (issue 11, point 4: keep them or take a
// chart library): the Train view's six charts at 20 to 5,000 steps in Chromium, medians of
// `--trials` mounts. Times are from the change to the end of its style and layout, and to the
// next painted frame. The machine is shared: compare the rows of one run, quote medians.
//   npm run bench:charts -- [--trials 7] [--steps 20,200,1000,5000] [--json]
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { build } from 'vite';
import { launchChromium, PROJECT_ROOT, serveDistStatic } from '../src/cli/browser-session.ts';
import type { ChartBenchRow } from './chart-render/page.svelte.ts';

const { values } = parseArgs({ options: { trials: { type: 'string', default: '7' }, steps: { type: 'string', default: '20,200,1000,5000' }, json: { type: 'boolean', default: false } } });
const steps = values.steps!.split(',').map(Number);
if (steps.some((n) => !(Number.isInteger(n) && n > 0))) throw new Error(`--steps: whole numbers above 0, got ${values.steps}`);
const trials = Number(values.trials);

// A production build of the bench page alone (Svelte's dev checks off, as in the app).
const tmp = mkdtempSync(join(tmpdir(), 'wmrl-chart-bench-'));
try {
  await build({
    configFile: false,
    root: PROJECT_ROOT,
    base: './',
    logLevel: 'warn',
    plugins: [svelte()],
    build: { outDir: join(tmp, 'dist'), emptyOutDir: true, target: 'es2022', rolldownOptions: { input: resolve(PROJECT_ROOT, 'bench/chart-render/index.html') } },
  });
  const served = await serveDistStatic({ root: tmp });
  const browser = await launchChromium({ webgpu: false });
  let rows: ChartBenchRow[];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${served.url}bench/chart-render/index.html`);
    await page.waitForFunction(() => document.title === 'chart bench ready');
    rows = await page.evaluate(([s, t]) => window.chartBench.run(s, t), [steps, trials] as const);
  } finally {
    await browser.close();
    await served.close();
  }
  const machine = `${cpus().length} cores (${cpus()[0]?.model}), load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`;
  if (values.json) console.log(JSON.stringify({ trials, machine, rows }));
  else {
    console.log(`Six Train-view charts (21 series), medians of ${trials}; ${machine}\n`);
    console.log('| steps | points drawn | first render | to painted frame | one more step | to painted frame | hover readout |');
    console.log('|---|---|---|---|---|---|---|');
    const ms = (x: number) => `${x.toFixed(1)} ms`;
    for (const r of rows) console.log(`| ${r.steps} | ${r.pathPoints} | ${ms(r.mountMs)} | ${ms(r.mountFrameMs)} | ${ms(r.stepMs)} | ${ms(r.stepFrameMs)} | ${ms(r.hoverMs)} |`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
