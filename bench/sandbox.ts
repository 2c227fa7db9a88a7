// Sandbox benchmark, in headless Chromium on the built app. Compares, in the same run with rounds
// interleaved (a shared 2-core box is noisy: compare within one run):
//   fresh:  the pool as callers get it, a fresh worker per job (maxRunsPerWorker 1)
//   reuse:  the same build with one interpreter reused for 200 jobs (the isolation switched off)
//   uncounted: fresh, with the work counter switched off (countWork false: the benchmark only), so
//           the counter's cost shows against fresh, program by program
//   before: with --before <checkout>, another checkout's build as its callers got it (e.g. main
//           before this change: `git archive main | tar -x -C /tmp/main`, node_modules linked, built)
//   latency:    pool of 1, one job at a time, submit to result as the caller sees it
//   policy:     pool of 1, the committed policy's held-out samples (public/models/heldout-samples.jsonl,
//               an even spread of those that ran ok), one at a time: each program's exec seconds
//   throughput: pool of 2, all jobs submitted at once (trivial, cheap, toolkit population, expensive)
//   boot:       spawn to ready of each fresh worker (its CPU cost per job)
// Prints JSON. Run: npm run bench:sandbox (builds first), or npx tsx bench/sandbox.ts [--rounds N] [--before DIR].
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openSandbox, job, MEAN_PROGRAM, type SandboxSession } from '../tests/sandbox/harness.ts';
import { populationFor } from '../src/sandbox-pyodide/leaderboard-on-the-spot.ts';
import type { PoolOptions } from '../src/sandbox-pyodide/pool.ts';
import type { SandboxFiles, SandboxJob } from '../src/sandbox-pyodide/protocol.ts';
import { programInputs } from '../src/tasks/task-builder.ts';
import type { TaskMeta } from '../src/tasks/task-types.ts';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg('--rounds', 2);
// --counter-only: just the work counter's cost, counted and uncounted pools side by side (below).
const COUNTER_ONLY = process.argv.includes('--counter-only');
const BEFORE = process.argv.includes('--before') ? process.argv[process.argv.indexOf('--before') + 1] : null;

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : Number.NaN;
};
const summary = (xs: number[]) => ({ median: quantile(xs, 0.5), p95: quantile(xs, 0.95), n: xs.length });

const EXPENSIVE = 'acc = 0\nfor i in range(2_000_000):\n    acc += i * i % 7\nprint(acc)\n';

/** A real task's program inputs (vega_cars, 398 rows) and a spread of its reference programs. */
function toolkitJobs(n: number): SandboxJob[] {
  const dir = resolve(import.meta.dirname, '../dist/tasks/vega_cars');
  const meta = JSON.parse(readFileSync(`${dir}/task.json`, 'utf8')) as TaskMeta;
  const files: SandboxFiles = programInputs({ meta, trainCsv: readFileSync(`${dir}/train.csv`, 'utf8'), testCsv: readFileSync(`${dir}/test.csv`, 'utf8') });
  return populationFor(meta.type, meta.metric, n).map((p) => ({ source: p.source, files, timeoutMs: 120_000 }));
}

/** An even spread of the committed policy's held-out samples that ran ok, on their own tasks' inputs. */
function policyJobs(n: number): SandboxJob[] {
  const root = resolve(import.meta.dirname, '..');
  const samples = readFileSync(`${root}/public/models/heldout-samples.jsonl`, 'utf8').trim().split('\n')
    .map((l) => JSON.parse(l) as { taskId: string; program: string; status: string; seconds: number })
    .filter((x) => x.status === 'ok' && x.seconds < 5);
  return Array.from({ length: n }, (_, i) => samples[Math.floor((i * samples.length) / n)]).map((x) => {
    const dir = `${root}/dist/tasks/${x.taskId}`;
    const meta = JSON.parse(readFileSync(`${dir}/task.json`, 'utf8')) as TaskMeta;
    const files = programInputs({ meta, trainCsv: readFileSync(`${dir}/train.csv`, 'utf8'), testCsv: readFileSync(`${dir}/test.csv`, 'utf8') });
    return { source: x.program, files, timeoutMs: 120_000 };
  });
}

/** Runs the jobs one after another; each program's own exec seconds, as the worker measured them. */
function execSeconds(s: SandboxSession, jobs: SandboxJob[]): Promise<number[]> {
  return s.page.evaluate(async (js) => {
    const out: number[] = [];
    for (const j of js) {
      const r = await window.sandbox.run(j);
      if (r.status !== 'ok') throw new Error(`bench job failed: ${r.status} ${r.traceback ?? r.reason ?? ''}`);
      out.push(r.seconds);
    }
    return out;
  }, jobs);
}

/**
 * CPU seconds used so far by this process and everything it started (the browsers, their workers,
 * the preview servers run in this process), from /proc; NaN where there is none. Less sensitive to
 * a busy machine than wall time.
 */
function cpuSeconds(): number {
  try {
    const tick = 100; // USER_HZ on Linux
    const children = new Map<number, number[]>();
    const own = new Map<number, number>();
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const st = readFileSync(`/proc/${d}/stat`, 'utf8');
        const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
        const ppid = Number(f[1]);
        children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
        own.set(Number(d), (Number(f[11]) + Number(f[12])) / tick);
      } catch {
        // the process ended while we looked
      }
    }
    const sum = (pid: number): number => (own.get(pid) ?? 0) + (children.get(pid) ?? []).reduce((a, c) => a + sum(c), 0);
    return sum(process.pid);
  } catch {
    return Number.NaN;
  }
}

/** Runs the jobs one after another; each job's time from submit to result, ms. */
function sequential(s: SandboxSession, jobs: SandboxJob[]): Promise<number[]> {
  return s.page.evaluate(async (js) => {
    const out: number[] = [];
    for (const j of js) {
      const t0 = performance.now();
      const r = await window.sandbox.run(j);
      if (r.status !== 'ok') throw new Error(`bench job failed: ${r.status} ${r.traceback ?? r.reason ?? ''}`);
      out.push(performance.now() - t0);
    }
    return out;
  }, jobs);
}

/** Submits all jobs at once; jobs per second, and CPU seconds per job (spares included). */
async function throughput(s: SandboxSession, jobs: SandboxJob[]): Promise<{ perSecond: number; cpuPerJob: number }> {
  await s.page.evaluate(() => window.sandbox.whenAllReady());
  const c0 = cpuSeconds();
  const t0 = performance.now();
  const rs = await s.runMany(jobs);
  const wall = (performance.now() - t0) / 1000;
  const bad = rs.find((r) => r.status !== 'ok');
  if (bad) throw new Error(`bench job failed: ${bad.status} ${bad.traceback ?? bad.reason ?? ''}`);
  // The spares a burst used are started again after it: count that work too.
  await new Promise((r) => setTimeout(r, 3000));
  return { perSecond: jobs.length / wall, cpuPerJob: (cpuSeconds() - c0) / jobs.length };
}

const MODES: Record<string, { build: 'this' | 'before'; options: PoolOptions }> = {
  ...(BEFORE ? { before: { build: 'before' as const, options: {} } } : {}),
  reuse: { build: 'this', options: { maxRunsPerWorker: 200, spares: 1 } },
  fresh: { build: 'this', options: {} },
  uncounted: { build: 'this', options: { countWork: false } },
};
type Figures = { latencyMs: Record<string, number[]>; perSecond: Record<string, number[]>; cpuPerJob: Record<string, number[]>; bootMs: number[]; policySeconds: number[][] };
const figures: Record<string, Figures> = {};
for (const m of Object.keys(MODES)) figures[m] = { latencyMs: { cheap: [], toolkit: [] }, perSecond: { trivial: [], cheap: [], toolkit: [], expensive: [] }, cpuPerJob: { trivial: [], cheap: [], toolkit: [], expensive: [] }, bootMs: [], policySeconds: [] };
const POLICY = arg('--policy', 16);

/**
 * The work counter's cost, with load drift taken out: a counted and an uncounted pool (two pages of
 * this build) run the same program back to back, alternating which goes first, program by program;
 * then the same for throughput (12 toolkit programs and 6 expensive loops queued at once, pool of 2).
 */
async function counterCost(reps: number): Promise<unknown> {
  const counted = await openSandbox();
  const uncounted = await openSandbox();
  try {
    const policy = policyJobs(arg('--policy', 16));
    const ratios: number[] = [];
    const secs: { counted: number[]; uncounted: number[] } = { counted: [], uncounted: [] };
    for (const pair of [[counted, {}], [uncounted, { countWork: false }]] as const) await pair[0].start({ size: 1, bootTimeoutMs: 180_000, ...pair[1] });
    for (const j of policy) {
      const c: number[] = [];
      const u: number[] = [];
      for (let r = 0; r < reps; r++) {
        const order = r % 2 === 0 ? [counted, uncounted] : [uncounted, counted];
        for (const s of order) (s === counted ? c : u).push((await execSeconds(s, [j]))[0]);
      }
      const mc = quantile(c, 0.5);
      const mu = quantile(u, 0.5);
      secs.counted.push(mc);
      secs.uncounted.push(mu);
      ratios.push(mc / mu);
    }
    const perSecond: Record<string, { counted: number[]; uncounted: number[] }> = {};
    for (const pair of [[counted, {}], [uncounted, { countWork: false }]] as const) await pair[0].start({ size: 2, bootTimeoutMs: 180_000, ...pair[1] });
    const workloads: Record<string, SandboxJob[]> = { toolkit: toolkitJobs(12), expensive: Array.from({ length: 6 }, () => job(EXPENSIVE, 60_000)) };
    for (const [name, jobs] of Object.entries(workloads)) {
      perSecond[name] = { counted: [], uncounted: [] };
      for (let r = 0; r < reps; r++) {
        const order = r % 2 === 0 ? [counted, uncounted] : [uncounted, counted];
        for (const s of order) perSecond[name][s === counted ? 'counted' : 'uncounted'].push((await throughput(s, jobs)).perSecond);
      }
    }
    return {
      programs: policy.length,
      repsPerProgram: reps,
      execSecondsRatio: { median: quantile(ratios, 0.5), p10: quantile(ratios, 0.1), p90: quantile(ratios, 0.9) },
      totalRatio: secs.counted.reduce((a, b) => a + b, 0) / secs.uncounted.reduce((a, b) => a + b, 0),
      secondsTotal: { counted: secs.counted.reduce((a, b) => a + b, 0), uncounted: secs.uncounted.reduce((a, b) => a + b, 0) },
      jobsPerSecond: Object.fromEntries(Object.entries(perSecond).map(([k, v]) => [k, { counted: quantile(v.counted, 0.5), uncounted: quantile(v.uncounted, 0.5), all: v }])),
    };
  } finally {
    await counted.close();
    await uncounted.close();
  }
}
if (COUNTER_ONLY) {
  console.log(JSON.stringify({ machine: '2-core shared VM (other work running), headless Chromium', loadAverage: (await import('node:os')).loadavg(), workCounter: await counterCost(arg('--reps', 2)) }, null, 2));
  process.exit(0);
}

const sessions: Record<string, SandboxSession> = { this: await openSandbox() };
if (BEFORE) sessions.before = await openSandbox(BEFORE);
let startup: unknown = null;
try {
  const toolkit = toolkitJobs(12);
  const policy = policyJobs(POLICY);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [mode, { build, options }] of Object.entries(MODES)) {
      const s = sessions[build];
      const f = figures[mode];
      // Latency: one slot, one job at a time (its spare, if any, starts on the other core).
      const st1 = await s.start({ size: 1, bootTimeoutMs: 180_000, ...options });
      startup ??= { assetsMs: st1.assetsMs, snapshotMs: st1.snapshotMs, snapshotBytes: st1.snapshotBytes };
      await sequential(s, Array.from({ length: 3 }, () => job(MEAN_PROGRAM))); // warm-up
      f.latencyMs.cheap.push(...(await sequential(s, Array.from({ length: 30 }, () => job(MEAN_PROGRAM)))));
      f.latencyMs.toolkit.push(...(await sequential(s, toolkit.slice(0, 6))));
      if (build === 'this' && mode !== 'reuse') f.policySeconds.push(await execSeconds(s, policy));
      // Throughput: two slots, everything queued at once.
      await s.start({ size: 2, bootTimeoutMs: 180_000, ...options });
      const before = (await s.stats()).respawnMs.length;
      const workloads: Record<string, SandboxJob[]> = {
        trivial: Array.from({ length: 40 }, () => job('pass\n')),
        cheap: Array.from({ length: 40 }, () => job(MEAN_PROGRAM)),
        toolkit,
        expensive: Array.from({ length: 6 }, () => job(EXPENSIVE, 60_000)),
      };
      for (const [name, jobs] of Object.entries(workloads)) {
        const t = await throughput(s, jobs);
        f.perSecond[name].push(t.perSecond);
        f.cpuPerJob[name].push(t.cpuPerJob);
      }
      f.bootMs.push(...(await s.stats()).respawnMs.slice(before));
    }
  }
} finally {
  for (const s of Object.values(sessions)) await s.close();
}

const med = (xs: number[]) => quantile(xs, 0.5);
/** Per program: median exec seconds over the rounds of a mode. */
const perProgram = (rounds: number[][]) => (rounds[0] ?? []).map((_, i) => med(rounds.map((r) => r[i])));
const counted = perProgram(figures.fresh.policySeconds);
const uncounted = perProgram(figures.uncounted.policySeconds);
const ratios = counted.map((c, i) => c / uncounted[i]);
const out = {
  machine: '2-core shared box (another pipeline running), headless Chromium, no GPU',
  rounds: ROUNDS,
  startup,
  modes: Object.fromEntries(
    Object.entries(figures).map(([m, f]) => [
      m,
      {
        latencyMs: Object.fromEntries(Object.entries(f.latencyMs).map(([k, v]) => [k, summary(v)])),
        perSecond: Object.fromEntries(Object.entries(f.perSecond).map(([k, v]) => [k, { median: med(v), all: v }])),
        cpuSecondsPerJob: Object.fromEntries(Object.entries(f.cpuPerJob).map(([k, v]) => [k, { median: med(v), all: v }])),
        workerBootMs: summary(f.bootMs),
      },
    ]),
  ),
  // What the work counter costs on the committed policy's programs: counted over uncounted exec
  // seconds, program by program (medians over rounds), and in total.
  workCounter: {
    programs: counted.length,
    overheadRatio: { median: med(ratios), p10: quantile(ratios, 0.1), p90: quantile(ratios, 0.9) },
    totalRatio: counted.reduce((a, b) => a + b, 0) / uncounted.reduce((a, b) => a + b, 0),
    throughputRatio: Object.fromEntries(Object.keys(figures.fresh.perSecond).map((k) => [k, med(figures.uncounted.perSecond[k]) / med(figures.fresh.perSecond[k])])),
  },
  // What a fresh interpreter per job costs, as medians of the same run: against the same build
  // reusing interpreters, and (with --before) against the other checkout.
  isolation: Object.fromEntries((BEFORE ? ['reuse', 'before'] : ['reuse']).map((base) => [`vs_${base}`, {
    addedLatencyMs: Object.fromEntries(
      Object.keys(figures.fresh.latencyMs).map((k) => [k, {
        median: med(figures.fresh.latencyMs[k]) - med(figures[base].latencyMs[k]),
        p95: quantile(figures.fresh.latencyMs[k], 0.95) - quantile(figures[base].latencyMs[k], 0.95),
      }]),
    ),
    // > 1: the fresh pool runs fewer jobs per second.
    throughputRatio: Object.fromEntries(Object.keys(figures.fresh.perSecond).map((k) => [k, med(figures[base].perSecond[k]) / med(figures.fresh.perSecond[k])])),
    addedCpuSecondsPerJob: Object.fromEntries(Object.keys(figures.fresh.cpuPerJob).map((k) => [k, med(figures.fresh.cpuPerJob[k]) - med(figures[base].cpuPerJob[k])])),
  }])),
};
console.log(JSON.stringify(out, null, 2));
