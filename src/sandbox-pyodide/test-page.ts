// The sandbox harness page (sandbox.html): exposes the pool on window for Playwright-driven tests,
// the benchmark and the score command. It holds no labels: callers grade predictions themselves.
import { SandboxPool, type PoolOptions, type PoolStats } from './pool';
import type { SandboxJob, SandboxResult } from './protocol';

export interface SandboxHarness {
  start(options?: PoolOptions): Promise<PoolStats>;
  run(job: SandboxJob): Promise<SandboxResult>;
  runMany(jobs: SandboxJob[]): Promise<SandboxResult[]>;
  killWorker(workerId: number): boolean;
  stats(): PoolStats;
  whenAllReady(): Promise<void>;
  close(): void;
  crossOriginIsolated: boolean;
}

declare global {
  interface Window {
    sandbox: SandboxHarness;
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
