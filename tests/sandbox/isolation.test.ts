// Cross-job invariance: on a pool of ONE worker slot, each attack runs, then an honest program, then
// a harvester. The honest program's whole result (status, predictions, stdout, stderr) must equal its
// result alone, and nothing of its data (a marker in its files) may reach the harvester. Each attack
// prints PLANTED once it has really changed its own interpreter, so a broken attack cannot pass as a
// blocked one. A control on a reused interpreter (maxRunsPerWorker 200, which no caller uses) shows
// that the same comparison does see the poisoning, so this test can fail.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSandbox, type SandboxSession } from './harness.ts';
import type { SandboxFiles, SandboxJob, SandboxResult } from '../../src/sandbox-pyodide/protocol.ts';

const MARKER = `HONEST_${randomBytes(6).toString('hex')}`;
// What attacks keep of their own: it must not show up in a later job either.
const LEFT = 'LEFT_BY_ATTACKER';

/** The honest job's files: the marker sits in a column of both CSVs. */
function honestFiles(): SandboxFiles {
  const train = ['x1,x2,note,y', ...Array.from({ length: 24 }, (_, i) => `${i},${(i * 7) % 5},${MARKER},${2 * i + 1 + (i % 3)}`)].join('\n') + '\n';
  const test = ['x1,x2,note', ...Array.from({ length: 6 }, (_, i) => `${i + 24},${i % 3},${MARKER}`)].join('\n') + '\n';
  const task = JSON.stringify({ target: 'y', type: 'regression', metric: 'rmse', columns: [{ name: 'note', kind: 'categorical' }] });
  return { 'train.csv': train, 'test.csv': test, 'task.json': task };
}

/** Other jobs' files: no marker. */
function plainFiles(): SandboxFiles {
  const train = ['x1,x2,note,y', ...Array.from({ length: 12 }, (_, i) => `${i},${i % 4},plain,${i}`)].join('\n') + '\n';
  const test = ['x1,x2,note', '1,1,plain', '2,2,plain'].join('\n') + '\n';
  return { 'train.csv': train, 'test.csv': test, 'task.json': JSON.stringify({ target: 'y', type: 'regression', metric: 'rmse' }) };
}

// Touches everything the attacks go after: builtins, open, csv, re, decimal, warnings, random
// (seeded and not: a fresh interpreter restores the same state every time), big ints, recursion,
// environment, umask, leftover files, tracing hooks, linecache, a lazily imported module, memory,
// and the toolkit (functions, classes, module-level tables).
const HONEST = String.raw`
import csv, re, decimal, warnings, random, os, sys, traceback
import toolkit as tk
rows = list(csv.DictReader(open('train.csv')))
print('rows', len(rows), sorted(rows[0]))
print('round', round(2.675, 2), round(3.7), len([1, 2, 3]), abs(-2))
print('re', re.findall(r'\d+', 'a1b22c333'), re.sub(r'b+', '-', 'abba'))
print('decimal', decimal.Decimal(1) / decimal.Decimal(7))
warnings.warn('honest note')
print('random', random.random())
random.seed(7)
print('seeded', random.random(), random.randint(1, 100), random.Random(3).random())
print('digits', len(str(7 ** 2000)))
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print('depth', depth(150))
print('env', sorted(os.environ), 'umask', oct(os.umask(0o22)), 'cwd', os.getcwd())
print('listing', sorted(os.listdir('.')), sorted(os.listdir('/tmp')), sorted(os.listdir('/home/pyodide')), sorted(os.listdir('/lib/sandbox')))
print('hooks', sys.gettrace(), sys.getprofile(), type(sys.stdout).__name__, sys.get_int_max_str_digits(), sys.getrecursionlimit())
try:
    1 / 0
except ZeroDivisionError:
    print('tb', traceback.format_exc().strip().splitlines()[-3:])
import fractions
print('fraction', fractions.Fraction(3, 9))
big = bytearray(96 << 20)
print('alloc', len(big))
del big
task = tk.load_task()
pre = tk.Preprocessor(impute='median', scale='standard', encode='onehot')
X, Xt = pre.fit_transform(task.train), pre.transform(task.test)
tree = tk.model_for(task, 'tree', max_depth=3).fit(X, task.y)
lin = tk.model_for(task, 'ridge', alpha=1.0).fit(X, task.y)
preds = [0.5 * a + 0.5 * b for a, b in zip(tree.predict(Xt), lin.predict(Xt))]
print('families', sorted(tk.FAMILIES), 'score', round(tk.rmse(task.y, lin.predict(X)), 6))
tk.write_predictions(task, preds)
print('written', open('predictions.csv').read().count('\n'))
`;

// Shared by the attacks: the Python guard's own state (reachable through the runner's frame), and
// Pyodide's JavaScript bridge (reachable through its import finder).
const PRELUDE = String.raw`
import sys, builtins, os, importlib.util
_runner = sys._getframe(1)
GUARD = dict(_runner.f_locals) if _runner.f_code.co_name == 'run' else {}
def base():
    return GUARD.get('base') or {}
def disarmed(action):
    # Switches the guard's audit hook off for the action, then on again (so the next job runs).
    armed = GUARD.get('armed')
    if armed is None:
        return False
    armed[0] = False
    try:
        action()
    finally:
        armed[0] = True
    return True
def plant_builtin(name, value):
    setattr(builtins, name, value)
    if 'builtins' in base():
        base()['builtins'][name] = value
def js_bridge():
    for finder in sys.meta_path:
        try:
            spec = finder.find_spec('pyodide_js', None)
        except Exception:
            continue
        if spec is not None:
            return importlib.util.module_from_spec(spec)
    return None
def stash(value):
    sys.__dict__.setdefault('_stolen', []).append(value)
LEFT = 'LEFT_BY_ATTACKER'
`;

interface Attack {
  name: string;
  /** Runs in the attacker's job; must print PLANTED once its change is in place. */
  plant: string;
  /** Runs in the job after the honest one: prints what the attack kept (checked for the marker). */
  harvest?: string;
  /** In the control on a reused interpreter, the comparison must see this one. */
  leaksWhenReused?: boolean;
}

const ATTACKS: Attack[] = [
  { name: 'planted builtin round (guard state through the runner frame)', leaksWhenReused: true, plant: `plant_builtin('round', lambda x, n=None: 0)\nif round(3.7) == 0: print('PLANTED')` },
  { name: 'planted builtin len and abs', leaksWhenReused: true, plant: `plant_builtin('len', lambda x: 99)\nplant_builtin('abs', lambda x: -1)\nif abs(5) == -1: print('PLANTED')` },
  {
    name: 'copying open that keeps every file a later job reads',
    leaksWhenReused: true,
    plant: `import io\n_open = builtins.open\ndef spy_open(f, mode='r', *a, **k):\n    h = _open(f, mode, *a, **k)\n    if 'r' in mode and 'b' not in mode and isinstance(f, str) and f.endswith('.csv'):\n        text = h.read(); stash(text); return io.StringIO(text)\n    return h\nplant_builtin('open', spy_open)\nif builtins.open is spy_open: print('PLANTED')`,
    harvest: `print(sys.__dict__.get('_stolen'))`,
  },
  {
    name: 'open that rewrites the next predictions.csv',
    leaksWhenReused: true,
    plant: `_open = builtins.open\nclass Liar:\n    def __init__(self, h): self.h = h\n    def write(self, s): return self.h.write(''.join('9' if c.isdigit() else c for c in s))\n    def __enter__(self): return self\n    def __exit__(self, *a): self.h.close()\n    def close(self): self.h.close()\n    def __getattr__(self, k): return getattr(self.h, k)\ndef liar_open(f, mode='r', *a, **k):\n    h = _open(f, mode, *a, **k)\n    return Liar(h) if 'w' in mode and str(f).endswith('predictions.csv') else h\nplant_builtin('open', liar_open)\nif builtins.open is liar_open: print('PLANTED')`,
  },
  { name: 'guard disarmed, fake toolkit written into the library', leaksWhenReused: true, plant: `def write():\n    open('/lib/sandbox/toolkit/table.py', 'a').write('\\nraise SystemExit(7)\\n')\n    open('/lib/sandbox/fractions.py', 'w').write('class Fraction:\\n    def __init__(self, *a): pass\\n    def __repr__(self): return "owned"\\n')\nif disarmed(write): print('PLANTED')` },
  { name: 'fake toolkit in sys.modules', leaksWhenReused: true, plant: `import types\nfake = types.ModuleType('toolkit')\nfake.__getattr__ = lambda name: (lambda *a, **k: None)\nsys.modules['toolkit'] = fake\nif 'modules' in base(): base()['modules']['toolkit'] = fake\nimport toolkit\nif toolkit is fake: print('PLANTED')` },
  { name: 'toolkit module table mutated in place', leaksWhenReused: true, plant: `import toolkit\ntoolkit.FAMILIES.clear()\ntoolkit.FAMILIES['owned'] = (None, None)\nif list(toolkit.FAMILIES) == ['owned']: print('PLANTED')` },
  { name: 'toolkit class patched', leaksWhenReused: true, plant: `import toolkit\ntoolkit.Ridge.predict = lambda self, X: [0.0] * len(X)\ntoolkit.DecisionTreeRegressor.fit = lambda self, X, y: self\nprint('PLANTED')` },
  { name: 'fake module through sys.path_importer_cache', plant: `import importlib.machinery as m\nclass Finder:\n    def find_spec(self, name, target=None):\n        return m.ModuleSpec(name, None) if name == 'fractions' else None\n    def invalidate_caches(self): pass\nsys.path_importer_cache['/lib/sandbox'] = Finder()\nsys.modules.pop('fractions', None)\nprint('PLANTED')` },
  { name: 'patched stdlib class (csv.DictReader)', leaksWhenReused: true, plant: `import csv\ncsv.DictReader.__next__ = lambda self: (_ for _ in ()).throw(StopIteration)\nif list(csv.DictReader(['a', '1'])) == []: print('PLANTED')` },
  { name: 'patched stdlib class (random.Random)', leaksWhenReused: true, plant: `import random\nrandom.Random.random = lambda self: 0.5\nrandom.Random.seed = lambda self, *a, **k: None\nif random.Random(1).random() == 0.5: print('PLANTED')` },
  { name: 'random state advanced', plant: `import random\nfor _ in range(1000): random.random()\nprint('PLANTED')` },
  { name: 're cache poisoned', leaksWhenReused: true, plant: `import re\nevil = re.compile('x')\nfor cache in (re._cache, re._cache2):\n    cache[(str, r'\\d+', 0)] = evil\nif re.findall(r'\\d+', 'a1') == []: print('PLANTED')` },
  { name: 'decimal context', leaksWhenReused: true, plant: `import decimal\ndecimal.getcontext().prec = 2\nif str(decimal.Decimal(1) / decimal.Decimal(7)) == '0.14': print('PLANTED')` },
  { name: 'warnings turned into errors', leaksWhenReused: true, plant: `import warnings\nwarnings.simplefilter('error')\ntry:\n    warnings.warn('x')\nexcept UserWarning:\n    print('PLANTED')` },
  { name: 'int string digits limit', leaksWhenReused: true, plant: `sys.set_int_max_str_digits(640)\nif sys.get_int_max_str_digits() == 640: print('PLANTED')` },
  { name: 'recursion limit', leaksWhenReused: true, plant: `sys.setrecursionlimit(60)\nif 'limit' in base(): base()['limit'] = 60\nprint('PLANTED')` },
  { name: 'sys.settrace and setprofile', leaksWhenReused: true, plant: `def tracer(frame, event, arg):\n    if frame.f_code.co_filename == 'program.py' and event == 'call': print('TRACED', frame.f_code.co_name)\n    return None\nsys.settrace(tracer)\nsys.setprofile(lambda *a: None)\nif sys.gettrace() is tracer: print('PLANTED')` },
  {
    name: 'audit hook that reads every later file open',
    leaksWhenReused: true,
    plant: `def spy(event, args):\n    if event == 'open' and isinstance(args[0], str) and args[0].endswith('train.csv'):\n        sys.stderr.write('SPIED\\n')\n        try:\n            with builtins.__dict__['__import__']('io').open(args[0]) as fh: stash(fh.read())\n        except Exception: pass\nsys.addaudithook(spy)\nprint('PLANTED')`,
    harvest: `print(sys.__dict__.get('_stolen'))`,
  },
  { name: 'stdout redirected', leaksWhenReused: true, plant: `import io\nsink = io.StringIO()\nif 'streams' in base(): base()['streams'] = (sink, sink, sys.stdin)\nsys.stdout = sink\nsys.__stdout__.write('PLANTED\\n')` },
  { name: 'stdout buffer left half written', plant: `sys.stdout.write('LEFTOVER-NO-NEWLINE')\nprint('PLANTED', file=sys.stderr)` },
  { name: 'linecache poisoned for program.py', leaksWhenReused: true, plant: `import linecache\nlinecache.cache['program.py'] = (1, None, ['owned line\\n'] * 200, 'program.py')\nprint('PLANTED')` },
  { name: 'environment and umask', leaksWhenReused: true, plant: `os.environ['OWNED'] = '1'\nif 'environ' in base(): base()['environ']['OWNED'] = '1'\nos.umask(0o777)\nif os.environ.get('OWNED') == '1': print('PLANTED')` },
  { name: 'files left outside the run directory', leaksWhenReused: true, plant: `def write():\n    open('/home/pyodide/left.txt', 'w').write('x')\n    open('/tmp/left.txt', 'w').write('x')\nif disarmed(write): print('PLANTED')` },
  { name: 'memory squatted', leaksWhenReused: true, plant: `sys.__dict__['_squat'] = bytearray(900 << 20)\nprint('PLANTED')` },
  { name: 'timer through the JavaScript bridge (scheduleCallback)', leaksWhenReused: true, plant: `pj = js_bridge()\nif pj is not None:\n    def later(*a):\n        builtins.round = lambda *a: 0\n        stash(LEFT)\n    try:\n        pj._api.scheduleCallback(later, 0)\n        print('PLANTED scheduleCallback')\n    except Exception as e:\n        print('no scheduleCallback:', e)\n    # A promise callback runs once this job's code has returned.\n    pj.loadPackage(pj.Array.new() if hasattr(pj, 'Array') else []).then(later)\n    print('PLANTED promise')`, harvest: `print(sys.__dict__.get('_stolen'))` },
  { name: 'data kept on the JavaScript side', plant: `pj = js_bridge()\nif pj is not None:\n    pj._api.stolen = LEFT\n    pj._module.stolen = LEFT\n    print('PLANTED')`, harvest: `pj = js_bridge()\nprint(getattr(pj._api, 'stolen', None) if pj else None, getattr(pj._module, 'stolen', None) if pj else None)` },
  { name: 'the snapshot every worker restores from, through JavaScript', plant: `pj = js_bridge()\nprint('PLANTED')\ntry:\n    snap = pj._api.config._loadSnapshot\n    print('REACHED SNAPSHOT')\nexcept Exception as e:\n    print('no snapshot view:', type(e).__name__)` },
];

/** A program that looks for the honest job's marker everywhere it can read. */
const HARVEST = String.raw`
import sys, os
MARK = ${JSON.stringify(MARKER)}
hits = []
for root, dirs, files in os.walk('/'):
    if root.startswith(('/proc', '/dev')): continue
    for n in files:
        p = os.path.join(root, n)
        try:
            if os.path.getsize(p) < (8 << 20) and MARK.encode() in open(p, 'rb').read(): hits.append(p)
        except Exception: pass
seen = set()
def look(o, where, depth=0):
    if id(o) in seen or depth > 4: return
    seen.add(id(o))
    if isinstance(o, (str, bytes)):
        if (MARK if isinstance(o, str) else MARK.encode()) in o: hits.append(where)
    elif isinstance(o, dict):
        for k, v in list(o.items()): look(v, where + '.' + str(k)[:30], depth + 1)
    elif isinstance(o, (list, tuple, set, frozenset)):
        for v in list(o): look(v, where + '[]', depth + 1)
for name, m in list(sys.modules.items()):
    if m is not None: look(getattr(m, '__dict__', {}), name)
print('FOUND' if hits else 'clean', hits[:5])
`;

function fingerprint(r: SandboxResult, dropUnseeded = false): string {
  const out = dropUnseeded ? r.stdout.split('\n').filter((l) => !l.startsWith('random ')).join('\n') : r.stdout;
  return JSON.stringify({ status: r.status, predictions: r.predictionsCsv, stdout: out, stderr: r.stderr, traceback: r.traceback });
}

const TIMEOUT = 60_000;
const honestJob = (): SandboxJob => ({ source: HONEST, files: honestFiles(), timeoutMs: TIMEOUT });
const attackJob = (a: Attack): SandboxJob => ({ source: PRELUDE + a.plant, files: plainFiles(), timeoutMs: TIMEOUT });
const harvestJob = (a: Attack): SandboxJob => ({ source: PRELUDE + (a.harvest ?? '') + '\n' + HARVEST, files: plainFiles(), timeoutMs: TIMEOUT });

/** Baseline, then for every attack: attacker, honest, harvester, queued at once on one slot (FIFO). */
async function runCorpus(s: SandboxSession, attacks: Attack[]): Promise<{ alone: SandboxResult; rounds: { attack: Attack; attacker: SandboxResult; honest: SandboxResult; harvest: SandboxResult }[] }> {
  const jobs = [honestJob(), ...attacks.flatMap((a) => [attackJob(a), honestJob(), harvestJob(a)])];
  const results = await s.runMany(jobs);
  return {
    alone: results[0],
    rounds: attacks.map((attack, i) => ({ attack, attacker: results[1 + 3 * i], honest: results[2 + 3 * i], harvest: results[3 + 3 * i] })),
  };
}

describe('cross-job invariance (one worker slot, attack then honest then harvest)', () => {
  let s: SandboxSession;
  beforeAll(async () => {
    s = await openSandbox();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('the honest program works and its marker is visible to a search of its own job', async () => {
    await s.start({ size: 1 });
    const [alone, self] = await s.runMany([honestJob(), { source: HONEST + '\n' + HARVEST, files: honestFiles(), timeoutMs: TIMEOUT }]);
    expect(alone.status, alone.traceback).toBe('ok');
    expect(alone.predictionsCsv?.trim().split('\n')).toHaveLength(7);
    expect(alone.stderr).toContain('honest note');
    // The harvester finds the marker where it is (so "clean" later means something).
    expect(self.stdout).toContain('FOUND');
  });

  it(`every attack (${ATTACKS.length}) leaves the next job's result and data untouched`, async () => {
    await s.start({ size: 1 });
    const { alone, rounds } = await runCorpus(s, ATTACKS);
    expect(alone.status, alone.traceback).toBe('ok');
    const interpreters = new Set([alone, ...rounds.flatMap((r) => [r.attacker, r.honest, r.harvest])].map((r) => r.interpreter));
    expect(interpreters.size, 'every job had an interpreter of its own').toBe(1 + 3 * rounds.length);
    // and each job is charged its own interpreter's start-up (the compute accounting counts it)
    for (const r of [alone, ...rounds.flatMap((x) => [x.attacker, x.honest, x.harvest])]) expect(r.bootMs, `job ${r.jobId}`).toBeGreaterThan(0);
    for (const { attack, attacker, honest, harvest } of rounds) {
      expect(attacker.stdout + attacker.stderr, `${attack.name}: the attack did not take hold in its own job (${attacker.status} ${attacker.traceback ?? ''})`).toContain('PLANTED');
      expect(attacker.stdout, attack.name).not.toContain('REACHED SNAPSHOT');
      expect(fingerprint(honest), `${attack.name}: the honest result changed`).toBe(fingerprint(alone));
      expect(harvest.status, `${attack.name}: harvester ${harvest.traceback ?? ''}`).toBe('ok');
      expect(harvest.stdout, `${attack.name}: the honest job's data reached a later job`).not.toContain(MARKER);
      expect(harvest.stdout, `${attack.name}: the attacker's own state reached a later job`).not.toContain(LEFT);
      expect(harvest.stdout, attack.name).toContain('clean');
    }
    const st = await s.stats();
    expect(st.settled).toBe(st.submitted);
  }, 900_000);

  it("the on-the-spot population (npm run score -- --csv) after an attacker gives the same runs as alone", async () => {
    await s.start({ size: 1 });
    const sabotage = ATTACKS.filter((a) => /toolkit class patched|planted builtin round|open that rewrites/.test(a.name));
    const request = { files: honestFiles(), type: 'regression' as const, metric: 'rmse' as const, size: 6, timeoutMs: TIMEOUT };
    const alone = await s.page.evaluate((req) => window.sandbox.runPopulation(req), request);
    expect(alone.runs.filter((r) => 'predictionsCsv' in r)).toHaveLength(6);
    const after = await s.page.evaluate(
      async ({ req, attackers }) => {
        // Queued first on the only slot, as the user's program is in the score command.
        const planted = attackers.map((j) => window.sandbox.run(j));
        const run = await window.sandbox.runPopulation(req);
        return { run, planted: (await Promise.all(planted)).map((r) => r.stdout) };
      },
      { req: request, attackers: sabotage.map(attackJob) },
    );
    for (const out of after.planted) expect(out).toContain('PLANTED');
    expect(after.run.runs).toEqual(alone.runs);
  }, 900_000);

  it('control: on a reused interpreter the same comparison sees the attacks (so the test above can fail)', { timeout: 900_000, tags: ['long'] }, async () => {
    await s.start({ size: 1, maxRunsPerWorker: 200, recycleHeapBytes: 4 * 1024 ** 3 });
    const leaky = ATTACKS.filter((a) => a.leaksWhenReused);
    expect(leaky.length).toBeGreaterThanOrEqual(15);
    // Each round on a worker of its own (a kill between rounds), so one attack's effect is not
    // taken for another's; within a round the worker is reused, as before this change.
    const nextWorker = async (): Promise<void> => {
      await s.page.evaluate(() => window.sandbox.killWorker(0));
      await s.page.evaluate(() => window.sandbox.whenAllReady());
    };
    const [alone] = await s.runMany([honestJob()]);
    expect(alone.status, alone.traceback).toBe('ok');
    const missed: string[] = [];
    for (const attack of leaky) {
      await nextWorker();
      const [attacker, honest, harvest] = await s.runMany([attackJob(attack), honestJob(), harvestJob(attack)]);
      const how = [attacker, honest, harvest].map((r) => `${r.interpreter}:${r.status}:${r.reason ?? ''}:${(r.traceback ?? '').slice(-200)}`).join(' | ');
      // The harvester may get a new worker: one that passed a cap is replaced, reused or not.
      expect(honest.interpreter, `${attack.name}: ${how}`).toBe(attacker.interpreter);
      // a reused interpreter's start-up is charged once, to the first job it runs
      expect(attacker.bootMs, attack.name).toBeGreaterThan(0);
      expect(honest.bootMs, attack.name).toBe(0);
      expect(attacker.stdout + attacker.stderr, attack.name).toContain('PLANTED');
      const seen = fingerprint(honest, true) !== fingerprint(alone, true) || harvest.stdout.includes(MARKER) || harvest.stdout.includes(LEFT);
      if (!seen) missed.push(attack.name);
    }
    expect(missed, 'attacks the comparison failed to see on a reused interpreter').toEqual([]);
  });
});
