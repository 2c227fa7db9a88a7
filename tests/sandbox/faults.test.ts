// Faults a program can cause, each run through the real browser sandbox: every one must end in
// time with the right status, and the pool must keep serving correct results afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { job, MEAN_PROGRAM, openSandbox, type SandboxSession } from './harness.ts';
import { backstopMsFor, type SandboxResult } from '../../src/sandbox-pyodide/protocol.ts';

const TIMEOUT = 1500;
// Generous: on a loaded 2-core CI machine the interrupted worker can take most of a second to unwind
// and post its result, and a short grace turns a soft timeout into a hard kill.
const GRACE = 2500;
const OUTPUT_CAP = 64 * 1024;
const MEMORY_CAP = 384 * 1024 * 1024;
const FILE_CAP = 32 * 1024 * 1024;
// MEMFS grows a file's storage geometrically (x1.125 past 1 MiB): the count may pass the cap by that much.
const FILE_SLACK = 1.2;

describe('sandbox faults', () => {
  let s: SandboxSession;

  beforeAll(async () => {
    s = await openSandbox();
    await s.start({
      size: 2,
      hardGraceMs: GRACE,
      outputCapBytes: OUTPUT_CAP,
      memoryCapBytes: MEMORY_CAP,
      fileCapBytes: FILE_CAP,
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
    // Every fault ends before the wall-clock backstop has to act twice (its work budget, a cap or
    // the backstop ends it; a loaded machine stretches the first two, so this is the only bound).
    expect(Date.now() - t0).toBeLessThan(2 * (backstopMsFor(timeoutMs) + GRACE) + 5000);
    return r;
  }

  it('an infinite loop is interrupted at its work limit', async () => {
    const r = await fault('while True:\n    pass\n');
    expect(r.status).toBe('timeout');
    expect(r.limit).toBe('work');
    expect(r.traceback ?? '').toContain('KeyboardInterrupt');
    await expectStillServing();
  });

  it('time.sleep cannot be interrupted: the backstop kills it twice and it ends unscored', async () => {
    const r = await s.run({ ...job('import time\ntime.sleep(60)\n', TIMEOUT), backstopMs: TIMEOUT });
    expect(r.status).toBe('unscored');
    expect(r.backstops).toBe(2);
    expect(r.reason).toMatch(/backstop/);
    await expectStillServing();
  });

  it('a program that swallows KeyboardInterrupt is killed, and ends at its work limit', async () => {
    const r = await fault('while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass\n');
    expect(r.status).toBe('timeout');
    expect(r.limit).toBe('work');
    expect(r.reason).toMatch(/work limit reached/);
    await expectStillServing();
  });

  it('a memory bomb ends in MemoryError under the cap, and the bloated worker is recycled', async () => {
    const before = (await s.stats()).workers.reduce((a, w) => a + w.respawns, 0);
    const r = await fault('x = []\nwhile True:\n    x.append(bytearray(8 * 1024 * 1024))\n', 20_000);
    expect(r.status).toBe('memory');
    expect(r.limit).toBe('memory');
    expect(r.reason).toMatch(/memory limit.*384 MiB.*memoryCapBytes/);
    expect(r.heapBytes).toBeLessThanOrEqual(MEMORY_CAP);
    await expectStillServing();
    const after = (await s.stats()).workers.reduce((a, w) => a + w.respawns, 0);
    expect(after).toBeGreaterThan(before);
  });

  // Caught: the interrupt the worker raises at the cap ends it. Everything swallowed: the page
  // terminates the worker a grace later. Either way the status names the cap.
  it.each([
    ['catches MemoryError and carries on', 'MemoryError'],
    // Two loops deep, so the interrupt cannot land outside a try: only the page's kill ends it.
    ['swallows every exception', 'BaseException'],
  ])('a program that %s still ends at the memory cap', async (_name, caught) => {
    const grow = `def grow():\n    while True:\n        try:\n            x.append(bytearray(8 * 1024 * 1024))\n        except ${caught}:\n            pass\n`;
    const r = await fault(`x = []\n${grow}while True:\n    try:\n        while True:\n            grow()\n    except ${caught}:\n        pass\n`, 20_000);
    expect(r.status).toBe('memory');
    expect(r.limit).toBe('memory');
    expect(r.reason).toMatch(/memoryCapBytes/);
    await expectStillServing();
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
    // The frames can fill the memory cap first, or the calls the work budget (1.5 calibrated s).
    expect(['error', 'killed', 'memory', 'timeout']).toContain(r2.status);
    await expectStillServing();
  });

  it('a print flood ends at the output cap with a resource status', async () => {
    const r = await fault("while True:\n    print('x' * 1000)\n");
    expect(r.status).toBe('resource');
    expect(r.limit).toBe('output');
    expect(r.reason).toMatch(/output limit.*64 KiB.*outputCapBytes/);
    expect(r.outputTruncated).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(OUTPUT_CAP);
    const bounded = await fault("import sys\nfor i in range(200000):\n    print('y' * 50)\nprint('done', file=sys.stderr)\n", 20_000);
    expect(bounded.status).toBe('resource');
    expect(bounded.limit).toBe('output');
    expect(bounded.stdout.length + bounded.stderr.length).toBeLessThanOrEqual(OUTPUT_CAP);
    // Under the cap is fine.
    const small = await fault("for i in range(100):\n    print('z' * 50)\n");
    expect(small.status).toBe('ok');
    expect(small.outputTruncated).toBe(false);
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

  // Each way of storing bytes in MEMFS (which lives outside the wasm heap, so the memory cap does
  // not see it) must hit the file cap; the program catches the error and carries on, and still ends.
  const FILE_BOMBS: [string, string][] = [
    ['appends to one file', "f = open('big.bin', 'wb')\nchunk = b'0' * (1 << 20)\nfor i in range(400):\n    f.write(chunk)\n"],
    ['one single write larger than the cap', "open('big.bin', 'wb').write(b'0' * (48 << 20))\n"],
    ['one write per file, many files', "import os\nchunk = b'0' * (6 << 20)\nfor i in range(40):\n    try:\n        open('f%d.bin' % i, 'wb').write(chunk)\n    except OSError:\n        pass\n"],
    ['truncate to a huge size', "import os\nopen('t.bin', 'wb').close()\nos.truncate('t.bin', 4 << 30)\n"],
    ['ftruncate in /tmp', "f = open('/tmp/t.bin', 'wb')\nf.truncate(1 << 30)\n"],
    ['os.write at a far offset', "import os\nfd = os.open('far.bin', os.O_WRONLY | os.O_CREAT)\nos.pwrite(fd, b'x', 1 << 30)\n"],
    ['many empty files and directories', "import os\nfor i in range(20000):\n    try:\n        os.mkdir('d%d' % i)\n        open('d%d/e' % i, 'w').close()\n    except OSError:\n        pass\n"],
  ];

  it.each(FILE_BOMBS)('a file bomb (%s) ends at the file cap with a resource status', async (_name, source) => {
    const r = await fault(source, 30_000);
    expect(r.status, r.traceback).toBe('resource');
    expect(r.limit).toBe('files');
    expect(r.reason).toMatch(/file limit.*32 MiB.*fileCapBytes/);
    expect(r.traceback?.trim().split('\n').at(-1)).toBe(r.reason);
    expect(r.fileBytes).toBeLessThanOrEqual(FILE_CAP * FILE_SLACK);
    await expectStillServing();
  });

  it('files under the cap are fine, and each run has the whole cap', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await fault("open('a.bin', 'wb').write(b'0' * (20 << 20))\nimport os\nprint(os.path.getsize('a.bin'))\n", 20_000);
      expect(r.status, r.traceback).toBe('ok');
      expect(r.stdout).toBe(`${20 << 20}\n`);
      expect(r.fileBytes).toBeGreaterThanOrEqual(20 << 20);
    }
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
