// Soak: many runs with worker kills injected at random moments; every job must come back exactly
// once with a plausible status. The budget is generous: a fresh worker's first run is slower, and the
// spares start on the same two cores. SANDBOX_SOAK_RUNS sets the count (default 40; `npm run test:soak`
// runs 500). Each job has 1 calibrated second of work (an endless loop ends `timeout` after about 0.8 s of quiet work
// under work rule 2). The kill schedule comes from a seeded generator, so a failure can be replayed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/primitives/random.ts';
import { job, MEAN_PROGRAM, openSandbox, type SandboxSession } from './harness.ts';

const RUNS = Number(process.env.SANDBOX_SOAK_RUNS ?? 40);

describe(`sandbox soak (${RUNS} runs, injected kills)`, () => {
  let s: SandboxSession;
  beforeAll(async () => {
    s = await openSandbox();
    await s.start({ size: 2, hardGraceMs: 500 });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('accounts for every job exactly once', async () => {
    const rand = mulberry32(20260101);
    const programs = [
      MEAN_PROGRAM,
      'import time\nt = time.time()\nwhile time.time() - t < 0.05:\n    pass\nopen("predictions.csv","w").write("prediction\\n1\\n")\n',
      "raise ValueError('planned')\n",
      'while True:\n    pass\n',
    ];
    const kinds = Array.from({ length: RUNS }, () => Math.floor(rand() * 20));
    const kills = Array.from({ length: Math.ceil(RUNS / 8) }, () => ({ at: Math.floor(rand() * RUNS), worker: Math.floor(rand() * 2) }));
    const outcome = await s.page.evaluate(
      async ({ kinds, kills, programs, files }) => {
        const jobs = kinds.map((k) => ({ source: programs[k < 14 ? 0 : k < 17 ? 1 : k < 19 ? 2 : 3], files, timeoutMs: 1000 }));
        const promises: Promise<{ jobId: number; status: string }>[] = [];
        for (let i = 0; i < jobs.length; i++) {
          promises.push(window.sandbox.run(jobs[i]));
          for (const k of kills) if (k.at === i) setTimeout(() => window.sandbox.killWorker(k.worker), 5 + (i % 7) * 10);
          if (i % 4 === 3) await new Promise((r) => setTimeout(r, 10));
        }
        const results = await Promise.all(promises);
        return { results: results.map((r) => ({ jobId: r.jobId, status: r.status })), stats: window.sandbox.stats() };
      },
      { kinds, kills, programs, files: job('').files },
    );
    const ids = outcome.results.map((r) => r.jobId);
    expect(new Set(ids).size).toBe(RUNS);
    expect(outcome.stats.submitted).toBe(RUNS);
    expect(outcome.stats.settled).toBe(RUNS);
    expect(outcome.stats.doubleSettles).toBe(0);
    const total = Object.values(outcome.stats.byStatus).reduce((a, b) => a + b, 0);
    expect(total).toBe(RUNS);
    // Programs of each kind end as they should, unless a kill hit them.
    outcome.results.forEach((r, i) => {
      const k = kinds[i];
      const expected = k < 17 ? 'ok' : k < 19 ? 'error' : 'timeout';
      expect([expected, 'killed'], `job ${i}`).toContain(r.status);
    });
    expect(outcome.stats.byStatus.ok).toBeGreaterThan(RUNS / 2);
    // And the pool is still healthy.
    const after = await s.run(job(MEAN_PROGRAM));
    expect(after.status).toBe('ok');
    // A hang guard, not a speed check (the watchdog also ends a run that stops moving): 600 s ran out
    // for 500 runs at load 11 on these 2 cores under work rule 2, so the limit grows with the count.
  }, Math.max(600_000, RUNS * 3_000));
});
