// The work unit's reference set (issue 48): programs of every kind a budget must charge fairly (plain
// loops, big-int arithmetic, calls, comprehensions, `sorted`/`sum`/`str.join`, string building, dict
// work, the toolkit's models), each run in Node on the metered interpreter (public/vendor/pyodide,
// written by scripts/vendor-assets.mjs) and on Pyodide as shipped (node_modules/pyodide), alternately.
// Prints per kind: the count (fuel units; exact, the same on any machine), the CPU seconds of the
// metered run (process.cpuUsage: the thread's own time, so other processes' load moves it little),
// units per CPU second, and the meter's slowdown. The calibrated rate (WORK_RULES[2].unitsPerSecond in
// src/sandbox-pyodide/work-rule.ts) is the median over kinds of units per second; the spread is
// max/min over kinds.
// With --policy N, also the committed policy's held-out samples (public/models/heldout-samples.jsonl,
// N of them evenly spread, those recorded under 3 s) on their own tasks: the meter's median slowdown
// on the programs it will serve.
// --merge a.json,b.json,...: no runs; each kind's seconds become the median over earlier runs' printed
// output (a shared machine's speed drifts over minutes: runs at different times, each with the
// machine otherwise idle, make a steadier reference).
// With --write, stores the set (programs, counts, seconds) in src/sandbox-pyodide/work-reference.json, which
// tests/sandbox/work-unit.test.ts checks the browser sandbox's counts against.
// Run: npm run build && npx tsx bench/work-reference.ts [--reps 3] [--write]
import { execSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { FUEL_EXPORT } from '../scripts/wasm-meter.mjs';
import { readPythonLibrary } from '../src/sandbox-pyodide/node-runner.ts';
import { WORK_RULES } from '../src/sandbox-pyodide/work-rule.ts';
import { programInputs } from '../src/tasks/task-builder.ts';
import type { TaskMeta } from '../src/tasks/task-types.ts';

const root = resolve(import.meta.dirname, '..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const REPS = Number(arg('--reps') ?? 3);
const POLICY = Number(arg('--policy') ?? 0);
const MERGE = arg('--merge')?.split(',');
const WRITE = process.argv.includes('--write');
const TASK = 'vega_cars';

const TOOLKIT_HEAD = `import toolkit as tk\ntask = tk.load_task()\npre = tk.Preprocessor(impute='median', scale='standard', encode='onehot')\nX, Xt = pre.fit_transform(task.train), pre.transform(task.test)\n`;

/** Kind -> program, each about half a second to a second of quiet work on the metered interpreter. */
export const REFERENCE_PROGRAMS: Record<string, string> = {
  'loop (integer arithmetic)': `x = 1\nfor i in range(1_500_000):\n    x = (x * 1103515245 + 12345) % 2**31\n`,
  'loop (pass)': `for i in range(8_000_000):\n    pass\n`,
  'big-int arithmetic': `x = 3 ** 200_000\ny = 7\nfor i in range(250):\n    y = (y * x) % (x - 12345)\n`,
  'function calls': `def f(a, b):\n    return a + b\ns = 0\nfor i in range(1_500_000):\n    s = f(s, i)\n`,
  'comprehensions': `s = 0\nfor k in range(25):\n    s += len([i * i for i in range(100_000) if i % 3])\n`,
  'sorted': `import random\nrandom.seed(1)\nxs = [random.random() for _ in range(200_000)]\nfor k in range(8):\n    ys = sorted(xs)\n`,
  'sum(range)': `s = 0\nfor k in range(12):\n    s += sum(range(1_000_000))\n`,
  'str.join': `parts = [str(i) for i in range(200_000)]\nfor k in range(60):\n    s = ','.join(parts)\n`,
  'string building (+=)': `s = ''\nfor i in range(300_000):\n    s += 'ab'\n`,
  'string methods': `for k in range(40):\n    s = 'abc' * 3_000_000\n    t = s.replace('b', 'x').upper()\n`,
  'dict and str()': `d = {}\nfor i in range(700_000):\n    d[str(i)] = i\nt = sum(d.values())\n`,
  'float math': `import math\ns = 0.0\nfor i in range(1_500_000):\n    s += math.sqrt(i) * math.sin(i)\n`,
  'toolkit: random forest': `${TOOLKIT_HEAD}m = tk.RandomForestRegressor(n_trees=60, max_depth=8, seed=0).fit(X, task.y)\np = m.predict(Xt)\n`,
  'toolkit: gradient boosting': `${TOOLKIT_HEAD}m = tk.GradientBoostingRegressor(n_estimators=200, learning_rate=0.1, max_depth=3, seed=0).fit(X, task.y)\np = m.predict(Xt)\n`,
  'toolkit: k nearest neighbours': `${TOOLKIT_HEAD}for k in range(1, 8):\n    p = tk.KNeighborsRegressor(k=k).fit(X, task.y).predict(Xt)\n`,
  'toolkit: ridge, cross-validated': `${TOOLKIT_HEAD}for a in (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0):\n    s = tk.cross_val_score(lambda: tk.Ridge(alpha=a), X, task.y, task, k=5)\n`,
};

const JOB = '/job';
const LIB = '/wmrl_lib';

interface Interp {
  py: PyodideAPI;
  fuel: WebAssembly.Global | null;
}

async function interpreter(indexURL: string): Promise<Interp> {
  let fuel: WebAssembly.Global | null = null;
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = (async (...args: Parameters<typeof WebAssembly.instantiate>) => {
    const r = (await instantiate(...args)) as unknown as { instance?: WebAssembly.Instance } & WebAssembly.Instance;
    const inst = r.instance ?? r;
    const g = inst.exports?.[FUEL_EXPORT];
    if (g instanceof WebAssembly.Global) fuel = g;
    return r;
  }) as typeof WebAssembly.instantiate;
  const py = await loadPyodide({ indexURL });
  WebAssembly.instantiate = instantiate;
  for (const [rel, text] of Object.entries(readPythonLibrary())) {
    const path = `${LIB}/${rel}`;
    py.FS.mkdirTree(path.slice(0, path.lastIndexOf('/')));
    py.FS.writeFile(path, text);
  }
  py.FS.mkdirTree(JOB);
  py.runPython(`import sys, os\nsys.path.insert(0, ${JSON.stringify(LIB)})\nsys.dont_write_bytecode = True\nos.chdir(${JSON.stringify(JOB)})\nimport toolkit, random, math`);
  const it = { py, fuel };
  onTask(it, TASK);
  return it;
}

/** Puts a task's input files in the job folder. */
function onTask(it: Interp, id: string): void {
  const dir = `${root}/dist/tasks/${id}`;
  const meta = JSON.parse(readFileSync(`${dir}/task.json`, 'utf8')) as TaskMeta;
  const files = programInputs({ meta, trainCsv: readFileSync(`${dir}/train.csv`, 'utf8'), testCsv: readFileSync(`${dir}/test.csv`, 'utf8') });
  for (const [name, text] of Object.entries(files)) it.py.FS.writeFile(`${JOB}/${name}`, text);
}

/** One run: CPU seconds of this thread, and the fuel used (0 on an unmetered interpreter). */
function runOnce(it: Interp, source: string): { cpu: number; units: number } {
  const start = 1n << 62n;
  if (it.fuel) it.fuel.value = start;
  const globals = it.py.toPy({});
  const c0 = process.cpuUsage();
  try {
    it.py.runPython(source, { globals });
  } catch {
    // a program that raises is timed all the same (the policy's samples include failures)
  }
  const c = process.cpuUsage(c0);
  globals.destroy();
  return { cpu: (c.user + c.system) / 1e6, units: it.fuel ? Number(start - (it.fuel.value as bigint)) : 0 };
}

const median = (xs: number[]): number => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

interface Row { kind: string; units: number; seconds: number; unitsPerSecond: number; slowdown: number }
interface Sample { taskId: string; program: string; seconds: number | null }
const rows: Row[] = [];
const policy: { taskId: string; seconds: number; slowdown: number; unitsPerSecond: number }[] = [];
let runs = 1;
let mergedFrom: { measured: string; machine: string; commit: string; dirty: boolean }[] | null = null;
if (MERGE) {
  const earlier = MERGE.map((f) => JSON.parse(readFileSync(f, 'utf8')) as { programs: Row[]; measured: string; machine: string; commit: string; dirty: boolean });
  runs = earlier.length;
  mergedFrom = earlier.map((e) => ({ measured: e.measured, machine: e.machine, commit: e.commit, dirty: e.dirty }));
  for (const kind of Object.keys(REFERENCE_PROGRAMS)) {
    const got = earlier.map((e) => e.programs.find((p) => p.kind === kind)).filter((p): p is Row => !!p);
    if (got.length !== earlier.length) throw new Error(`${kind}: missing from some of the merged runs`);
    const units = median(got.map((g) => g.units));
    const seconds = median(got.map((g) => g.seconds));
    rows.push({ kind, units, seconds, unitsPerSecond: units / seconds, slowdown: median(got.map((g) => g.slowdown)) });
  }
} else {
  const metered = await interpreter(`${root}/public/vendor/pyodide/`);
  if (!metered.fuel) throw new Error('public/vendor/pyodide/pyodide.asm.wasm is not metered: run `npm run build` first');
  const plain = await interpreter(`${root}/node_modules/pyodide/`);
  for (const [kind, source] of Object.entries(REFERENCE_PROGRAMS)) {
    const m: number[] = [];
    const p: number[] = [];
    const counts: number[] = [];
    for (let r = 0; r < REPS; r++) {
      const a = runOnce(metered, source);
      m.push(a.cpu);
      counts.push(a.units);
      p.push(runOnce(plain, source).cpu);
    }
    // The meter is exact on a fresh interpreter (the browser test's case); here one interpreter runs
    // every repetition, and what earlier runs left (caches, the collector's state) moves the count a little.
    const units = median(counts);
    if (Math.max(...counts) > 1.01 * Math.min(...counts)) throw new Error(`${kind}: counts differ by over 1% between repetitions: ${counts.join(', ')}`);
    const seconds = median(m);
    rows.push({ kind, units, seconds, unitsPerSecond: units / seconds, slowdown: seconds / median(p) });
    process.stderr.write(`${kind}: ${units} units, ${seconds.toFixed(3)} s, ${(units / seconds / 1e6).toFixed(1)} M/s, x${(seconds / median(p)).toFixed(2)}\n`);
  }
  // The policy's held-out samples: the meter's cost on the programs it serves (one run each way, alternating).
  if (POLICY > 0) {
    const all = readFileSync(`${root}/public/models/heldout-samples.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Sample);
    const usable = all.filter((x) => x.seconds !== null && x.seconds <= 3);
    const step = usable.length / POLICY;
    for (let i = 0; i < POLICY && Math.floor(i * step) < usable.length; i++) {
      const x = usable[Math.floor(i * step)];
      onTask(metered, x.taskId);
      onTask(plain, x.taskId);
      const a = runOnce(metered, x.program);
      const b = runOnce(plain, x.program);
      policy.push({ taskId: x.taskId, seconds: a.cpu, slowdown: a.cpu / b.cpu, unitsPerSecond: a.units / a.cpu });
      process.stderr.write(`\rpolicy samples ${policy.length}/${POLICY}`);
    }
    process.stderr.write('\n');
  }
}

const rates = rows.map((r) => r.unitsPerSecond);
const rate = median(rates);
let commit = 'unknown';
let dirty = true;
try {
  commit = execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim();
  dirty = execSync('git status --porcelain', { cwd: root }).toString().trim() !== '';
} catch {
  // not a git checkout
}
const summary = {
  format: 'wmrl-work-reference',
  version: 1,
  measured: new Date().toISOString(),
  commit,
  dirty,
  machine: `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load average at the end ${loadavg().map((x) => x.toFixed(2)).join(' ')}`,
  seconds: 'CPU seconds of the run (process.cpuUsage), median of the repetitions (and of the runs merged), metered interpreter',
  repetitions: REPS,
  runs,
  ...(mergedFrom ? { mergedFrom } : {}),
  task: TASK,
  medianUnitsPerSecond: Math.round(rate),
  calibratedUnitsPerSecond: WORK_RULES[2].unitsPerSecond,
  spread: Math.max(...rates) / Math.min(...rates),
  maxOverCalibrated: Math.max(...rates) / WORK_RULES[2].unitsPerSecond,
  minOverCalibrated: Math.min(...rates) / WORK_RULES[2].unitsPerSecond,
  medianSlowdown: median(rows.map((r) => r.slowdown)),
  ...(policy.length
    ? {
        policySamples: {
          n: policy.length,
          medianSlowdown: median(policy.map((p) => p.slowdown)),
          medianSlowdownOver02s: median(policy.filter((p) => p.seconds >= 0.2).map((p) => p.slowdown)),
          nOver02s: policy.filter((p) => p.seconds >= 0.2).length,
          medianUnitsPerSecondOver02s: Math.round(median(policy.filter((p) => p.seconds >= 0.2).map((p) => p.unitsPerSecond))),
        },
      }
    : {}),
  programs: rows.map((r) => ({ ...r, unitsPerSecond: Math.round(r.unitsPerSecond), seconds: +r.seconds.toFixed(4), slowdown: +r.slowdown.toFixed(3), source: REFERENCE_PROGRAMS[r.kind] })),
};
console.log(JSON.stringify({ ...summary, programs: summary.programs.map(({ source: _s, ...rest }) => rest) }, null, 2));
if (WRITE) {
  writeFileSync(`${root}/src/sandbox-pyodide/work-reference.json`, JSON.stringify(summary, null, 1) + '\n');
  console.error('wrote src/sandbox-pyodide/work-reference.json');
}
