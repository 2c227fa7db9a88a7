// Sandbox benchmark, in headless Chromium on the built app: executions per second for a cheap and
// an expensive program, respawn time from the memory snapshot, per-run overhead beyond the program.
// Prints JSON. Run: npx tsx bench/sandbox.ts (build first: npx vite build).
import { openSandbox, job, MEAN_PROGRAM } from '../tests/sandbox/harness.ts';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : Number.NaN;
};

const EXPENSIVE = 'acc = 0\nfor i in range(2_000_000):\n    acc += i * i % 7\nprint(acc)\n';

const s = await openSandbox();
try {
  const started = await s.start({ size: 2, spares: 0 });
  const timed = async (source: string, n: number) => {
    const t0 = performance.now();
    const rs = await s.runMany(Array.from({ length: n }, () => job(source, 60_000)));
    const wall = (performance.now() - t0) / 1000;
    return { perSecond: n / wall, medianProgramMs: median(rs.map((r) => r.seconds * 1000)), overheadMs: median(rs.map((r) => r.wallMs - r.seconds * 1000)), ok: rs.filter((r) => r.status === 'ok').length };
  };
  await timed('pass\n', 10); // warm-up
  const trivial = await timed('pass\n', 200);
  const cheap = await timed(MEAN_PROGRAM, 200);
  const expensive = await timed(EXPENSIVE, 8);
  // Respawn: kill one worker at a time and wait for the pool to be whole again.
  for (let i = 0; i < 8; i++) {
    await s.page.evaluate(() => window.sandbox.killWorker(0));
    await s.page.evaluate(() => window.sandbox.whenAllReady());
  }
  const st = await s.stats();
  const respawns = st.respawnMs.slice(-8);
  console.log(JSON.stringify({
    machine: '2-core node box, headless Chromium, no GPU',
    poolSize: 2,
    startup: { assetsMs: started.assetsMs, snapshotMs: started.snapshotMs, snapshotBytes: started.snapshotBytes, firstWorkerBootMs: started.workers.map((w) => w.lastBootMs) },
    trivial,
    cheap,
    expensive,
    respawnFromSnapshotMs: { median: median(respawns), all: respawns, phases: st.workers[0].lastPhases },
  }, null, 2));
} finally {
  await s.close();
}
