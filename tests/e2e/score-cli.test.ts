// `npm run score` as a user runs it: a child process (tsx src/cli/score.ts) that serves the built app,
// runs the program in the browser sandbox (headless Chromium) and grades it in Node. Bad input must
// give one clear line and a non-zero exit, before any browser starts.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsvRecords, writeCsv } from '../../src/tasks/csv.ts';
import { pythonLibraryHash } from '../../src/sandbox-pyodide/node-runner.ts';
import { workBudgetFor } from '../../src/sandbox-pyodide/work-rule.ts';

const root = resolve(import.meta.dirname, '../..');
const carsCsv = resolve(root, 'data/datasets/train/vega_cars.csv');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function score(args: string[], timeoutMs = 150_000): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(root, 'node_modules/tsx/dist/cli.mjs'), 'src/cli/score.ts', ...args], { cwd: root, env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`score ${args.join(' ')} ran past ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** The value printed after a label in the text report, e.g. "percentile  0.82". */
function field(out: string, label: string): string {
  const m = out.match(new RegExp(`^${label}\\s+(.*)$`, 'm'));
  if (!m) throw new Error(`no "${label}" line in:\n${out}`);
  return m[1];
}

const GOOD = `import toolkit as tk
task = tk.load_task()
pre = tk.Preprocessor(impute='median', scale='standard', encode='onehot', max_categories=10)
X = pre.fit_transform(task.train)
X_test = pre.transform(task.test)
model = tk.Ridge(alpha=1.0).fit(X, task.y)
print('fitted on', len(X), 'rows')
tk.write_predictions(task, tk.task_outputs(model, X_test, task))
`;
const CRASH = `import toolkit as tk
task = tk.load_task()
def fit(rows):
    raise ValueError('deliberate failure in fit')
fit(task.train)
`;

describe('npm run score (CLI, real browser sandbox)', () => {
  let dir: string;
  const p = (name: string): string => join(dir, name);

  beforeAll(() => {
    if (!existsSync(resolve(root, 'dist/sandbox.html'))) {
      const r = spawnSync(process.execPath, [resolve(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
      if (r.status !== 0) throw new Error('vite build failed');
    }
    dir = mkdtempSync(join(tmpdir(), 'score-cli-'));
    writeFileSync(p('good.py'), GOOD);
    writeFileSync(p('crash.py'), CRASH);
    // A small task from real data: 120 rows of the cars data set (398 rows upstream).
    const [header, ...rows] = parseCsvRecords(readFileSync(carsCsv, 'utf8'));
    writeFileSync(p('cars.csv'), writeCsv(header, rows.slice(0, 120)));
    const mpg = header.indexOf('Miles_per_Gallon');
    writeFileSync(p('constant.csv'), writeCsv(header, rows.slice(0, 60).map((r) => r.map((v, i) => (i === mpg ? '20' : v)))));
    writeFileSync(p('few.csv'), writeCsv(header, rows.slice(0, 12)));
    writeFileSync(p('broken.csv'), 'a,b,y\n"1,2,3\n4,5,6\n');
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('--list names the suite with split, type and metric', async () => {
    const r = await score(['--list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^vega_cars\s+train\s+scored\s+regression\s+rmse$/m);
    expect(r.stdout).toMatch(/^carData_Wells\s+heldout\s+scored\s+binary\s+auc$/m);
    expect(r.stdout.trim().split('\n').length).toBe(28);
  });

  it('--task with a good program: ok, metric, percentile in (0, 1]', async () => {
    const r = await score(['--task', 'vega_cars', '--program', p('good.py')]);
    expect(r.code, r.stderr).toBe(0);
    expect(field(r.stdout, 'status')).toBe('ok');
    expect(Number(field(r.stdout, 'metric').match(/rmse = ([\d.]+)/)?.[1])).toBeGreaterThan(0);
    const pct = Number(field(r.stdout, 'percentile'));
    expect(pct).toBeGreaterThan(0);
    expect(pct).toBeLessThanOrEqual(1);
    expect(field(r.stdout, 'leaderboard')).toMatch(/distinct entries from \d+ reference programs .*suite/);
    expect(r.stdout).toContain('fitted on 239 rows');
  });

  it('--task with a crashing program: status error, the traceback, percentile 0, exit 1', async () => {
    const r = await score(['--task', 'vega_cars', '--program', p('crash.py'), '--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { status: string; percentile: number; error: string; medal: string | null; work: number; workBudget: number };
    expect(out.status).toBe('error');
    // The run's work count and the budget it ran under (the CLI's default --timeout, 120 s).
    expect(Number.isInteger(out.work) && out.work > 0).toBe(true);
    expect(out.work).toBeLessThan(out.workBudget);
    expect(out.workBudget).toBe(workBudgetFor(120_000));
    expect(out.percentile).toBe(0);
    expect(out.medal).toBeNull();
    expect(out.error).toContain('Traceback');
    expect(out.error).toContain('line 4, in fit');
    expect(out.error).toContain('ValueError: deliberate failure in fit');
  });

  it('--csv builds the leaderboard on the spot (reduced population), prints percentile, saves it on request', async () => {
    const saved = p('lb.json');
    const t0 = performance.now();
    const r = await score(['--csv', p('cars.csv'), '--target', 'Miles_per_Gallon', '--metric', 'rmse', '--program', p('good.py'), '--population', '12', '--save-leaderboard', saved]);
    console.log(`score --csv (120 rows, population 12): ${((performance.now() - t0) / 1000).toFixed(1)} s wall incl. browser start`);
    expect(r.code, r.stderr).toBe(0);
    expect(field(r.stdout, 'status')).toBe('ok');
    const pct = Number(field(r.stdout, 'percentile'));
    expect(pct).toBeGreaterThan(0);
    expect(pct).toBeLessThanOrEqual(1);
    expect(field(r.stdout, 'leaderboard')).toMatch(/^\d+ distinct entries from 12 reference programs \(\d+ failed\), built on the spot: population run time [\d.]+ s on \d worker/);
    // Progress went to stderr, ending at 12/12.
    expect(r.stderr).toMatch(/reference population: 12\/12 programs run/);
    const lb = JSON.parse(readFileSync(saved, 'utf8')) as { taskId: string; entries: { value: number }[]; provenance: { programIds: string[]; toolkitHash: string } };
    expect(lb.taskId).toMatch(/^custom_[0-9a-f]{8}$/);
    expect(lb.provenance.programIds).toHaveLength(12);
    // The page hashes the toolkit it ran with the same digest the suite's leaderboard build records.
    expect(lb.provenance.toolkitHash).toBe(pythonLibraryHash());
    // Best first, lower is better for rmse.
    const values = lb.entries.map((e) => e.value);
    expect(values).toEqual([...values].sort((a, b) => a - b));

    // The saved leaderboard is reused without running the population, and gives the same percentile.
    const again = await score(['--csv', p('cars.csv'), '--target', 'Miles_per_Gallon', '--metric', 'rmse', '--program', p('good.py'), '--leaderboard', saved, '--json']);
    expect(again.code, again.stderr).toBe(0);
    const out = JSON.parse(again.stdout) as { percentile: number; leaderboard: { source: string; programs: number } };
    expect(out.percentile).toBe(pct);
    expect(out.leaderboard).toMatchObject({ source: 'file', programs: 12 });
    expect(again.stderr).not.toContain('reference population');
  });

  it('--csv --no-leaderboard prints the metric only, as JSON that parses', async () => {
    const r = await score(['--csv', p('cars.csv'), '--target', 'Miles_per_Gallon', '--metric', 'rmse', '--program', p('good.py'), '--no-leaderboard', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out.status).toBe('ok');
    expect(out.metric).toBe('rmse');
    expect(typeof out.value).toBe('number');
    expect(out.percentile).toBeUndefined();
    expect(out.leaderboard).toBeUndefined();
    expect(r.stderr).not.toContain('reference population');
  });

  const bad: [string, () => string[], RegExp][] = [
    ['unparseable CSV', () => ['--csv', p('broken.csv'), '--target', 'y', '--metric', 'rmse', '--program', p('good.py')], /^error: CSV: a quoted field opened on line 2 is never closed$/],
    ['missing CSV file', () => ['--csv', p('none.csv'), '--target', 'y', '--metric', 'rmse', '--program', p('good.py')], /^error: CSV file not found: .*none\.csv$/],
    ['missing target column', () => ['--csv', p('cars.csv'), '--target', 'mpg', '--metric', 'rmse', '--program', p('good.py')], /^error: target column "mpg" is not in the header \(columns: "Miles_per_Gallon", /],
    ['constant target', () => ['--csv', p('constant.csv'), '--target', 'Miles_per_Gallon', '--metric', 'rmse', '--program', p('good.py')], /^error: target "Miles_per_Gallon" has a single value "20"$/],
    ['too few rows', () => ['--csv', p('few.csv'), '--target', 'Miles_per_Gallon', '--metric', 'rmse', '--program', p('good.py')], /^error: target "Miles_per_Gallon" has 12 non-missing rows; at least 30 are needed$/],
    ['unknown metric', () => ['--csv', p('cars.csv'), '--target', 'Miles_per_Gallon', '--metric', 'r2', '--program', p('good.py')], /^error: unknown metric "r2" \(use one of: rmse, rmsle, auc, accuracy, macro_f1\)$/],
    ['metric incompatible with type', () => ['--csv', p('cars.csv'), '--target', 'Miles_per_Gallon', '--metric', 'auc', '--program', p('good.py')], /^error: metric auc does not apply to a regression task/],
    ['missing program file', () => ['--csv', p('cars.csv'), '--target', 'Miles_per_Gallon', '--metric', 'rmse', '--program', p('nope.py')], /^error: program file not found: .*nope\.py$/],
    ['unknown task', () => ['--task', 'no_such_task', '--program', p('good.py')], /^error: no task with id "no_such_task"$/],
    ['unknown option', () => ['--task', 'vega_cars', '--program', p('good.py'), '--fast'], /^error: Unknown option '--fast' \(see --help\)$/],
  ];
  // Each bad input is rejected before a browser starts, so they run side by side.
  it.concurrent.each(bad)('bad input: %s -> one clear line, exit 2, no stack trace', async (_name, args, message) => {
    // The default hang guard: eight CLIs starting side by side on a busy 2-core machine took over 30 s.
    const r = await score(args());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
