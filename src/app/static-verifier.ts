// The free verifier of wmrl-static in the browser: static_check.py in a Pyodide worker of its own,
// which parses and compiles the programs it is given as data and never executes them. That is why,
// unlike the execution pool (a fresh interpreter per job), one interpreter checks every step: no
// program's code ever runs in it. It is started on the first check, and its start-up is charged to
// the first check's busy time.
import { SandboxPool } from '../sandbox-pyodide/pool';
import { STATIC_CHECK_SOURCE } from '../sandbox-pyodide/python/static-check-source';
import type { StaticCheck, VerifierPort } from '../training/ports';
import { parseStaticChecks } from '../training/static-checks';

export class PoolStaticVerifier implements VerifierPort {
  private pool: SandboxPool | null = null;

  async check(programs: readonly string[]): Promise<{ results: StaticCheck[]; busyMs: number }> {
    if (programs.length === 0) return { results: [], busyMs: 0 };
    if (!this.pool) {
      // The verifier's own script is the only code that runs: reuse is safe here (see above).
      this.pool = new SandboxPool({ size: 1, maxRunsPerWorker: 1_000_000, spares: 0 });
      await this.pool.start();
    }
    const r = await this.pool.run({
      source: STATIC_CHECK_SOURCE,
      files: { 'train.csv': '', 'test.csv': '', 'task.json': JSON.stringify({ programs }) },
      timeoutMs: 60_000,
    });
    return { results: parseStaticChecks(r.status === 'ok' ? r.stdout : null, programs.length, r.traceback ?? r.reason ?? r.status), busyMs: r.wallMs + r.bootMs };
  }

  close(): void {
    this.pool?.close();
    this.pool = null;
  }
}
