// The work budget, through the real browser sandbox: a program's status depends only on the
// program, its inputs and the budget, never on how busy the machine is; what the counter cannot see
// (one long C call) is stopped by the wall-clock backstop and reported unscored; and a hostile
// program can neither reset the count nor swallow the budget's interrupt into an ok result.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { job, openSandbox, tinyFiles, type SandboxSession } from './harness.ts';
import type { SandboxJob, SandboxResult } from '../../src/sandbox-pyodide/protocol.ts';
import { workBudgetFor } from '../../src/sandbox-pyodide/work-rule.ts';

// A fixed amount of work: toolkit models fitted on a small task plus a pure-Python loop, with
// predictions written at the end (so an ok result is gradable).
const FIXED_WORK = `
import toolkit as tk
task = tk.load_task()
pre = tk.Preprocessor(impute='median', scale='standard', encode='onehot')
X, Xt = pre.fit_transform(task.train), pre.transform(task.test)
model = tk.model_for(task, 'forest', n_trees=8).fit(X, task.y)
near = tk.KNeighborsRegressor(k=3).fit(X, task.y).predict(Xt)
acc = 0
for i in range(150_000):
    acc += i % 7
tk.write_predictions(task, tk.task_outputs(model, Xt, task))
print('done', acc)
`;

const HUGE = 1e12;
// Budgets that let an attack's own set-up run (imports, the bridge) before the loop that must be stopped.
const ATTACK_BUDGET = workBudgetFor(500);
const LOOP_BUDGET = workBudgetFor(200);
const GRACE = 2500;

function fixed(workBudget: number): SandboxJob {
  // The budget is the count; the backstop (wall clock) is far enough away not to matter here.
  return { ...job(FIXED_WORK, 20_000), workBudget, backstopMs: 240_000 };
}

/** Busy child processes, one per core, each ending by itself after `ms` (and ended by pid in any case). */
function busyCores(ms: number): ChildProcess[] {
  return cpus().map(() =>
    spawn(process.execPath, ['-e', `const end = Date.now() + ${ms}; let x = 0; while (Date.now() < end) x++;`], { stdio: 'ignore' }),
  );
}

function stopAll(children: ChildProcess[]): void {
  for (const c of children) if (c.exitCode === null && c.pid !== undefined) process.kill(c.pid);
}

describe('sandbox work budget', { timeout: 600_000 }, () => {
  let s: SandboxSession;
  let W = 0;

  beforeAll(async () => {
    s = await openSandbox();
    await s.start({ size: 2, hardGraceMs: GRACE, bootTimeoutMs: 180_000 });
    const r = await s.run(fixed(HUGE));
    expect(r.status, r.traceback).toBe('ok');
    W = r.work;
  }, 600_000);
  afterAll(async () => {
    await s?.close();
  });

  it('the same program does the same count of work on every fresh interpreter', async () => {
    expect(W).toBeGreaterThan(3000);
    const rs = await s.runMany([fixed(HUGE), fixed(HUGE)]);
    expect(rs.map((r) => r.work)).toEqual([W, W]);
    expect(rs.map((r) => r.predictionsCsv)).toEqual([rs[0].predictionsCsv, rs[0].predictionsCsv]);
  });

  it('just under the budget is ok, just over it is timeout, naming the limit', async () => {
    const [under, over] = await s.runMany([fixed(W), fixed(W - 1)]);
    expect(under.status, under.reason).toBe('ok');
    expect(under.predictionsCsv).toBeDefined();
    expect(over.status).toBe('timeout');
    expect(over.limit).toBe('work');
    expect(over.reason).toMatch(/work limit reached.*more than \d+ work units.*workBudget/);
    expect(over.predictionsCsv).toBeUndefined();
    expect(over.backstops).toBe(0);
  });

  it('gives the same status and the same count with every core busy', async () => {
    const children = busyCores(150_000);
    try {
      const [under, over, again] = await s.runMany([fixed(W), fixed(W - 1), fixed(HUGE)]);
      expect(under.status, under.reason).toBe('ok');
      expect(over.status).toBe('timeout');
      expect(over.limit).toBe('work');
      expect(again.work).toBe(W);
    } finally {
      stopAll(children);
    }
  });

  it('a program blocked in one C call is stopped by the backstop, run again, then reported unscored', async () => {
    const r = await s.run({ ...job('import time\ntime.sleep(600)\n', 20_000), backstopMs: 1500 });
    expect(r.status).toBe('unscored');
    expect(r.backstops).toBe(2);
    expect(r.reason).toMatch(/backstop.*two fresh interpreters.*not scored/);
    expect(r.limit).toBeUndefined();
  });

  it('a program over its budget is timeout even when the backstop would have fired as well', async () => {
    const r = await s.run({ ...job('while True:\n    pass\n', 20_000), workBudget: LOOP_BUDGET, backstopMs: 60_000 });
    expect(r.status).toBe('timeout');
    expect(r.limit).toBe('work');
    expect(r.backstops).toBe(0);
  });

  // Each attack runs first, then a loop far past the budget, then writes predictions with
  // straight-line code (no loop, no call the counter sees): every one must end timeout (work).
  const PREDICT = `\nwith open('predictions.csv', 'w') as f:\n    f.write('prediction\\n1\\n1\\n1\\n1\\n1\\n')\n`;
  const SPIN = `\ntry:\n    while True:\n        pass\nexcept BaseException:\n    pass\n`;
  const BRIDGE = `
import sys, importlib.util
def js_bridge():
    for finder in sys.meta_path:
        try:
            spec = finder.find_spec('pyodide_js', None)
        except Exception:
            continue
        if spec is not None:
            return importlib.util.module_from_spec(spec)
    raise SystemExit(3)
pj = js_bridge()
`;
  const ATTACKS: [string, string][] = [
    ['bare except around the loop, then predictions', ''],
    ['swallows every interrupt and keeps looping', `\nfor _ in range(50):\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass\n`],
    ['sys.monitoring tool ids freed, trace and profile hooks cleared', `\nimport sys\nfor i in range(6):\n    try:\n        sys.monitoring.set_events(i, 0)\n        sys.monitoring.free_tool_id(i)\n    except Exception:\n        pass\nsys.settrace(None)\nsys.setprofile(None)\n`],
    ['toolkit monkeypatched, signal handlers replaced', `\nimport toolkit, builtins\ntoolkit.load_task = lambda: None\ntry:\n    import signal\n    signal.signal(signal.SIGINT, signal.SIG_IGN)\nexcept BaseException:\n    pass\nbuiltins.KeyboardInterrupt = type('KI', (Exception,), {})\n`],
    ['interrupt buffer reset through the JavaScript bridge', `${BRIDGE}\npj.setInterruptBuffer(None)\n`],
    // The work meter's fuel is not among the exports Pyodide keeps: there is nothing to refill.
    ['work meter refilled through the JavaScript bridge', `${BRIDGE}\nm = pj._module\nfor name in ('wasmExports', 'asm', '__wmrl_fuel'):\n    try:\n        e = getattr(m, name)\n        g = getattr(e, '__wmrl_fuel', e)\n        g.value = 2 ** 62  # past 2**53 Pyodide converts to a BigInt, what an i64 global takes\n    except Exception:\n        pass\n`],
    // The addresses are taken off the module object: these writes must miss (or fail).
    ['interrupt check switched off, countdown wound back, in the wasm heap through the bridge', `${BRIDGE}\nm = pj._module\nfor write in (lambda: m.HEAP8.__setitem__(m._Py_EMSCRIPTEN_SIGNAL_HANDLING, 0), lambda: m.HEAP32.__setitem__(m.__Py_emscripten_signal_clock >> 2, 2 ** 31 - 1)):\n    try:\n        write()\n    except Exception:\n        pass\n`],
  ];
  for (const [name, attack] of ATTACKS) {
    it(`cannot be escaped: ${name}`, async () => {
      const r: SandboxResult = await s.run({ source: attack + SPIN + PREDICT, files: tinyFiles(), timeoutMs: 20_000, workBudget: ATTACK_BUDGET, backstopMs: 60_000 });
      expect(r.status, `${r.status} ${r.reason ?? ''} ${r.traceback ?? ''}`).toBe('timeout');
      expect(r.limit).toBe('work');
      expect(r.predictionsCsv).toBeUndefined();
      expect(r.backstops).toBe(0);
    });
  }
});
