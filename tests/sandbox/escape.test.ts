// The escape corpus: programs that try to leave the sandbox, run through the real browser pool while
// a canary HTTP server listens on 127.0.0.1. Every attempt must fail: the canary sees no request, no
// program reports a capability it should not have, and the hidden labels exist nowhere a program can look.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { job, openSandbox, tinyFiles, type SandboxSession } from './harness';
import { SANDBOX_WORKER_CSP } from '../../src/sandbox-pyodide/worker-csp';

// A label value that only this test process knows: it must never appear inside the sandbox.
const SECRET_LABEL = 'LBL_7f3a9c_never_in_worker';

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

function corpus(canary: string): [string, string][] {
  const head = `CANARY = ${JSON.stringify(canary)}\n`;
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
    ['frame walk to runner', 'import sys\nf = sys._getframe()\nwhile f:\n    for k, v in list(f.f_globals.items()) + list(f.f_locals.items()):\n        if "Js" in type(v).__name__:\n            print("ESCAPED", k)\n    f = f.f_back\n'],
    ['find the labels', `import os, json\nhits = []\nfor root, dirs, files in os.walk("/"):\n    if root.startswith(("/proc", "/dev", "/lib/python")): continue\n    for n in files:\n        try:\n            if ${JSON.stringify(SECRET_LABEL)}.encode() in open(os.path.join(root, n), "rb").read(): hits.append(os.path.join(root, n))\n        except Exception: pass\nprint("files", sorted(os.listdir(".")))\nif hits: print("ESCAPED", hits)\n`],
    ['labels in environment or task.json', `import os, json\nt = open("task.json").read()\nif ${JSON.stringify(SECRET_LABEL)} in t or ${JSON.stringify(SECRET_LABEL)} in str(os.environ) or "labels" in json.loads(t): print("ESCAPED")\n`],
  ];
  return list.map(([name, src]) => [name, head + src]);
}

describe('sandbox escape corpus', () => {
  let s: SandboxSession;
  let canary: Server;
  let canaryUrl = '';
  const hits: string[] = [];

  beforeAll(async () => {
    canary = createServer((req: IncomingMessage, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.end('canary');
    });
    canary.on('upgrade', (req, socket) => {
      hits.push(`UPGRADE ${req.url}`);
      socket.destroy();
    });
    canary.on('connection', () => hits.push('TCP connection'));
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
    canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
    s = await openSandbox();
    await s.start({ size: 2 });
  });
  afterAll(async () => {
    await s?.close();
    await new Promise<void>((r) => canary?.close(() => r()));
  });

  it('the canary is reachable from the test process (so silence means something)', async () => {
    const res = await fetch(`${canaryUrl}/self-check`);
    expect(await res.text()).toBe('canary');
    expect(hits.splice(0)).toContain('GET /self-check');
  });

  it('serves the worker script with the sandbox CSP', async () => {
    // The bundler may put the worker's URL in any shared chunk: find the built worker file itself.
    const assets = resolve(import.meta.dirname, '../../dist/assets');
    const worker = readdirSync(assets).find((f) => /^sandbox-worker-[\w-]+\.js$/.test(f));
    expect(worker).toBeTruthy();
    const workerPath = `assets/${worker}`;
    const res = await fetch(new URL(workerPath as string, s.served.url));
    expect(res.headers.get('content-security-policy')).toBe(SANDBOX_WORKER_CSP);
    expect(SANDBOX_WORKER_CSP).toContain("connect-src 'none'");
  });

  it('blocks every attempt in the corpus, and the canary hears nothing', async () => {
    const attempts = corpus(canaryUrl);
    expect(attempts.length).toBeGreaterThanOrEqual(30);
    const files = tinyFiles();
    const results = await s.runMany(attempts.map(([, src]) => job(src, 20_000, files)));
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
    const walk = report.find((x) => x.name === 'walk to JavaScript');
    expect(walk?.status).toBe('ok');
    expect(walk?.out).toMatch(/walked \d+ js proxies \d+/);
    // Give any stray request time to land before judging the canary.
    await new Promise((r) => setTimeout(r, 500));
    expect(hits).toEqual([]);
    const st = await s.stats();
    expect(st.ignoredMessages).toBe(0);
    expect(st.settled).toBe(st.submitted);
  });

  it('still serves correct results after the corpus', async () => {
    const r = await s.run(job("import csv\nrows = list(csv.DictReader(open('test.csv')))\nopen('predictions.csv','w').write('prediction\\n' + '\\n'.join('1' for _ in rows) + '\\n')\n"));
    expect(r.status).toBe('ok');
    expect(r.predictionsCsv).toBe('prediction\n1\n1\n1\n1\n1\n');
  });
});
