// Faults a program can cause, each run through the real browser sandbox: every one must end in
// time with the right status, and the pool must keep serving correct results afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { job, MEAN_PROGRAM, openSandbox, type SandboxSession } from './harness';
import type { SandboxResult } from '../../src/sandbox-pyodide/protocol';

const TIMEOUT = 1500;
// Generous: on a loaded 2-core CI machine the interrupted worker can take most of a second to unwind
// and post its result, and a short grace turns a soft timeout into a hard kill.
const GRACE = 2500;
const OUTPUT_CAP = 64 * 1024;

describe('sandbox faults', () => {
  let s: SandboxSession;

  beforeAll(async () => {
    s = await openSandbox();
    await s.start({
      size: 2,
      hardGraceMs: GRACE,
      outputCapBytes: OUTPUT_CAP,
      memoryCapBytes: 384 * 1024 * 1024,
      recycleHeapBytes: 192 * 1024 * 1024,
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  async function expectStillServing(): Promise<void> {
    const r = await s.run(job(MEAN_PROGRAM));
    expect(r.status).toBe('ok');
    expect(r.predictionsCsv?.trim().split('\n')).toEqual(['prediction', '20.0', '20.0', '20.0', '20.0', '20.0']);
  }

  async function fault(source: string, timeoutMs = TIMEOUT): Promise<SandboxResult> {
    const t0 = Date.now();
    const r = await s.run(job(source, timeoutMs));
    // Every fault ends within its budget plus the hard-kill grace (and message/respawn slack).
    expect(Date.now() - t0).toBeLessThan(timeoutMs + GRACE + 3000);
    return r;
  }

  it('an infinite loop is interrupted (soft timeout)', async () => {
    const r = await fault('while True:\n    pass\n');
    expect(r.status).toBe('timeout');
    expect(r.traceback ?? '').toContain('KeyboardInterrupt');
    await expectStillServing();
  });

  it('time.sleep cannot be interrupted and is killed (hard timeout)', async () => {
    const r = await fault('import time\ntime.sleep(60)\n');
    expect(r.status).toBe('timeout');
    expect(r.reason).toMatch(/terminated/);
    await expectStillServing();
  });

  it('a program that swallows KeyboardInterrupt is killed', async () => {
    const r = await fault('while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass\n');
    expect(r.status).toBe('timeout');
    expect(r.reason).toMatch(/terminated/);
    await expectStillServing();
  });

  it('a memory bomb ends in MemoryError under the cap, and the bloated worker is recycled', async () => {
    const before = (await s.stats()).workers.reduce((a, w) => a + w.respawns, 0);
    const r = await fault('x = []\nwhile True:\n    x.append(bytearray(8 * 1024 * 1024))\n', 20_000);
    expect(r.status).toBe('memory');
    expect(r.heapBytes).toBeLessThanOrEqual(384 * 1024 * 1024);
    await expectStillServing();
    const after = (await s.stats()).workers.reduce((a, w) => a + w.respawns, 0);
    expect(after).toBeGreaterThan(before);
  });

  it('one huge allocation fails with MemoryError', async () => {
    const r = await fault('x = bytearray(1536 * 1024 ** 2)\n');
    expect(r.status).toBe('memory');
    await expectStillServing();
  });

  it('deep recursion ends as an error, also with the recursion limit raised', async () => {
    // Unwinding a thousand frames is quick, but not always within 1.5 s on a loaded 2-core machine.
    const r1 = await fault('def f(n):\n    return f(n + 1)\nf(0)\n', 10_000);
    expect(r1.status).toBe('error');
    expect(r1.traceback ?? '').toMatch(/RecursionError/);
    const r2 = await fault('import sys\nsys.setrecursionlimit(10 ** 7)\ndef f(n):\n    return f(n + 1) + 1\nf(0)\n');
    expect(['error', 'killed']).toContain(r2.status);
    await expectStillServing();
  });

  it('a print flood is capped and still ends in time', async () => {
    const r = await fault("while True:\n    print('x' * 1000)\n");
    expect(r.status).toBe('timeout');
    expect(r.outputTruncated || r.stdout.length === 0).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(OUTPUT_CAP);
    const bounded = await fault("import sys\nfor i in range(200000):\n    print('y' * 50)\nprint('done', file=sys.stderr)\n", 20_000);
    expect(bounded.status).toBe('ok');
    expect(bounded.outputTruncated).toBe(true);
    expect(bounded.stdout.length + bounded.stderr.length).toBeLessThanOrEqual(OUTPUT_CAP);
    await expectStillServing();
  });

  it('sys.exit(0) is a normal end, sys.exit(3) an error', async () => {
    const ok = await fault("open('predictions.csv', 'w').write('prediction\\n1\\n')\nimport sys\nsys.exit(0)\n");
    expect(ok.status).toBe('ok');
    expect(ok.predictionsCsv).toBe('prediction\n1\n');
    const bad = await fault('import sys\nsys.exit(3)\n');
    expect(bad.status).toBe('error');
    expect(bad.traceback).toContain('SystemExit: 3');
    await expectStillServing();
  });

  it('a syntax error and a runtime error come back with their tracebacks', async () => {
    const syn = await fault('def broken(:\n    pass\n');
    expect(syn.status).toBe('error');
    expect(syn.traceback).toContain('SyntaxError');
    const rt = await fault("x = 1\nraise ValueError('boom')\n");
    expect(rt.status).toBe('error');
    expect(rt.traceback).toMatch(/program\.py", line 2/);
    expect(rt.traceback).toContain('ValueError: boom');
    await expectStillServing();
  });

  it('a file bomb in the run directory fails with a disk-full error', async () => {
    const r = await fault("f = open('big.bin', 'wb')\nchunk = b'0' * (1 << 20)\nfor i in range(400):\n    f.write(chunk)\n", 20_000);
    expect(r.status).toBe('error');
    expect(r.traceback ?? '').toMatch(/OSError|No space/);
    await expectStillServing();
  });

  it('a program cannot leave state behind for the next one on the same worker', async () => {
    await s.run(job("import builtins, sys, os, math\nbuiltins.len = lambda x: 42\nsys.path.insert(0, '/evil')\nos.environ['LEAK'] = '1'\nimport json\njson.dumps = None\nimport statistics\nBAD = 1\n"));
    await s.run(job("import builtins, sys, os, math\nbuiltins.len = lambda x: 42\nsys.path.insert(0, '/evil')\nos.environ['LEAK'] = '1'\n"));
    const results = await s.runMany([0, 1, 2, 3].map(() => job("import sys, os, json\nassert len([1, 2]) == 2\nassert '/evil' not in sys.path\nassert 'LEAK' not in os.environ\nassert 'BAD' not in globals()\nprint(json.dumps([1]))\n")));
    for (const r of results) {
      expect(r.status, r.traceback).toBe('ok');
      expect(r.stdout).toBe('[1]\n');
    }
  });

  it('accounts for every job exactly once', async () => {
    const st = await s.stats();
    expect(st.settled).toBe(st.submitted);
    expect(st.doubleSettles).toBe(0);
    expect(st.workers.reduce((a, w) => a + w.runs, 0)).toBeGreaterThan(0);
    expect(st.workers.every((w) => w.busyMs > 0)).toBe(true);
    expect(s.pageErrors).toEqual([]);
  });
});
