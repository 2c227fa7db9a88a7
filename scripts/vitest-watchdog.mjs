// Runs vitest and ends it when no test event has happened for WMRL_STALL_MINUTES (default 20, above any
// test's own timeout). Code stuck in a synchronous loop holds its worker and vitest's timeouts cannot
// fire there, so such a run would otherwise wait until CI gives up, without a word on where it was.
// tests/heartbeat-reporter.ts rewrites a file on every test event; when it goes stale this prints the
// test files in progress and what each was doing, ends vitest's process group, and exits 1.
//   node scripts/vitest-watchdog.mjs <vitest arguments>     (or runVitest(args, env) from scripts/test.mjs)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VITEST = 'node_modules/.bin/vitest';
const REPORTERS = ['--reporter=default', '--reporter=./tests/heartbeat-reporter.ts'];

/** Runs vitest with `args`; resolves to its exit code (1 when the watchdog ended it). */
export function runVitest(args, env = {}, stallMinutes = Number(process.env.WMRL_STALL_MINUTES ?? 20)) {
  const dir = mkdtempSync(join(tmpdir(), 'wmrl-heartbeat-'));
  const file = join(dir, 'heartbeat.json');
  const stallMs = stallMinutes * 60_000;
  // its own process group, so that the watchdog can end vitest and every worker it started
  const child = spawn(VITEST, [...args, ...REPORTERS], { stdio: 'inherit', detached: true, env: { ...process.env, ...env, WMRL_HEARTBEAT_FILE: file } });
  const started = Date.now();
  const endGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const forward = (signal) => () => endGroup(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  let stalled = false;
  const timer = setInterval(() => {
    let last = started;
    try {
      last = statSync(file).mtimeMs;
    } catch {
      // no event yet: count from the start
    }
    if (Date.now() - last < stallMs) return;
    stalled = true;
    clearInterval(timer);
    let running = [];
    try {
      running = JSON.parse(readFileSync(file, 'utf8')).running;
    } catch {
      // nothing recorded
    }
    console.error(`\n== vitest-watchdog: no test event for ${stallMinutes} min; ending the run. In progress:`);
    for (const r of running) console.error(`   ${r.module}: ${r.now}`);
    if (running.length === 0) console.error('   (no test file had started)');
    endGroup('SIGKILL');
  }, Math.min(30_000, stallMs / 4));
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      rmSync(dir, { recursive: true, force: true });
      resolve(stalled ? 1 : (code ?? (signal ? 1 : 0)));
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exit(await runVitest(process.argv.slice(2)));
}
