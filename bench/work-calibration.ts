// Calibrated rule 1's work unit (src/sandbox-pyodide/work-rule.ts; rule 2's is bench/work-reference.ts)
// against the wall clock. Runs the committed policy's held-out
// samples (public/models/heldout-samples.jsonl: an even spread plus every sample that took over 5 s
// when it was recorded) and a spread of reference programs on three tasks in the browser sandbox,
// with a work budget too large to matter, and prints each program's work units (the same on any
// machine) and seconds. Two rates per program: against the seconds recorded with the sample (the
// wall-clock budget as the project applied it: the policy's samples are what the budget judged),
// and against the seconds of this run (whatever the load is now). WORK_RULES[1].unitsPerSecond
// (src/sandbox-pyodide/work-rule.ts) is the median recorded rate; the spread says how far a
// program's wall time under the work budget can stray from the budget's calibrated seconds.
// Run: npx vite build && npx tsx bench/work-calibration.ts [--per-task N] [--out file.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openSandbox } from '../tests/sandbox/harness.ts';
import { populationFor } from '../src/sandbox-pyodide/leaderboard-on-the-spot.ts';
import type { SandboxFiles, SandboxJob } from '../src/sandbox-pyodide/protocol.ts';
import { programInputs } from '../src/tasks/task-builder.ts';
import type { TaskMeta } from '../src/tasks/task-types.ts';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const PER_TASK = Number(arg('--per-task') ?? 6);
const OUT = arg('--out');
const root = resolve(import.meta.dirname, '..');

const filesCache = new Map<string, { files: SandboxFiles; meta: TaskMeta }>();
function task(id: string): { files: SandboxFiles; meta: TaskMeta } {
  let t = filesCache.get(id);
  if (!t) {
    const dir = `${root}/dist/tasks/${id}`;
    const meta = JSON.parse(readFileSync(`${dir}/task.json`, 'utf8')) as TaskMeta;
    t = { meta, files: programInputs({ meta, trainCsv: readFileSync(`${dir}/train.csv`, 'utf8'), testCsv: readFileSync(`${dir}/test.csv`, 'utf8') }) };
    filesCache.set(id, t);
  }
  return t;
}

interface Sample { taskId: string; program: string; seconds: number | null }
const samples = readFileSync(`${root}/public/models/heldout-samples.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Sample);
const byTask = new Map<string, Sample[]>();
for (const s of samples) byTask.set(s.taskId, [...(byTask.get(s.taskId) ?? []), s]);
const picked: { kind: string; taskId: string; source: string; recorded: number | null }[] = [];
for (const [id, list] of byTask) {
  const step = list.length / PER_TASK;
  list.forEach((s, i) => {
    if (Math.floor(i / step) !== Math.floor((i - 1) / step) || (s.seconds ?? 0) > 5) picked.push({ kind: 'policy', taskId: id, source: s.program, recorded: s.seconds });
  });
}
for (const id of ['vega_cars', 'carData_Wells', 'AER_HMDA']) {
  const { meta } = task(id);
  for (const p of populationFor(meta.type, meta.metric, 8)) picked.push({ kind: `reference:${p.id}`, taskId: id, source: p.source, recorded: null });
}

const BIG = 1e12;
const s = await openSandbox();
const rows: { kind: string; taskId: string; status: string; work: number; seconds: number; rate: number; recorded: number | null; recordedRate: number | null }[] = [];
try {
  await s.start({ size: 2 });
  const jobs: SandboxJob[] = picked.map((p) => ({ source: p.source, files: task(p.taskId).files, timeoutMs: 20_000, workBudget: BIG, backstopMs: 300_000 }));
  let done = 0;
  const results = await Promise.all(jobs.map((j) => s.run(j).then((r) => (process.stderr.write(`\r${++done}/${jobs.length}`), r))));
  results.forEach((r, i) => {
    const recorded = picked[i].recorded;
    rows.push({ kind: picked[i].kind, taskId: picked[i].taskId, status: r.status, work: r.work, seconds: r.seconds, rate: r.work / r.seconds, recorded, recordedRate: recorded && recorded >= 0.2 ? r.work / recorded : null });
  });
} finally {
  await s.close();
}
const q = (xs: number[], p: number) => {
  const v = [...xs].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.floor(p * v.length))];
};
// Rates from programs that ran long enough for the clock to mean something.
const timed = rows.filter((r) => r.seconds >= 0.2 && r.work > 0);
const rates = timed.map((r) => r.rate);
const spread = (xs: number[]) => ({ n: xs.length, min: Math.min(...xs), p10: q(xs, 0.1), median: q(xs, 0.5), p90: q(xs, 0.9), max: Math.max(...xs) });
const recordedRates = rows.flatMap((r) => (r.recordedRate !== null && r.status === 'ok' ? [r.recordedRate] : []));
const summary = {
  machine: '2-core shared VM (other work running), headless Chromium, pool of 2',
  loadAverage: (await import('node:os')).loadavg(),
  programs: rows.length,
  unitsPerRecordedSecond: spread(recordedRates),
  unitsPerSecondNow: spread(rates),
  weightedUnitsPerSecondNow: timed.reduce((a, r) => a + r.work, 0) / timed.reduce((a, r) => a + r.seconds, 0),
  slowest: [...rows].sort((a, b) => b.seconds - a.seconds).slice(0, 8),
};
console.log(JSON.stringify(summary, null, 2));
if (OUT) writeFileSync(OUT, JSON.stringify({ summary, rows }, null, 1));
