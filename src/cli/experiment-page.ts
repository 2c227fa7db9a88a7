// One run of the coding experiment on the experiment page (src/app/experiment-entry.ts), driven from
// Node: a fresh page in the runner's Chromium, progress lines printed as the page reports them, the
// run so far kept after every step beside the run file (experiment-unfinished-run.ts) and handed back
// to the page to go on from, the host's load sampled, and the provenance added (the segments of a run
// that went on). A page that crashes or runs past its time gives a failed run, recorded from here.
import { cpus, loadavg } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import type { RunProvenance, RunSegment, RunSource } from '../experiments/provenance.ts';
import type { HostLoad, RunProgress, RunRequest, RunResult, SaveTiming } from '../experiments/run-result.ts';
import { formatDuration } from '../experiments/time-left.ts';
import { medianOf } from '../primitives/median.ts';
import { UNFINISHED_EXPERIMENT_FORMAT, writeUnfinishedExperimentRun, type UnfinishedExperimentRun } from './experiment-unfinished-run.ts';

export interface PlannedRun {
  request: RunRequest;
  file: string;
  failedFile: string;
  /** A 'train' run's run so far while it trains (experiment-unfinished-run.ts). */
  unfinishedFile: string;
}

function progressLine(label: string, p: RunProgress): string | null {
  const s = (ms: number | undefined) => `${((ms ?? 0) / 1000).toFixed(1)} s`;
  switch (p.phase) {
    case 'startup':
      return `${label}: starting workers and pool`;
    case 'ready':
      return `${label}: ready (${p.note ?? ''})`;
    case 'eval-before':
      return `${label}: evaluating the starting policy`;
    case 'saved':
      return null; // summed up at the run's end (savesLine)
    case 'step':
      return `${label}: step ${(p.step ?? 0) + 1}/${p.steps ?? '?'} mean reward ${(p.meanReward ?? 0).toFixed(3)}, ${p.executions ?? 0} executions, step wall ${s(p.stepWallMs)}, busy so far ${s(p.busyMs)}${p.steps !== undefined && p.stepWallMs !== undefined ? `, training ~${formatDuration((p.steps - (p.step ?? 0) - 1) * p.stepWallMs)} left` : ''}`;
    case 'eval-during':
      return p.avgAtK === undefined ? `${label}: evaluating after step ${(p.step ?? 0) + 1}` : `${label}: after step ${(p.step ?? 0) + 1}, held-out avg@k x100 = ${(p.avgAtK * 100).toFixed(2)}`;
    case 'eval-after':
      return `${label}: evaluating after training`;
    case 'done':
      return `${label}: held-out avg@k x100 = ${((p.avgAtK ?? 0) * 100).toFixed(2)}`;
  }
}

/** One save as the runner saw it: the page's timing, and the file write inside its hand-over. */
export interface Save extends SaveTiming {
  fileMs: number;
}

/** What keeping the run so far cost a run, printed at its end: where the time of a save goes, and its size. */
export function savesLine(label: string, saves: readonly Save[]): string | null {
  if (saves.length === 0) return null;
  const total = saves.map((x) => x.checkpointMs + x.textMs + x.handOverMs);
  const s = (ms: number) => (ms / 1000).toFixed(2);
  const med = (f: (x: Save) => number) => s(medianOf(saves.map(f)));
  const all = total.reduce((a, b) => a + b, 0);
  return `${label}: kept the run so far ${saves.length} time(s), median ${s(medianOf(total))} s a save (checkpoint ${med((x) => x.checkpointMs)}, text ${med((x) => x.textMs)}, handing over ${med((x) => x.handOverMs)} of which the file ${med((x) => x.fileMs)}), max ${s(Math.max(...total))} s, ${(all / 1000).toFixed(1)} s in all; ${(medianOf(saves.map((x) => x.chars)) / 1e6).toFixed(1)} MB each`;
}

/** Samples the host's 1-minute load average while a run goes on (HostLoad). */
function watchLoad(): () => HostLoad {
  const samples: number[] = [loadavg()[0]];
  const timer = setInterval(() => samples.push(loadavg()[0]), 15_000);
  return () => {
    clearInterval(timer);
    samples.push(loadavg()[0]);
    return { cpus: cpus().length, samples: samples.length, meanLoad1: samples.reduce((a, b) => a + b, 0) / samples.length, maxLoad1: Math.max(...samples) };
  };
}

/** Where a 'train' run keeps its run so far, and what it goes on from (src/cli/experiment-unfinished-run.ts). */
export interface Keeping {
  path: string;
  codeSha256: string;
  /** The saved run it goes on from; null: from the start. */
  before: UnfinishedExperimentRun | null;
  machine: string;
}

export async function runOne(browser: Browser, url: string, planned: PlannedRun, label: string, timeoutMs: number, source: RunSource, keeping: Keeping | null): Promise<RunResult> {
  const stopWatch = watchLoad();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const segment = (toStep: number, endedAt: string): RunSegment => ({
    commit: source.commit, dirty: source.dirty, startedAt, endedAt, fromStep: keeping?.before?.step ?? 0, toStep, wallMs: performance.now() - t0, machine: keeping?.machine ?? '',
  });
  let savedStep = keeping?.before?.step ?? 0;
  const save = keeping && ((runSoFar: string, step: number) => {
    savedStep = step;
    writeUnfinishedExperimentRun(keeping.path, {
      format: UNFINISHED_EXPERIMENT_FORMAT, version: 1, request: planned.request, codeSha256: keeping.codeSha256,
      segments: [...(keeping.before?.segments ?? []), segment(step, new Date().toISOString())], step, runSoFar,
    });
  });
  const result = await runOnPage(browser, url, planned, label, timeoutMs, keeping?.before?.runSoFar ?? null, save);
  const finishedAt = new Date().toISOString();
  // A resumed run's provenance lists its invocations (the page already summed their times); a failed
  // one's last segment ends at its last save, from which the next invocation goes on.
  const segments = keeping?.before ? [...keeping.before.segments, segment(result.status === 'ok' ? planned.request.config.steps : savedStep, finishedAt)] : null;
  const provenance: RunProvenance = { ...source, startedAt: segments?.[0].startedAt ?? startedAt, finishedAt, ...(segments ? { segments } : {}) };
  return { ...result, provenance, host: stopWatch() };
}

async function runOnPage(browser: Browser, url: string, planned: PlannedRun, label: string, timeoutMs: number, from: string | null, save: ((runSoFar: string, step: number) => void) | null): Promise<RunResult> {
  const page: Page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const saves: Save[] = [];
  const fileMs: number[] = [];
  try {
    await page.exposeFunction('experimentProgress', (p: RunProgress) => {
      if (p.phase === 'saved' && p.save) saves.push({ ...p.save, fileMs: fileMs[saves.length] ?? 0 });
      const line = progressLine(label, p);
      if (line) console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
    });
    if (save) {
      await page.exposeFunction('experimentSave', (runSoFar: string, step: number) => {
        const t = performance.now();
        save(runSoFar, step);
        fileMs.push(performance.now() - t);
      });
    }
    await page.goto(`${url}experiment.html`);
    await page.waitForSelector('#status[data-state=loaded]', { timeout: 60_000 });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`run timed out after ${(timeoutMs / 60_000).toFixed(1)} min`)), timeoutMs);
    });
    try {
      return await Promise.race([page.evaluate(([req, so]) => window.experiment.run(req, so), [planned.request, from] as const), timeout]);
    } finally {
      clearTimeout(timer);
    }
  } catch (e) {
    // The page could not run it (crash, timeout): record the failure from here.
    const error = `${e instanceof Error ? e.message : String(e)}${pageErrors.length > 0 ? `; page errors: ${pageErrors.join(' | ')}` : ''}`;
    return failedRun(planned.request, error, performance.now() - t0, startedAt);
  } finally {
    const line = savesLine(label, saves);
    if (line) console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
    await page.close().catch(() => undefined);
  }
}

/** A run the page did not (or could not) run, recorded from here. */
export function failedRun(request: RunRequest, error: string, wallMs: number, startedAt: string): RunResult {
  return {
    format: 'wmrl-experiment-run', version: 1, kind: request.kind, preset: request.preset, seed: request.seed,
    status: 'failed', error, request, environment: null, records: [], evaluation: null, training: null,
    startupMs: 0, wallMs, startedAt, finishedAt: new Date().toISOString(),
  };
}

