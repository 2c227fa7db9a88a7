// `npm run score`: run one program in the real browser sandbox (headless Chromium on 127.0.0.1,
// serving the built app) and grade it here, in Node, where the hidden labels stay.
//   npm run score -- --task <id> --program <file.py> [--json] [--timeout <s>]
//   npm run score -- --csv <file.csv> --target <column> --metric <metric> --program <file.py>
//                    [--type regression|binary|multiclass] [--positive <class>]
//                    [--population <n>] [--workers <n>] [--no-leaderboard]
//                    [--save-leaderboard <file.json>] [--leaderboard <file.json>] [--json]
//   npm run score -- --list
// For --csv the task's leaderboard is built on the spot: the reference population runs in the same
// browser pool (the Playground's code path), and Node grades and deduplicates it.
// Untrusted programs never run in Node: Pyodide there can reach the host.
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { TaskRegistry } from '../tasks/task-registry.ts';
import { nodeFileLoader } from '../tasks/node-file-loader.ts';
import type { GraderTask } from '../tasks/grader.ts';
import { scorePredictions, type Leaderboard } from '../tasks/leaderboard.ts';
import { createCustomTask } from '../tasks/byo-data.ts';
import { programInputs } from '../tasks/task-builder.ts';
import { TaskDataError } from '../tasks/task-errors.ts';
import type { BuiltTask, TaskMeta } from '../tasks/task-types.ts';
import type { SandboxFiles, SandboxResult } from '../sandbox-pyodide/protocol.ts';
import { gradeRun } from '../sandbox-pyodide/run-grade.ts';
import { leaderboardOnTheSpot, type PopulationProgress, type PopulationRun } from '../sandbox-pyodide/leaderboard-on-the-spot.ts';
import type { PopulationRequest } from '../sandbox-pyodide/headless-page.ts';

import { ensureFreshDist, launchChromium, serveDist, type ServedDist } from './browser-session.ts';
import { InputError, parseFlags, readCsvInput, readInput } from './cli-input.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');


const USAGE =
  'usage: npm run score -- --task <id> --program <file.py> [--json] [--timeout <s>]\n' +
  '       npm run score -- --csv <file.csv> --target <column> --metric <metric> --program <file.py>\n' +
  '                        [--type <t>] [--positive <class>] [--population <n>] [--workers <n>]\n' +
  '                        [--no-leaderboard] [--save-leaderboard <file>] [--leaderboard <file>] [--json]\n' +
  '       npm run score -- --list';

function positiveInt(value: string | undefined, flag: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new InputError(`${flag} must be an integer from 1 to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

/** The built app in headless Chromium, on the sandbox harness page, with a started pool. */
interface SandboxPage {
  run(files: SandboxFiles, source: string, timeoutMs: number): Promise<SandboxResult>;
  runPopulation(request: PopulationRequest, onProgress: (p: PopulationProgress) => void): Promise<PopulationRun>;
  close(): Promise<void>;
}

async function openSandboxPage(workers: number): Promise<SandboxPage> {
  ensureFreshDist();
  let server: ServedDist | null = null;
  let browser: Browser | null = null;
  const close = async (): Promise<void> => {
    await browser?.close();
    await server?.close();
  };
  try {
    server = await serveDist();
    browser = await launchChromium({ webgpu: false });
    const page = await browser.newPage();
    let listener: (p: PopulationProgress) => void = () => {};
    await page.exposeFunction('sandboxProgress', (p: PopulationProgress) => listener(p));
    await page.goto(`${server.url}sandbox.html`);
    await page.waitForSelector('#status[data-state=loaded]');
    await page.evaluate((size) => window.sandbox.start({ size }), workers);
    return {
      run: (files, source, timeoutMs) => page.evaluate((job) => window.sandbox.run(job), { source, files, timeoutMs }),
      async runPopulation(request, onProgress) {
        listener = onProgress;
        return page.evaluate((req) => window.sandbox.runPopulation(req), request);
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Progress on stderr (stdout stays clean for --json): one rewritten line on a terminal, else about ten lines. */
function progressPrinter(): (p: PopulationProgress) => void {
  const tty = process.stderr.isTTY;
  return (p) => {
    const line = `reference population: ${p.done}/${p.total} programs run, ${p.failed} failed, ${p.seconds.toFixed(1)} s`;
    if (tty) process.stderr.write(`\r${line}${p.done === p.total ? '\n' : ''}`);
    else if (p.done === p.total || p.done % Math.max(1, Math.round(p.total / 10)) === 0) process.stderr.write(`${line}\n`);
  };
}

function loadSavedLeaderboard(path: string, meta: TaskMeta): Leaderboard {
  let lb: Leaderboard;
  try {
    lb = JSON.parse(readInput(path, 'leaderboard file')) as Leaderboard;
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`leaderboard file is not JSON: ${path}`);
  }
  if (lb.version !== 1 || !Array.isArray(lb.entries)) throw new InputError(`not a leaderboard file: ${path}`);
  if (lb.taskId !== meta.id) throw new InputError(`leaderboard ${path} is for task ${lb.taskId}, not ${meta.id} (the CSV, target, metric or type differ)`);
  return lb;
}

interface LeaderboardSummary {
  source: 'suite' | 'built on the spot' | 'file';
  entries: number;
  programs: number;
  failed: number;
  /** Wall-clock seconds the population took (on the spot: this run). */
  seconds: number;
  jobs?: number;
}

function summarise(lb: Leaderboard, source: LeaderboardSummary['source']): LeaderboardSummary {
  return { source, entries: lb.entries.length, programs: lb.provenance.programIds.length, failed: lb.failed.length, seconds: lb.provenance.seconds, jobs: lb.provenance.jobs };
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseFlags({
      options: {
        task: { type: 'string' },
        program: { type: 'string' },
        csv: { type: 'string' },
        target: { type: 'string' },
        metric: { type: 'string' },
        type: { type: 'string' },
        positive: { type: 'string' },
        population: { type: 'string' },
        workers: { type: 'string' },
        'no-leaderboard': { type: 'boolean', default: false },
        'save-leaderboard': { type: 'string' },
        leaderboard: { type: 'string' },
        timeout: { type: 'string', default: '120' },
        json: { type: 'boolean', default: false },
        list: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (e) {
    throw new InputError(`${(e as Error).message} (see --help)`);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const registry = new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks')));
  if (values.list) {
    const tasks = await registry.list({ includeSmoke: true });
    if (values.json) console.log(JSON.stringify(tasks, null, 2));
    else for (const t of tasks) console.log(`${t.id.padEnd(28)} ${t.split.padEnd(8)} ${t.role.padEnd(7)} ${t.type.padEnd(11)} ${t.metric}`);
    return;
  }
  if (values.task && values.csv) throw new InputError('give either --task or --csv, not both');
  if (!values.task && !values.csv) throw new InputError('give --task <id> or --csv <file> (see --help)');
  if (!values.program) throw new InputError('--program <file.py> is required');
  if (values.csv && (!values.target || !values.metric)) throw new InputError('--csv needs --target <column> and --metric <metric>');
  const byo = values.csv !== undefined;
  const wantLeaderboard = !values['no-leaderboard'];
  if (!byo && (values['save-leaderboard'] || values.leaderboard || values.population || values.type || values.positive)) {
    throw new InputError('--type, --positive, --population, --leaderboard and --save-leaderboard apply to --csv only');
  }
  if (!wantLeaderboard && (values['save-leaderboard'] || values.leaderboard)) throw new InputError('--no-leaderboard cannot be combined with --save-leaderboard or --leaderboard');
  const timeoutS = Number(values.timeout);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0) throw new InputError(`--timeout must be a positive number of seconds, got ${JSON.stringify(values.timeout)}`);
  const population = positiveInt(values.population, '--population');
  // One program needs one worker; a population gets one per core (the page's main thread mostly waits).
  const workers = positiveInt(values.workers, '--workers', 8) ?? (byo && wantLeaderboard && !values.leaderboard ? Math.min(8, Math.max(1, availableParallelism())) : 1);
  const source = readInput(values.program, 'program file');
  const timeoutMs = timeoutS * 1000;

  // Everything the user gave is checked before the browser starts.
  let files: SandboxFiles;
  let meta: TaskMeta;
  let built: BuiltTask | null = null;
  let grader: GraderTask | null = null;
  let savedLeaderboard: Leaderboard | null = null;
  if (byo) {
    // Strict UTF-8: a Latin-1 CSV decoded leniently would become a task with U+FFFD in its values.
    const csv = readCsvInput(values.csv as string);
    built = createCustomTask({ csv, target: values.target as string, metric: values.metric as string, type: values.type, positive: values.positive });
    meta = built.meta;
    files = programInputs(built);
    if (values.leaderboard) savedLeaderboard = loadSavedLeaderboard(values.leaderboard, meta);
  } else {
    const id = values.task as string;
    const task = await registry.loadTask(id);
    meta = task.meta;
    files = programInputs(task);
    try {
      grader = await registry.loadGraderTask(id);
    } catch (e) {
      if (!(e instanceof TaskDataError)) throw e;
      throw new InputError(`task ${id} has no reference leaderboard yet (${e.message}); build it with src/cli/build-leaderboards.ts --tasks ${id}`);
    }
  }
  const taskId = meta.id;

  const sandbox = await openSandboxPage(workers);
  let result: SandboxResult;
  let leaderboard: Leaderboard | null = grader ? (grader.leaderboard as Leaderboard) : savedLeaderboard;
  let lbSource: LeaderboardSummary['source'] | null = grader ? 'suite' : savedLeaderboard ? 'file' : null;
  try {
    result = await sandbox.run(files, source, timeoutMs);
    // A failed program, or one whose predictions do not grade, scores 0 whatever the leaderboard:
    // do not spend minutes building one.
    const gradable = built !== null && result.status === 'ok' && result.predictionsCsv !== undefined && scorePredictions(meta, built.labels, result.predictionsCsv).ok;
    if (built && wantLeaderboard && !leaderboard && gradable) {
      const run = await sandbox.runPopulation({ files, type: meta.type, metric: meta.metric, size: population, timeoutMs: Math.max(timeoutMs, 120_000) }, progressPrinter());
      leaderboard = leaderboardOnTheSpot(built, run, `browser sandbox pool (score CLI, ${run.jobs} worker(s))`);
      lbSource = 'built on the spot';
    }
  } finally {
    await sandbox.close();
  }
  if (leaderboard && values['save-leaderboard']) writeFileSync(values['save-leaderboard'], JSON.stringify(leaderboard, null, 1) + '\n');
  if (leaderboard && leaderboard.entries.length === 0) {
    throw new Error(`every reference program failed on this task, so it has no leaderboard (first failure: ${leaderboard.failed[0]?.message ?? 'none'})`);
  }

  const labels = built ? built.labels : (grader as GraderTask).labels;
  const g = gradeRun(result, { meta, labels, leaderboard });
  const error = g.status === 'ok' ? undefined : g.message;
  const out = {
    task: taskId,
    type: meta.type,
    status: result.status,
    metric: meta.metric,
    direction: meta.direction,
    value: g.status === 'ok' ? g.value : undefined,
    // A program that fails or writes invalid predictions scores 0 (trueScore); with no leaderboard there is no percentile.
    percentile: g.status === 'ok' ? (g.percentile ?? undefined) : leaderboard || wantLeaderboard ? 0 : undefined,
    medal: g.status === 'ok' ? g.medal : null,
    seconds: result.seconds,
    // Work units the program used and the budget it ran under (docs/sandbox.md, "The work budget").
    work: result.work,
    workBudget: result.workBudget,
    workRule: result.workRule,
    leaderboard: leaderboard && lbSource ? summarise(leaderboard, lbSource) : undefined,
    error,
    stdout: result.stdout,
    stderr: result.stderr,
  };
  if (values.json) {
    console.log(JSON.stringify(out, null, 2));
  } else {
    console.log(`task        ${out.task} (${meta.type}, ${meta.metric}, ${meta.direction} is better)`);
    console.log(`status      ${out.status}${out.status === 'ok' && out.error ? ' (predictions not graded)' : ''}`);
    if (out.value !== undefined) console.log(`metric      ${out.metric} = ${out.value}`);
    console.log(`percentile  ${out.percentile ?? (wantLeaderboard ? 'n/a' : 'n/a (--no-leaderboard)')}`);
    console.log(`medal       ${out.medal ?? 'none'}`);
    console.log(`run time    ${out.seconds.toFixed(3)} s`);
    const lb = out.leaderboard;
    if (lb) {
      console.log(
        `leaderboard ${lb.entries} distinct entries from ${lb.programs} reference programs (${lb.failed} failed), ${lb.source}` +
          (lb.source === 'built on the spot' ? `: population run time ${lb.seconds.toFixed(1)} s on ${lb.jobs} worker(s)` : ''),
      );
    }
    if (values['save-leaderboard'] && leaderboard) console.log(`saved       ${values['save-leaderboard']}`);
    if (out.stdout.trim()) console.log(`stdout\n${out.stdout.trimEnd()}`);
    if (out.error) console.log(`error\n${out.error}`);
  }
  process.exitCode = out.error ? 1 : 0;
}

main().catch((e: unknown) => {
  const input = e instanceof InputError || e instanceof TaskDataError;
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(input ? 2 : 1);
});
