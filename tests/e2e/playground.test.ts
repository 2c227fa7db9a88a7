// The Playground (#/playground) in a real browser: a program runs in the page's sandbox pool and is
// graded on the page; a crash shows its traceback and keeps the user's text; a CSV becomes a task
// whose leaderboard is built on the spot (small population); user errors get clear messages. A run and a
// build go on while another view is open, and coming back finds them (or their outcome) and the program.
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { editorText, launchChromium, openView, serveDist, setEditorText, useServedApp, type Served } from './browser.ts';
import { parseCsvRecords, writeCsv } from '../../src/tasks/csv.ts';

const root = resolve(import.meta.dirname, '../..');
const artifacts = resolve(root, 'test-results');

const CRASH = `import toolkit as tk
task = tk.load_task()
def fit(rows):
    return 1 / 0
fit(task.train)
`;

/** Work before the task's program, so the run is still going a moment after it starts. */
const SLOW = `_s = 0
for _i in range(2_000_000):
    _s += _i
`;

async function text(page: Page, testid: string): Promise<string> {
  return ((await page.locator(`[data-testid="${testid}"]`).first().textContent()) ?? '').trim();
}

/** Clicks Run and waits for the button to come back (the run, including pool start-up, is over). */
async function runAndWait(page: Page): Promise<void> {
  await page.click('[data-testid=run-button]');
  await page.waitForSelector('[data-testid=run-button]:has-text("Running")', { timeout: 10_000 }).catch(() => undefined);
  await page.waitForSelector('[data-testid=run-button]:not([disabled])', { timeout: 150_000 });
}

function carsCsv(rows: number): Buffer {
  const [header, ...data] = parseCsvRecords(readFileSync(resolve(root, 'data/datasets/train/vega_cars.csv'), 'utf8'));
  return Buffer.from(writeCsv(header, data.slice(0, rows)));
}

describe('Playground (#/playground)', () => {
  let served: Served;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    served = await serveDist();
    browser = await launchChromium({ webgpu: false });
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${served.url}#/playground`);
    await page.waitForSelector('[data-testid=task-card]', { timeout: 60_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('runs the prefilled program on a real task: ok, a percentile (x 100) in (0, 100], pool start-up shown', async () => {
    expect(await text(page, 'task-card')).toContain('vega_cars');
    expect(await text(page, 'task-card')).toMatch(/Regression\. Metric: RMSE/);
    const program = await editorText(page, 'program');
    expect(program).toContain('import toolkit as tk');
    expect(program).toContain('tk.Ridge(alpha=1.0)');

    const t0 = performance.now();
    await runAndWait(page);
    console.log(`playground first run incl. pool start-up: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    expect(await text(page, 'pool-progress')).toMatch(/^Python sandbox ready: \d worker\(s\), started in [\d.]+ s$/);
    expect(await text(page, 'result-status')).toBe('ok');
    expect(Number((await text(page, 'result-metric')).split(' ')[0])).toBeGreaterThan(0);
    const pct = Number((await text(page, 'result-percentile')).split(' ')[0]);
    expect(pct).toBeGreaterThan(0);
    expect(pct).toBeLessThanOrEqual(100);
    expect(await text(page, 'result-time')).toMatch(/^[\d.]+ s/);
    expect(await text(page, 'result-work')).toMatch(/^[\d.]+ calibrated s of 60\.0 .*units; a unit is one loop iteration/);
    // The budget note's quiet-seconds range is the reference programs' (work-reference.json), not a typed-in figure.
    expect(await text(page, 'budget-note')).toMatch(/a calibrated second is 260 M units[\s\S]*0\.4 to 1\.5 s of work on a quiet machine depending on the program, as measured on the reference programs/);
    // The frozen world model's guess, read from the card and the code alone (wasm: SwiftShader is passed over).
    const guess = await text(page, 'result-wm-guess');
    expect(guess).toMatch(/^\d{1,3}\.\d \(× 100: .*without running it.*wasm, \d+ ms/s);
    // ... and that score read onto the authors' status ladder (the committed ladder-reading.json)
    expect(await text(page, 'result-wm-status')).toMatch(/^(malformed|syntax error|runtime error|ran without submission|valid)(, quality (low|fair|mid|high))? \(else [a-z ]+; ladder reward [01]\.\d\d: .*training-task programs/s);
  
    // The suite task's own leaderboard and the toolkit's reference are in the page; the link names the task.
    expect(await page.locator('[data-testid=suite-leaderboard] summary').textContent()).toMatch(/This task's leaderboard: \d+ entries/);
    await page.click('[data-testid=toolkit-reference] summary');
    const reference = await text(page, 'toolkit-reference');
    expect(reference).toContain('tk.load_task()');
    expect(reference).toContain('tk.write_predictions(task, values)');
    expect(await text(page, 'toolkit-models')).toMatch(/tk\.Ridge \*\s*alpha 0\.01, 0\.1/);
    expect(page.url()).not.toContain('data=');
  });

  it('a crashing program shows its traceback, scores 0, and its text stays in the editor', async () => {
    await setEditorText(page, 'program', CRASH);
    await runAndWait(page);
    expect(await text(page, 'result-status')).toBe('error');
    const tb = await text(page, 'result-traceback');
    expect(tb).toContain('Traceback');
    expect(tb).toContain('line 4, in fit');
    expect(tb).toContain('ZeroDivisionError');
    expect(Number((await text(page, 'result-percentile')).split(' ')[0])).toBe(0);
    // The world model still guesses: it reads the program, it does not run it.
    expect(await text(page, 'result-wm-guess')).toMatch(/^\d{1,3}\.\d /);
    expect(await editorText(page, 'program')).toBe(CRASH);

    // An empty program is refused with a message, before anything runs.
    await setEditorText(page, 'program', '   ');
    await page.click('[data-testid=run-button]');
    expect(await text(page, 'run-error')).toMatch(/The program is empty/);
    await setEditorText(page, 'program', CRASH);

    // Loading a reference program is undoable.
    await page.click('[data-testid=starter-load]');
    expect(await editorText(page, 'program')).toContain('tk.Ridge');
    await page.click('[data-testid=starter-undo]');
    expect(await editorText(page, 'program')).toBe(CRASH);
  });

  it('a CSV becomes a task; bad choices get clear messages; its leaderboard is built on the spot and ranks a run', async () => {
    await page.click('[data-testid=mode-csv]');
    // The link now says the CSV tab is open, not the suite task it left.
    await page.waitForURL((u) => u.hash.includes('data=own') && !u.hash.includes('task='));
    expect(await text(page, 'csv-choose')).toMatch(/^Choose a CSV file above/);
    // A file that is not CSV.
    await page.setInputFiles('[data-testid=csv-input]', { name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b,y\n"1,2,3\n4,5,6\n') });
    expect(await text(page, 'csv-error')).toBe('broken.csv: CSV: a quoted field opened on line 2 is never closed');

    await page.setInputFiles('[data-testid=csv-input]', { name: 'cars.csv', mimeType: 'text/csv', buffer: carsCsv(150) });
    await page.waitForSelector('[data-testid=target-select]');
    expect(await text(page, 'csv-summary')).toBe('cars.csv: 150 rows, 8 columns.');
    // A categorical target with three values: inferred multiclass, metrics follow.
    await page.selectOption('[data-testid=target-select]', 'Origin');
    expect(await text(page, 'type-note')).toMatch(/^Task type multiclass \(inferred/);
    expect(await page.locator('[data-testid=metric-select] option').allTextContents()).toEqual(['accuracy', 'macro_f1']);
    // Forcing regression on a text target is refused with the builder's message.
    await page.selectOption('[data-testid=type-select]', 'regression');
    await page.click('[data-testid=build-button]');
    expect(await text(page, 'build-error')).toMatch(/Origin/);

    await page.selectOption('[data-testid=type-select]', 'auto');
    await page.selectOption('[data-testid=target-select]', 'Miles_per_Gallon');
    expect(await text(page, 'type-note')).toMatch(/^Task type regression \(inferred/);
    await page.selectOption('[data-testid=metric-select]', 'rmse');
    await page.fill('[data-testid=population-input]', '10');
    await page.click('[data-testid=build-button]');
    await page.waitForSelector('[data-testid=build-progress]', { timeout: 10_000 });
    await page.waitForSelector('[data-testid=leaderboard-table]', { timeout: 150_000 });
    const summary = await text(page, 'leaderboard-summary');
    expect(summary).toMatch(/^\d+ distinct entries from 10 reference programs\s+\(0 failed\), built in [\d.]+ s on \d worker\(s\)\./);
    console.log(`playground BYO leaderboard: ${summary}`);
    expect(await text(page, 'task-card')).toMatch(/custom_[0-9a-f]{8}/);
    // The new task opens with its own starting program; the suite task kept the user's.
    expect(await editorText(page, 'program')).toContain('tk.Ridge');
    await page.click('[data-testid=mode-suite]');
    expect(await editorText(page, 'program')).toBe(CRASH);
    await page.click('[data-testid=mode-csv]');

    await page.click('[data-testid=starter-load]');
    await runAndWait(page);
    expect(await text(page, 'result-status')).toBe('ok');
    const pct = Number((await text(page, 'result-percentile')).split(' ')[0]);
    expect(pct).toBeGreaterThan(0);
    expect(pct).toBeLessThanOrEqual(100);
    expect(await text(page, 'result-percentile')).toMatch(/of \d+ entries/);

    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: resolve(artifacts, 'playground.png'), fullPage: true });
    expect(errors).toEqual([]);
  });
});

describe('Playground across a view switch', () => {
  const app = useServedApp({ webgpu: false });

  /** Away to the paper and back by the menu, as a user would. */
  async function awayAndBack(page: Page): Promise<void> {
    await page.click('nav >> text=The paper, live');
    await page.waitForSelector('[data-testid=companion]', { timeout: 60_000 });
    await page.click('nav >> text=Playground');
    await page.waitForSelector('[data-testid=task-card]', { timeout: 60_000 });
  }

  it('a run and a leaderboard build go on while the paper is open; back, they or their outcomes are there, the program as left', async () => {
    const { page, errors } = await openView(app, '#/playground', { width: 1280, height: 1000 });
    await page.waitForSelector('[data-testid=task-card]', { timeout: 60_000 });
    const program = `${SLOW}${await editorText(page, 'program')}`;
    await setEditorText(page, 'program', program);
    const t0 = performance.now();
    await page.click('[data-testid=run-button]');
    await page.waitForSelector('[data-testid=run-button]:has-text("Running")', { timeout: 10_000 });
    await awayAndBack(page);
    // The same run, still going (the pool's start-up and the loop take seconds), or already over.
    const back = (await page.locator('[data-testid=run-button]').textContent()) ?? '';
    console.log(`playground run across a view switch: ${back.includes('Running') ? 'still running' : 'over'} when back after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await page.waitForSelector('[data-testid=result-status]', { timeout: 150_000 });
    expect(await text(page, 'result-status')).toBe('ok');
    // the real result can come before the world model's guess (it runs beside it): the run ends with both
    await page.waitForSelector('[data-testid=run-button]:not([disabled])', { timeout: 150_000 });
    expect(await text(page, 'result-wm-guess')).toMatch(/^\d{1,3}\.\d /);
    expect(await page.locator('[data-testid=run-button]').textContent()).toBe('Run');
    expect(await page.isEnabled('[data-testid=run-button]')).toBe(true);
    expect(await editorText(page, 'program')).toBe(program);
    // Back again with nothing running: the outcome is still shown.
    await awayAndBack(page);
    expect(await text(page, 'result-status')).toBe('ok');
    expect(await editorText(page, 'program')).toBe(program);

    await page.click('[data-testid=mode-csv]');
    await page.setInputFiles('[data-testid=csv-input]', { name: 'cars.csv', mimeType: 'text/csv', buffer: carsCsv(150) });
    await page.selectOption('[data-testid=target-select]', 'Miles_per_Gallon');
    await page.selectOption('[data-testid=metric-select]', 'rmse');
    await page.fill('[data-testid=population-input]', '10');
    await page.click('[data-testid=build-button]');
    await page.waitForSelector('[data-testid=build-progress]', { timeout: 10_000 });
    const custom = await text(page, 'task-card');
    await awayAndBack(page);
    // The CSV tab, its task and its build (or the leaderboard it built), with the URL saying so.
    expect(page.url()).toContain('data=own');
    expect(await text(page, 'task-card')).toBe(custom);
    console.log(`playground build across a view switch: ${(await page.locator('[data-testid=build-progress]').count()) > 0 ? 'still building' : 'over'} when back`);
    await page.waitForSelector('[data-testid=leaderboard-table]', { timeout: 150_000 });
    expect(await text(page, 'leaderboard-summary')).toMatch(/from 10 reference programs\s+\(0 failed\)/);
    await page.click('[data-testid=mode-suite]');
    expect(await editorText(page, 'program')).toBe(program);
    expect(errors).toEqual([]);
    await page.close();
  });
});
