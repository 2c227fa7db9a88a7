// The Playground's sandbox pool, created on the first run only (start-up costs seconds and ~30 MB
// per worker). Start-up progress is read from the pool's own stats while it starts, so what the
// page shows is the pool's real state, not a guess.
import { SandboxPool, type PoolOptions } from '../../sandbox-pyodide/pool.ts';

export type PoolPhase = 'runtime' | 'snapshot' | 'workers' | 'ready';

export interface PoolStartProgress {
  phase: PoolPhase;
  /** Seconds since start-up began. */
  seconds: number;
  readyWorkers: number;
  size: number;
}

const POLL_MS = 200;

export class LazyPool {
  private pool: SandboxPool | null = null;
  private starting: Promise<SandboxPool> | null = null;
  private readonly options: PoolOptions;

  constructor(options: PoolOptions = {}) {
    this.options = options;
  }

  get started(): boolean {
    return this.pool !== null;
  }

  /** The started pool; starts it on the first call. A failed start is forgotten, so the next call retries. */
  get(onProgress: (p: PoolStartProgress) => void): Promise<SandboxPool> {
    if (this.pool) return Promise.resolve(this.pool);
    if (!this.starting) {
      const pool = new SandboxPool(this.options);
      const t0 = performance.now();
      const report = (): void => {
        const s = pool.stats();
        const readyWorkers = s.workers.filter((w) => w.state === 'idle' || w.state === 'busy').length;
        const phase: PoolPhase = s.assetsMs === 0 ? 'runtime' : s.snapshotBytes === 0 ? 'snapshot' : readyWorkers < pool.size || pool.size === 0 ? 'workers' : 'ready';
        onProgress({ phase, seconds: (performance.now() - t0) / 1000, readyWorkers, size: s.workers.length });
      };
      const timer = setInterval(report, POLL_MS);
      report();
      this.starting = pool.start().then(
        () => {
          clearInterval(timer);
          report();
          this.pool = pool;
          this.starting = null;
          return pool;
        },
        (e: unknown) => {
          clearInterval(timer);
          pool.close();
          this.starting = null;
          throw e;
        },
      );
    }
    return this.starting;
  }

  close(): void {
    this.pool?.close();
    this.pool = null;
  }
}

export function describePoolProgress(p: PoolStartProgress): string {
  const t = `${p.seconds.toFixed(1)} s`;
  switch (p.phase) {
    case 'runtime':
      return `Starting the Python sandbox: loading the Pyodide runtime… (${t})`;
    case 'snapshot':
      return `Starting the Python sandbox: booting Python once and taking a memory snapshot… (${t})`;
    case 'workers':
      return `Starting the Python sandbox: workers ready ${p.readyWorkers}/${p.size}… (${t})`;
    case 'ready':
      return `Python sandbox ready: ${p.size} worker(s), started in ${t}`;
  }
}
