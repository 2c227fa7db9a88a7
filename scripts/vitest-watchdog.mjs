// Runs vitest and ends it when no test event has happened for WMRL_STALL_MINUTES (default 20, above any
// test's own timeout). Code stuck in a synchronous loop holds its worker and vitest's timeouts cannot
// fire there, so such a run would otherwise wait until CI gives up, without a word on where it was.
// tests/heartbeat-reporter.ts rewrites a file on every test event; when it goes stale this prints the
// test files in progress and what each was doing, ends vitest and every process under it, and exits 1.
//   node scripts/vitest-watchdog.mjs <vitest arguments>     (or runVitest(args) from scripts/test.mjs)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VITEST = 'node_modules/.bin/vitest';
const REPORTERS = ['--reporter=default', '--reporter=./tests/heartbeat-reporter.ts'];

/** `pid` and every process under it (Linux /proc; elsewhere `pid` alone), read before any is ended. */
function processTree(pid) {
  const children = new Map();
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // the parent id is the 2nd field after the parenthesised command name, which may hold spaces
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (!children.has(ppid)) children.set(ppid, []);
        children.get(ppid).push(Number(name));
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    return [pid];
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** Runs vitest with `args`; resolves to its exit code (1 when the watchdog ended it). */
export function runVitest(args, stallMinutes = Number(process.env.WMRL_STALL_MINUTES ?? 20)) {
  const dir = mkdtempSync(join(tmpdir(), 'wmrl-heartbeat-'));
  const file = join(dir, 'heartbeat.json');
  const stallMs = stallMinutes * 60_000;
  // Not in a session of its own (detached): that measured 15% slower on this VM (probably the kernel's
// autogroups; not confirmed).
  const child = spawn(VITEST, [...args, ...REPORTERS], { stdio: 'inherit', env: { ...process.env, WMRL_HEARTBEAT_FILE: file } });
  const started = Date.now();
  const endTree = () => {
    for (const pid of processTree(child.pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
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
    let state = { running: [], queued: [] };
    try {
      state = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // nothing recorded
    }
    console.error(`\n== vitest-watchdog: no test event for ${stallMinutes} min; ending the run. In progress:`);
    for (const r of state.running) console.error(`   ${r.module}: ${r.now}`);
    if (state.running.length === 0) console.error('   no test file had started its tests');
    if (state.queued.length > 0) {
      console.error(`   and ${state.queued.length} queued, of which one may be stuck while its worker imports it: ${state.queued.slice(0, 5).join(', ')}${state.queued.length > 5 ? ', ...' : ''}`);
    }
    endTree();
  }, Math.min(30_000, stallMs / 4));
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      rmSync(dir, { recursive: true, force: true });
      resolve(stalled ? 1 : (code ?? (signal ? 1 : 0)));
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exit(await runVitest(process.argv.slice(2)));
}
