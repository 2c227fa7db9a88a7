// The sandbox page (sandbox.html) that headless tools drive: exposes the pool on window for the CLIs,
// the benchmark and the browser tests. It holds no labels: callers grade predictions themselves.
import { SandboxPool, type PoolOptions, type PoolStats } from './pool.ts';
import type { SandboxFiles, SandboxJob, SandboxResult } from './protocol.ts';
import { libraryHash, populationFor, runPopulation, type PopulationProgress, type PopulationRun } from './leaderboard-on-the-spot.ts';
import { pythonLibrary } from './python-library.ts';
import type { MetricName, TaskType } from '../tasks/task-types.ts';

export interface PopulationRequest {
  files: SandboxFiles;
  type: TaskType;
  metric: MetricName;
  /** Fewer programs than the full population (an evenly spaced subset). */
  size?: number;
  timeoutMs?: number;
}

export interface SandboxHarness {
  start(options?: PoolOptions): Promise<PoolStats>;
  run(job: SandboxJob): Promise<SandboxResult>;
  runMany(jobs: SandboxJob[]): Promise<SandboxResult[]>;
  /** Runs the reference population on a task's program inputs (the Playground's code path); no grading here. */
  runPopulation(request: PopulationRequest): Promise<PopulationRun>;
  killWorker(workerId: number): boolean;
  stats(): PoolStats;
  whenAllReady(): Promise<void>;
  close(): void;
  crossOriginIsolated: boolean;
}

declare global {
  interface Window {
    sandbox: SandboxHarness;
    /** Set by a driver (Playwright's exposeFunction) to hear population progress. */
    sandboxProgress?: (p: PopulationProgress) => void;
  }
}

let pool: SandboxPool | null = null;
const status = document.getElementById('status');
function need(): SandboxPool {
  if (!pool) throw new Error('call sandbox.start() first');
  return pool;
}

window.sandbox = {
  async start(options) {
    pool?.close();
    pool = new SandboxPool(options);
    status?.setAttribute('data-state', 'starting');
    await pool.start();
    status?.setAttribute('data-state', 'ready');
    if (status) status.textContent = `ready: ${pool.size} worker(s)`;
    return pool.stats();
  },
  run: (job) => need().run(job),
  runMany: (jobs) => Promise.all(jobs.map((j) => need().run(j))),
  async runPopulation(req) {
    const p = need();
    return runPopulation((job) => p.run(job), req.files, populationFor(req.type, req.metric, req.size), {
      timeoutMs: req.timeoutMs,
      jobs: p.size,
      toolkitHash: await libraryHash(pythonLibrary()),
      onProgress: (progress) => void window.sandboxProgress?.(progress),
    });
  },
  killWorker: (id) => need().killWorker(id),
  stats: () => need().stats(),
  whenAllReady: () => need().whenAllReady(),
  close: () => {
    pool?.close();
    pool = null;
  },
  crossOriginIsolated: globalThis.crossOriginIsolated,
};
status?.setAttribute('data-state', 'loaded');
