// One sandbox worker: Pyodide restored from the page's memory snapshot, Python guards installed,
// network/storage/messaging globals deleted, then one program at a time. This script is served with
// a CSP (`connect-src 'none'`, see worker-csp.ts), so it fetches nothing: the page hands over the
// compiled wasm module, the standard library and the snapshot, and a fetch shim answers Pyodide's
// own start-up requests from those bytes. Only module scripts from our origin can load.
/// <reference lib="webworker" />
import type { PyodideAPI } from 'pyodide';
import type { PageToWorker, WorkerBoot, WorkerDone, WorkerRun, WorkerToPage, WorkerStatus } from './protocol';
import { BLOCKED_MODULES, GUARD_SOURCE, WORKDIR } from './python-guard';
import { lockDownGlobals } from './worker-lockdown';
import { decodePredictions, predictionsSizeProblem } from '../tasks/text-files';

type LoadPyodide = (typeof import('pyodide'))['loadPyodide'];
type PyProxyFn = ((...args: unknown[]) => unknown) & { destroy(): void };
interface PyTuple {
  toJs(): unknown[];
  destroy(): void;
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
// Captured before lock-down: the only way out of this worker afterwards.
const postOriginal = scope.postMessage.bind(scope) as (msg: unknown) => void;
const post: (msg: WorkerToPage) => void = (msg) => postOriginal(msg);
const LIB_ROOT = '/lib/sandbox';
const PRE_IMPORTS = [
  'csv', 'json', 'math', 'random', 'statistics', 'collections', 'itertools', 'functools', 'io', 're',
  'traceback', 'heapq', 'bisect', 'time', 'os', 'copy', 'operator', 'string', 'dataclasses', 'typing',
  'compileall', 'py_compile',
];

let pyodide: PyodideAPI | null = null;
let runner: PyProxyFn | null = null;
let boot: WorkerBoot | null = null;
let fatal = false;

// Captured output of the current run, capped in bytes.
const decoder = new TextDecoder();
let outCap = 1 << 20;
let outBytes = 0;
let truncated = false;
let stdoutChunks: string[] = [];
let stderrChunks: string[] = [];
function capture(into: () => string[]) {
  return {
    write(buf: Uint8Array): number {
      const room = outCap - outBytes;
      if (room <= 0) {
        truncated = true;
      } else {
        const part = buf.length > room ? buf.subarray(0, room) : buf;
        into().push(decoder.decode(part, { stream: false }));
        outBytes += part.length;
        if (part.length < buf.length) truncated = true;
      }
      return buf.length;
    },
  };
}

/** Caps wasm memory growth: past the cap, growth fails and Python raises MemoryError. */
function capMemoryGrowth(capBytes: number): void {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, delta: number): number {
    if (this.buffer.byteLength + delta * 65536 > capBytes) throw new RangeError('sandbox: memory cap reached');
    return grow.call(this, delta);
  };
}

/** Answers Pyodide's start-up requests from bytes the page sent; nothing reaches the network. */
function installBootShims(b: WorkerBoot): () => void {
  const original = { fetch: scope.fetch, streaming: WebAssembly.instantiateStreaming };
  const stdlibUrl = new URL(b.indexURL + 'python_stdlib.zip').href;
  scope.fetch = async (input: RequestInfo | URL): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), b.indexURL).href;
    if (url === stdlibUrl) return new Response(new Uint8Array(b.stdlibZip).slice());
    // The wasm binary: its response is never read (instantiateStreaming below uses the module).
    if (url.endsWith('pyodide.asm.wasm')) return new Response(null);
    throw new TypeError(`sandbox: no network (${url})`);
  };
  WebAssembly.instantiateStreaming = (async (_source: unknown, imports?: WebAssembly.Imports) => {
    const instance = await WebAssembly.instantiate(b.wasmModule, imports);
    return { instance, module: b.wasmModule };
  }) as typeof WebAssembly.instantiateStreaming;
  return () => {
    scope.fetch = original.fetch;
    WebAssembly.instantiateStreaming = original.streaming;
  };
}

function heapBytes(): number {
  const mod = (pyodide as unknown as { _module?: { HEAP8?: Int8Array } } | null)?._module;
  return mod?.HEAP8?.buffer.byteLength ?? 0;
}

/** Fails writes into MEMFS past a per-run total, so a file bomb cannot exhaust the tab's memory. */
let fsGrown = 0;
function capFileGrowth(py: PyodideAPI, capBytes: number): void {
  type Node = { contents: Uint8Array | null };
  const fs = py.FS as unknown as {
    filesystems: { MEMFS: { expandFileStorage(node: Node, cap: number): void } };
    ErrnoError: new (errno: number) => Error;
  };
  const memfs = fs.filesystems.MEMFS;
  const expand = memfs.expandFileStorage.bind(memfs);
  memfs.expandFileStorage = (node: Node, newCapacity: number) => {
    const before = node.contents?.length ?? 0;
    if (newCapacity <= before) return;
    if (fsGrown + (newCapacity - before) > capBytes) throw new fs.ErrnoError(51 /* ENOSPC */);
    expand(node, newCapacity);
    // Count what was really allocated (MEMFS grows capacity geometrically).
    fsGrown += (node.contents?.length ?? 0) - before;
  };
}

function writeLibrary(py: PyodideAPI, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const path = `${LIB_ROOT}/${rel}`;
    py.FS.mkdirTree(path.slice(0, path.lastIndexOf('/')));
    py.FS.writeFile(path, text);
  }
}

async function start(b: WorkerBoot): Promise<void> {
  const t0 = performance.now();
  boot = b;
  outCap = b.outputCapBytes;
  capMemoryGrowth(b.memoryCapBytes);
  const restoreShims = installBootShims(b);
  const phases: Record<string, number> = {};
  const mark = (name: string) => (phases[name] = performance.now() - t0);
  const mod = (await import(/* @vite-ignore */ `${b.indexURL}pyodide.mjs`)) as { loadPyodide: LoadPyodide };
  const asm = (await import(/* @vite-ignore */ `${b.indexURL}pyodide.asm.mjs`)) as {
    default: NonNullable<Parameters<LoadPyodide>[0]>['createPyodideModule'];
  };
  mark('imported');
  const py = await mod.loadPyodide({
    indexURL: b.indexURL,
    lockFileContents: b.lockFileJson,
    createPyodideModule: asm.default,
    // The `js` module is this empty object, not the worker's global scope.
    jsglobals: Object.create(null) as object,
    stdout: () => {},
    stderr: () => {},
    env: { HOME: '/home/pyodide' },
    _makeSnapshot: b.makeSnapshot,
    // A private copy: Pyodide reads the snapshot header with TextDecoder, which refuses shared memory.
    ...(b.snapshot ? { _loadSnapshot: new Uint8Array(b.snapshot).slice() } : {}),
  });
  restoreShims();
  pyodide = py;
  mark('loaded');

  if (b.makeSnapshot) {
    // Everything that does not depend on this worker goes into the snapshot: common imports and the
    // guards (audit hooks and import blocks live in the wasm heap, so restored workers have them).
    py.runPython(`import ${PRE_IMPORTS.join(', ')}`);
    py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(LIB_ROOT)})\nsys.dont_write_bytecode = True`);
    const ns = py.toPy({}) as unknown as { get(k: string): PyProxyFn; clear(): void; destroy(): void };
    py.runPython(GUARD_SOURCE, { globals: ns as never });
    const make = ns.get('_sandbox_make_runner');
    const pair = make(WORKDIR, py.toPy([...BLOCKED_MODULES]), 256 * 1024 * 1024) as PyProxyFn;
    const keep = py.runPython('import sys\nlambda pair: setattr(sys, "_sandbox_runner", pair)') as PyProxyFn;
    keep(pair);
    keep.destroy();
    make.destroy();
    pair.destroy();
    ns.clear();
    ns.destroy();
    mark('guarded');
    const snapshot = py.makeMemorySnapshot();
    const shared = new SharedArrayBuffer(snapshot.byteLength);
    new Uint8Array(shared).set(snapshot);
    mark('snapshot');
    post({ type: 'snapshot', snapshot: shared, bootMs: performance.now() - t0, phases });
    return;
  }

  writeLibrary(py, b.pythonFiles);
  py.FS.mkdirTree(WORKDIR);
  py.FS.mkdirTree('/tmp');
  capFileGrowth(py, 256 * 1024 * 1024);
  py.setStdout({ write: capture(() => stdoutChunks).write });
  py.setStderr({ write: capture(() => stderrChunks).write });
  py.setInterruptBuffer(new Uint8Array(b.interruptBuffer));
  mark('files');
  // The runner the snapshot left on sys, taken off before any program can see it there; arming the
  // guards hides Pyodide's JS bridges, which its start-up after the restore still needed.
  const pair = py.runPython('import sys\nsys.__dict__.pop("_sandbox_runner")') as PyTuple & { get(i: number): PyProxyFn };
  runner = pair.get(0);
  const arm = pair.get(1);
  pair.destroy();
  arm();
  arm.destroy();
  mark('guarded');
  const leftoverGlobals = lockDownGlobals(scope);
  mark('locked');
  post({ type: 'ready', workerId: b.workerId, bootMs: performance.now() - t0, phases, fromSnapshot: !!b.snapshot, leftoverGlobals, heapBytes: heapBytes() });
}

function clearWorkdir(py: PyodideAPI): void {
  const fs = py.FS as unknown as {
    readdir(p: string): string[];
    stat(p: string): { mode: number };
    isDir(mode: number): boolean;
    unlink(p: string): void;
    rmdir(p: string): void;
  };
  const remove = (p: string): void => {
    for (const name of fs.readdir(p)) {
      if (name === '.' || name === '..') continue;
      const child = `${p}/${name}`;
      if (fs.isDir(fs.stat(child).mode)) {
        remove(child);
        fs.rmdir(child);
      } else fs.unlink(child);
    }
  };
  remove(WORKDIR);
  remove('/tmp');
}

/** predictions.csv as text, or why it cannot be graded (too large, not UTF-8, binary); neither when absent. */
function readPredictions(py: PyodideAPI): { csv?: string; problem?: string } {
  const path = `${WORKDIR}/predictions.csv`;
  let size: number;
  try {
    size = (py.FS.stat(path) as unknown as { size: number }).size;
  } catch {
    return {};
  }
  // Checked before reading, so a huge file is never copied out of the wasm heap.
  const tooLarge = predictionsSizeProblem(size);
  if (tooLarge) return { problem: tooLarge };
  const read = decodePredictions(py.FS.readFile(path) as Uint8Array);
  return read.ok ? { csv: read.text } : { problem: read.message };
}

function runJob(job: WorkerRun): void {
  const py = pyodide;
  stdoutChunks = [];
  stderrChunks = [];
  outBytes = 0;
  truncated = false;
  fsGrown = 0;
  const base = { type: 'done' as const, jobId: job.jobId, nonce: job.nonce };
  if (!py || !runner || fatal) {
    post({ ...base, status: 'error', stdout: '', stderr: '', outputTruncated: false, traceback: 'sandbox worker is not usable', seconds: 0, heapBytes: heapBytes(), fatal: true });
    return;
  }
  let status: WorkerStatus = 'error';
  let traceback: string | undefined;
  let seconds = 0;
  let predictionsCsv: string | undefined;
  let predictionsProblem: string | undefined;
  try {
    clearWorkdir(py);
    for (const [name, text] of Object.entries(job.files)) py.FS.writeFile(`${WORKDIR}/${name}`, text);
    const t0 = performance.now();
    let out: PyTuple | null = null;
    try {
      out = runner(job.source) as PyTuple;
      const [s, tb, secs] = out.toJs() as [WorkerStatus, string | null | undefined, number];
      status = s;
      traceback = tb ?? undefined;
      seconds = secs;
    } finally {
      out?.destroy();
    }
    if (!(seconds > 0)) seconds = (performance.now() - t0) / 1000;
    ({ csv: predictionsCsv, problem: predictionsProblem } = readPredictions(py));
  } catch (e) {
    // An exception out of the runner itself means Pyodide's state is broken: recycle.
    fatal = true;
    status = 'error';
    traceback = `sandbox: fatal Pyodide error: ${e instanceof Error ? e.message : String(e)}`;
  }
  const done: WorkerDone = {
    ...base,
    status,
    predictionsCsv,
    predictionsProblem,
    stdout: stdoutChunks.join(''),
    stderr: stderrChunks.join(''),
    outputTruncated: truncated,
    traceback,
    seconds,
    heapBytes: heapBytes(),
    fatal,
  };
  post(done);
}

scope.addEventListener('message', (event: MessageEvent<PageToWorker>) => {
  const msg = event.data;
  if (msg.type === 'boot') {
    if (boot) return;
    start(msg).catch((e: unknown) => post({ type: 'boot-failed', message: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) }));
  } else if (msg.type === 'run') {
    runJob(msg);
  }
});
