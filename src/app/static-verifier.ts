// The free verifier of wmrl-static in the browser: static_check.py in a Pyodide worker of its own,
// which parses and compiles the programs it is given as data and never executes them. That is why,
// unlike the execution pool (a fresh interpreter per job), one interpreter checks every step: no
// program's code ever runs in it. It is started on the first check, and its start-up is charged to
// the first check's busy time. A program the verifier cannot judge (a worker that dies on it, a
// time-out) is rejected with the reason, and its neighbours keep their answers (judgeEach); the pool
// replaces a worker that died.
import { SandboxPool } from '../sandbox-pyodide/pool.ts';
import { STATIC_CHECK_SOURCE } from '../sandbox-pyodide/python/static-check-source.ts';
import type { StaticCheck, VerifierPort } from '../training/ports.ts';
import { judgeEach, parseStaticChecks, verifierRequest, verifierTimeoutMs } from '../training/static-checks.ts';

export class PoolStaticVerifier implements VerifierPort {
  private pool: SandboxPool | null = null;

  async check(programs: readonly string[]): Promise<{ results: StaticCheck[]; busyMs: number }> {
    if (programs.length === 0) return { results: [], busyMs: 0 };
    if (!this.pool) {
      // The verifier's own script is the only code that runs: reuse is safe here (see above).
      // Started outside judgeEach: a pool that cannot start is an error, not a rejection per program.
      const pool = new SandboxPool({ size: 1, maxRunsPerWorker: 1_000_000, spares: 0 });
      await pool.start();
      this.pool = pool;
    }
    const pool = this.pool;
    let busyMs = 0;
    const results = await judgeEach(programs, async (chunk) => {
      const r = await pool.run({
        source: STATIC_CHECK_SOURCE,
        files: { 'train.csv': '', 'test.csv': '', 'task.json': verifierRequest(chunk) },
        timeoutMs: verifierTimeoutMs(chunk.length),
      });
      busyMs += r.wallMs + r.bootMs;
      return parseStaticChecks(r.status === 'ok' ? r.stdout : null, chunk.length, r.traceback ?? r.reason ?? r.status);
    });
    return { results, busyMs };
  }

  close(): void {
    this.pool?.close();
    this.pool = null;
  }
}
