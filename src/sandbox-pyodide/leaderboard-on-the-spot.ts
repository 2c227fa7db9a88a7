// A leaderboard built on the spot for a task the suite does not have (the user's own CSV): the
// reference population runs in the browser sandbox pool on the task's program inputs, then the
// grading side (Node in the CLI, the page's main thread in the Playground; never a worker) scores
// every run on the hidden labels and deduplicates with the suite's own buildLeaderboard.
// This module holds no labels until leaderboardOnTheSpot is called, and imports nothing that needs
// a bundler, so the CLI (tsx) and the page share it.
import { buildLeaderboard, type Leaderboard, type ReferenceRun } from '../tasks/leaderboard.ts';
import type { MetricName, TaskLabels, TaskMeta, TaskType } from '../tasks/task-types.ts';
import type { SandboxFiles, SandboxJob, SandboxResult } from './protocol.ts';
import { referencePrograms, type ReferenceProgram } from './reference-programs.ts';

/** Per-program wall-clock budget for reference programs (a 60-tree forest on 1200 rows takes ~8 s). */
export const POPULATION_TIMEOUT_MS = 120_000;

/**
 * The reference population for a task type and metric; with `size` below the full count, an evenly
 * spaced subset (deterministic, and spread over the families because the list is grouped by family).
 */
export function populationFor(type: TaskType, metric: MetricName, size?: number): ReferenceProgram[] {
  const all = referencePrograms(type, metric);
  if (size === undefined || size >= all.length) return all;
  if (!Number.isInteger(size) || size < 1) throw new Error(`population size must be a positive integer, got ${size}`);
  return Array.from({ length: size }, (_, i) => all[Math.floor((i * all.length) / size)]);
}

export interface PopulationProgress {
  done: number;
  total: number;
  failed: number;
  /** Seconds since the population started. */
  seconds: number;
  programId: string;
}

/** What the sandbox side hands to the grading side: predictions only, never labels. */
export interface PopulationRun {
  programIds: string[];
  runs: ReferenceRun[];
  /** Program run time per program (worker-measured), same order as programIds. */
  programSeconds: number[];
  /** Wall-clock seconds for the whole population. */
  seconds: number;
  /** Workers the pool ran it on. */
  jobs: number;
  toolkitHash: string;
}

/** One line saying why a sandbox run gave no usable predictions. */
export function failureMessage(r: SandboxResult): string {
  if (r.status === 'ok') return r.predictionsProblem ?? 'wrote no predictions.csv';
  const tail = (r.traceback ?? r.reason ?? r.stderr).trim().split('\n').slice(-2).map((l) => l.trim()).join(' | ');
  return `${r.status}: ${tail || 'no detail'}`;
}

/**
 * Runs every program through `run` (a pool's run: jobs queue in the pool, so all are submitted at
 * once) and reports progress as each one settles. Results keep the programs' order.
 */
export async function runPopulation(
  run: (job: SandboxJob) => Promise<SandboxResult>,
  files: SandboxFiles,
  programs: readonly ReferenceProgram[],
  opts: { timeoutMs?: number; jobs: number; toolkitHash: string; onProgress?: (p: PopulationProgress) => void },
): Promise<PopulationRun> {
  const t0 = performance.now();
  let done = 0;
  let failed = 0;
  const timeoutMs = opts.timeoutMs ?? POPULATION_TIMEOUT_MS;
  const results = await Promise.all(
    programs.map(async (p) => {
      const r = await run({ source: p.source, files, timeoutMs });
      done++;
      const usable = r.status === 'ok' && r.predictionsCsv !== undefined;
      if (!usable) failed++;
      opts.onProgress?.({ done, total: programs.length, failed, seconds: (performance.now() - t0) / 1000, programId: p.id });
      const ref: ReferenceRun = usable
        ? { programId: p.id, predictionsCsv: r.predictionsCsv as string }
        : { programId: p.id, error: failureMessage(r) };
      return { ref, seconds: r.seconds };
    }),
  );
  return {
    programIds: programs.map((p) => p.id),
    runs: results.map((r) => r.ref),
    programSeconds: results.map((r) => Math.round(r.seconds * 1000) / 1000),
    seconds: Math.round(((performance.now() - t0) / 1000) * 10) / 10,
    jobs: opts.jobs,
    toolkitHash: opts.toolkitHash,
  };
}

/**
 * sha256 over the Python library (sorted path, text pairs, each part NUL-terminated): the same
 * digest src/cli/build-leaderboards.ts records, so on-the-spot and suite leaderboards compare.
 */
export async function libraryHash(lib: Readonly<Record<string, string>>): Promise<string> {
  const parts = Object.keys(lib)
    .sort()
    .flatMap((k) => [k, lib[k]]);
  const bytes = new TextEncoder().encode(parts.map((p) => `${p}\u0000`).join(''));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Grading side: scores the population on the hidden labels and builds the deduplicated leaderboard. */
export function leaderboardOnTheSpot(
  task: { meta: TaskMeta; labels: TaskLabels },
  population: PopulationRun,
  runner: string,
): Leaderboard {
  return buildLeaderboard(task.meta, task.labels, population.runs, {
    toolkitHash: population.toolkitHash,
    programIds: population.programIds,
    seconds: population.seconds,
    programSeconds: population.programSeconds,
    runner,
    builtAt: new Date().toISOString(),
    jobs: population.jobs,
  });
}
