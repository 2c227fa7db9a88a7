// Builds every task's reference leaderboard: runs the reference programs (the toolkit engineer's
// population, trusted code only) on each task's files in Pyodide under Node, grades them against
// the hidden labels, deduplicates identical prediction vectors, and writes
// public/tasks/<id>/leaderboard.json plus public/tasks/leaderboards.json (summary + provenance).
//
// USAGE below lists the flags.
// Each task's leaderboard is written as soon as its programs are done, so an interrupted build
// keeps the finished tasks.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { referencePrograms, type ReferenceProgram } from '../sandbox-pyodide/reference-programs.ts';
import { buildLeaderboard, type Leaderboard, type ReferenceRun } from '../tasks/leaderboard.ts';
import { programInputs } from '../tasks/task-builder.ts';
import { InputError, optionalPositiveInt, parseFlags } from './cli-input.ts';
import { toolkitHash } from './run-source.ts';
import type { TaskIndex } from '../tasks/task-index.ts';
import type { MetricName, TaskLabels, TaskMeta, TaskType } from '../tasks/task-types.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Job {
  taskId: string;
  programId: string;
  source: string;
}

interface JobResult {
  taskId: string;
  programId: string;
  status: 'ok' | 'error';
  predictionsCsv?: string;
  error?: string;
  seconds: number;
}

interface WorkerInit {
  tasksDir: string;
  timeoutMs: number;
}

const USAGE = `usage: npm run build:leaderboards -- [options]
  --tasks ID,ID        only these tasks (default: every task of the index)
  --tasks-dir DIR      the task suite (default public/tasks)
  --out DIR            where leaderboards are written (default: the tasks folder)
  --jobs N             Pyodide worker threads (default 1; npm run build:leaderboards passes 2)
  --timeout-ms N       a reference program's time limit (default 120000)
  --programs FILE      a JSON list of {id, family, source, types?} instead of the toolkit's
                       reference programs (a quick pipeline check)
  --help               this list`;

function sha256(parts: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\u0000');
  return h.digest('hex');
}

/** The reference population for a task type: from --programs, or the toolkit engineer's module. */
function loadPrograms(programsFile: string | undefined): (type: TaskType, metric: MetricName) => ReferenceProgram[] {
  if (programsFile) {
    const list = JSON.parse(readFileSync(programsFile, 'utf8')) as (ReferenceProgram & { types?: TaskType[] })[];
    return (type) => list.filter((p) => !p.types || p.types.includes(type));
  }
  return referencePrograms;
}

// ---------------------------------------------------------------------------- worker side
async function workerMain(init: WorkerInit): Promise<void> {
  const { TrustedPyodideRunner } = await import('../sandbox-pyodide/node-runner.ts');
  const runner = await TrustedPyodideRunner.create();
  const files = new Map<string, ReturnType<typeof programInputs>>();
  const port = parentPort;
  if (!port) throw new Error('worker without a parent port');
  port.on('message', async (job: Job | null) => {
    if (job === null) {
      port.close();
      return;
    }
    let inputs = files.get(job.taskId);
    if (!inputs) {
      const dir = join(init.tasksDir, job.taskId);
      const meta = JSON.parse(readFileSync(join(dir, 'task.json'), 'utf8')) as TaskMeta;
      inputs = programInputs({ meta, trainCsv: readFileSync(join(dir, 'train.csv'), 'utf8'), testCsv: readFileSync(join(dir, 'test.csv'), 'utf8') });
      files.clear(); // jobs arrive task by task; keep one task's files only
      files.set(job.taskId, inputs);
    }
    const t0 = performance.now();
    let result: JobResult;
    try {
      const r = await runner.run(job.source, inputs['train.csv'], inputs['test.csv'], inputs['task.json'], init.timeoutMs);
      const seconds = (performance.now() - t0) / 1000;
      if (r.status === 'ok' && r.predictionsCsv !== undefined) {
        result = { taskId: job.taskId, programId: job.programId, status: 'ok', predictionsCsv: r.predictionsCsv, seconds };
      } else {
        const why = r.timedOut ? `timed out after ${init.timeoutMs} ms` : r.status === 'ok' ? 'wrote no predictions.csv' : (r.traceback ?? r.stderr).trim().split('\n').slice(-3).join(' | ');
        result = { taskId: job.taskId, programId: job.programId, status: 'error', error: why, seconds };
      }
    } catch (e) {
      result = { taskId: job.taskId, programId: job.programId, status: 'error', error: `runner: ${String(e)}`, seconds: (performance.now() - t0) / 1000 };
    }
    port.postMessage(result);
  });
  port.postMessage('ready');
}

// ---------------------------------------------------------------------------- main side
interface Summary {
  version: 1;
  toolkitHash: string;
  runner: string;
  jobs: number;
  timeoutMs: number;
  tasks: Record<string, { entries: number; programs: number; failed: number; seconds: number; busySeconds: number; builtAt: string }>;
}

async function main(): Promise<void> {
  const { values } = parseFlags({
    options: {
      tasks: { type: 'string' }, 'tasks-dir': { type: 'string' }, out: { type: 'string' }, jobs: { type: 'string' },
      'timeout-ms': { type: 'string' }, programs: { type: 'string' }, help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const tasksDir = resolve(values['tasks-dir'] ?? join(repoRoot, 'public', 'tasks'));
  const outDir = resolve(values.out ?? tasksDir);
  const jobs = optionalPositiveInt(values.jobs, '--jobs') ?? 1;
  const timeoutMs = optionalPositiveInt(values['timeout-ms'], '--timeout-ms') ?? 120_000;
  const only = values.tasks?.split(',').filter(Boolean);
  const programsFor = loadPrograms(values.programs);
  const index = JSON.parse(readFileSync(join(tasksDir, 'index.json'), 'utf8')) as TaskIndex;
  const tasks = index.tasks.filter((t) => !only || only.includes(t.id));
  if (only) for (const id of only) if (!tasks.some((t) => t.id === id)) throw new InputError(`unknown task ${id}`);
  const hash = await toolkitHash();

  const queue: Job[] = [];
  const pending = new Map<string, { meta: TaskMeta; labels: TaskLabels; programIds: string[]; runs: Map<string, ReferenceRun>; seconds: Map<string, number>; start: number }>();
  for (const t of tasks) {
    const dir = join(tasksDir, t.id);
    const meta = JSON.parse(readFileSync(join(dir, 'task.json'), 'utf8')) as TaskMeta;
    const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as TaskLabels;
    const programs = programsFor(meta.type, meta.metric);
    pending.set(t.id, { meta, labels, programIds: programs.map((p) => p.id), runs: new Map(), seconds: new Map(), start: 0 });
    for (const p of programs) queue.push({ taskId: t.id, programId: p.id, source: p.source });
  }
  const total = queue.length;
  console.log(`${tasks.length} tasks, ${total} program runs, ${jobs} worker(s), toolkit ${hash.slice(0, 12)}`);

  const summaryPath = join(outDir, 'leaderboards.json');
  const summary: Summary = existsSync(summaryPath)
    ? (JSON.parse(readFileSync(summaryPath, 'utf8')) as Summary)
    : { version: 1, toolkitHash: hash, runner: 'pyodide-node', jobs, timeoutMs, tasks: {} };
  Object.assign(summary, { toolkitHash: hash, jobs, timeoutMs });

  const t0 = performance.now();
  let done = 0;
  const finishTask = (taskId: string): void => {
    const p = pending.get(taskId);
    if (!p) return;
    const runs = p.programIds.map((id) => p.runs.get(id)).filter((r): r is ReferenceRun => r !== undefined);
    const seconds = (performance.now() - p.start) / 1000;
    const files = ['train.csv', 'test.csv', 'labels.json'].map((f) => readFileSync(join(tasksDir, taskId, f), 'utf8'));
    const lb: Leaderboard = buildLeaderboard(p.meta, p.labels, runs, {
      toolkitHash: hash,
      programIds: p.programIds,
      seconds: Math.round(seconds * 10) / 10,
      programSeconds: p.programIds.map((id) => Math.round((p.seconds.get(id) ?? 0) * 1000) / 1000),
      runner: 'pyodide-node (src/sandbox-pyodide/node-runner.ts)',
      builtAt: new Date().toISOString(),
      jobs,
      taskHash: sha256(files),
    });
    mkdirSync(join(outDir, taskId), { recursive: true });
    writeFileSync(join(outDir, taskId, 'leaderboard.json'), JSON.stringify(lb, null, 1) + '\n');
    const busySeconds = Math.round([...p.seconds.values()].reduce((a, b) => a + b, 0) * 10) / 10;
    summary.tasks[taskId] = { entries: lb.entries.length, programs: p.programIds.length, failed: lb.failed.length, seconds: lb.provenance.seconds, busySeconds, builtAt: lb.provenance.builtAt };
    writeFileSync(summaryPath, JSON.stringify(summary, null, 2) + '\n');
    console.log(`${taskId}: ${lb.entries.length} distinct entries from ${p.programIds.length} programs, ${lb.failed.length} failed, ${seconds.toFixed(1)} s`);
    for (const f of lb.failed.slice(0, 3)) console.log(`  failed ${f.programId}: ${f.message.slice(0, 200)}`);
    pending.delete(taskId);
  };
  for (const [id, p] of pending) if (p.programIds.length === 0) finishTask(id);

  await new Promise<void>((resolveAll, rejectAll) => {
    let live = 0;
    const started = new Set<string>();
    const startWorker = (): void => {
      // tsx's loader does not reach worker threads: the worker registers it, then imports this file.
      const boot = `(async () => { const { register } = await import('tsx/esm/api'); register(); await import(${JSON.stringify(import.meta.url)}); })().catch((e) => { console.error(e); process.exit(1); });`;
      const w = new Worker(boot, { eval: true, workerData: { tasksDir, timeoutMs } satisfies WorkerInit });
      live++;
      const feed = (): void => {
        const job = queue.shift();
        if (!job) {
          w.postMessage(null);
          return;
        }
        const p = pending.get(job.taskId);
        if (p && !started.has(job.taskId)) {
          started.add(job.taskId);
          p.start = performance.now();
        }
        w.postMessage(job);
      };
      w.on('message', (msg: JobResult | 'ready') => {
        if (msg !== 'ready') {
          const p = pending.get(msg.taskId);
          if (p) {
            p.runs.set(msg.programId, msg.status === 'ok' && msg.predictionsCsv !== undefined ? { programId: msg.programId, predictionsCsv: msg.predictionsCsv } : { programId: msg.programId, error: msg.error ?? 'failed' });
            p.seconds.set(msg.programId, msg.seconds);
            done++;
            if (done % 10 === 0 || done === total) console.log(`  ${done}/${total} runs, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
            if (p.runs.size === p.programIds.length) finishTask(msg.taskId);
          }
        }
        feed();
      });
      w.on('error', rejectAll);
      w.on('exit', () => {
        live--;
        if (live === 0) {
          if (pending.size > 0) rejectAll(new Error(`workers exited with ${pending.size} task(s) unfinished`));
          else resolveAll();
        }
      });
    };
    for (let i = 0; i < Math.min(jobs, Math.max(1, total)); i++) startWorker();
  });
  console.log(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

if (isMainThread) {
  main().catch((e: unknown) => {
    if (e instanceof InputError) {
      console.error(`build-leaderboards: ${e.message}`);
      process.exit(2);
    }
    console.error(e);
    process.exit(1);
  });
} else {
  workerMain(workerData as WorkerInit).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
