// One sandbox worker: Pyodide restored from the page's memory snapshot, Python guards installed,
// network/storage/messaging globals deleted, then one program (by default the pool ends the worker
// after it, so no program sees an interpreter another one touched). This script is served with
// a CSP (`connect-src 'none'`, see worker-csp.ts), so it fetches nothing: the page hands over the
// compiled wasm module, the standard library and the snapshot, and a fetch shim answers Pyodide's
// own start-up requests from those bytes. Only module scripts from our origin can load.
/// <reference lib="webworker" />
import type { PyodideAPI } from 'pyodide';
import {
  COUNTER_TAMPERED_MESSAGE, FILE_NODE_BYTES, limitMessage,
  type PageToWorker, type ResourceLimit, type RunLimit, type WorkerBoot, type WorkerDone, type WorkerRun, type WorkerToPage, type WorkerStatus,
} from './protocol.ts';
import { BLOCKED_MODULES, GUARD_SOURCE, WORKDIR } from './python-guard.ts';
import { lockDownGlobals } from './worker-lockdown.ts';
import { boundaryMessage, unrefusedProbes } from './worker-boundary.ts';
import workChargesSource from './python/work_charges.py?raw';
import { hardStopFor, WORK_UNIT_CHECKS, workLimitMessage, type WorkRule } from './work-rule.ts';
import { FUEL_EXPORT } from '../../scripts/wasm-meter.mjs';
import { decodePredictions, predictionsSizeProblem } from '../tasks/text-files.ts';

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
// Imported once, into the snapshot: every job then finds them loaded instead of compiling them
// again (the toolkit has no bytecode cache: sys.dont_write_bytecode).
const PRE_IMPORTS = [
  'csv', 'json', 'math', 'random', 'statistics', 'collections', 'itertools', 'functools', 'io', 're',
  'traceback', 'heapq', 'bisect', 'time', 'os', 'copy', 'operator', 'string', 'dataclasses', 'typing',
  'compileall', 'py_compile', 'toolkit',
];

/** A start-up refused because the worker's boundary does not hold: its message is for the user, no stack. */
class BoundaryError extends Error {}

let pyodide: PyodideAPI | null = null;
let runner: PyProxyFn | null = null;
let booted = false;
let fatal = false;

// The job now running, and the first cap it passed.
let current: { jobId: number; nonce: string } | null = null;
let limitHit: { limit: RunLimit; message: string } | null = null;
let interruptFlag: Uint8Array | null = null;
const caps = { memory: 0, files: 0, output: 0 };

/**
 * A run passed a cap or its work budget: tell the page at once (it ends the worker a grace later if
 * no result comes) and raise KeyboardInterrupt at the next bytecode check, so a program that catches
 * the error (MemoryError, OSError) still stops.
 */
function hitLimit(limit: RunLimit, message = limitMessage(limit as ResourceLimit, caps[limit as ResourceLimit])): void {
  if (!current || limitHit) return;
  limitHit = { limit, message };
  if (interruptFlag) Atomics.store(interruptFlag, 0, 2);
  post({ type: 'limit', jobId: current.jobId, nonce: current.nonce, ...limitHit });
}

/**
 * The work counter, two rules (work-rule.ts).
 *
 * Rule 2: the interpreter's wasm is metered (scripts/wasm-meter.mjs): a fuel global, charged at
 * every loop iteration, function call and bulk copy of the interpreter's compiled code, C included.
 * The job's fuel is set to hardStopFor(budget) before it runs; the count is what it used. Past the
 * budget the interrupt check below answers 2 (SIGINT); past the hard stop the interpreter traps,
 * which ends C code that never checks (the worker is then replaced).
 *
 * Rule 1: CPython in Pyodide reads `Module.Py_EmscriptenSignalBuffer[0]` once every
 * WORK_UNIT_CHECKS eval-breaker checks (loop back-edges, Python function starts) to look for an
 * interrupt; each read is one work unit.
 *
 * Both: the worker puts an object at `Py_EmscriptenSignalBuffer` whose index 0 is a getter. Past
 * the budget it answers 2 (SIGINT): KeyboardInterrupt in the program, again every
 * REINTERRUPT_UNITS reads while a program that swallowed it carries on; the page ends the worker a
 * grace later anyway, and the job's status is `timeout` whatever the program does after. The count
 * lives here and in the wasm global, which is not among the exports Pyodide sees: from Python a
 * program can neither read nor reset it.
 */
const REINTERRUPT_UNITS = 100;
const work = {
  used: 0,
  budget: Number.POSITIVE_INFINITY,
  rule: 2 as WorkRule,
  /** Rule 2: the fuel the job started with. */
  start: 0n,
  counting: false,
  over: false,
  tampered: false,
  untilInterrupt: 0,
};
const UNMETERED_MESSAGE =
  'sandbox: this Python runtime has no work meter, so the work budget cannot count (public/vendor/pyodide/pyodide.asm.wasm is written, metered, by scripts/vendor-assets.mjs: run `npm run build`)';
/** The metered interpreter's fuel (rule 2); null when the module is not metered. */
let fuel: WebAssembly.Global | null = null;

/** Rule 2's count so far. */
function fuelUsed(): number {
  return fuel ? Number(work.start - (fuel.value as bigint)) : 0;
}

/** The job passed its budget: tell the page (once), and interrupt. */
function overBudget(): void {
  if (!work.over) {
    work.over = true;
    hitLimit('work', workLimitMessage(work.budget, work.rule));
  }
}

let signalHandlingAddr = -1;
let signalClockAddr = -1;
type PyModule = Record<string, unknown> & { HEAP8: Int8Array; HEAP32: Int32Array; _Py_EMSCRIPTEN_SIGNAL_HANDLING: number; __Py_emscripten_signal_clock: number };
let pyModule: PyModule | null = null;

function installWorkCounter(py: PyodideAPI, flag: Uint8Array): void {
  const mod = (py as unknown as { _module: PyModule })._module;
  const counter = {
    get 0(): number {
      if (work.counting) {
        if (work.rule === 2) work.used = fuelUsed();
        else work.used++;
        if (work.used > work.budget) {
          overBudget();
          if (--work.untilInterrupt <= 0) {
            work.untilInterrupt = REINTERRUPT_UNITS;
            return 2;
          }
        }
      }
      return Atomics.load(flag, 0);
    },
    set 0(v: number) {
      Atomics.store(flag, 0, v);
    },
  };
  // Turns the check on (Pyodide sets its flag in the wasm heap) and points it at the page's buffer...
  py.setInterruptBuffer(flag);
  // ...then at the counter, for good: a program that reaches Pyodide's JavaScript API and sets
  // another buffer (or none) is caught here.
  Object.defineProperty(mod, 'Py_EmscriptenSignalBuffer', {
    get: () => counter,
    set: () => {
      if (!work.counting) return;
      work.tampered = true;
      hitLimit('work', COUNTER_TAMPERED_MESSAGE);
    },
    configurable: false,
  });
  // The addresses of the check's on/off flag and of its countdown: kept here, and taken off the
  // module object a program can reach through Pyodide's JavaScript API (it could otherwise switch
  // the check off, or wind the countdown back, by writing the wasm heap).
  signalHandlingAddr = mod._Py_EMSCRIPTEN_SIGNAL_HANDLING;
  signalClockAddr = mod.__Py_emscripten_signal_clock;
  for (const name of ['_Py_EMSCRIPTEN_SIGNAL_HANDLING', '__Py_emscripten_signal_clock']) {
    Object.defineProperty(mod, name, { value: undefined, writable: false, configurable: false });
  }
  pyModule = mod;
}

/**
 * Starts a job's count at zero with the countdown at its full period, so every job counts from the
 * same phase whatever ran in the worker before.
 */
function resetWorkCounter(budget: number, rule: WorkRule): void {
  work.used = 0;
  work.budget = budget;
  work.rule = rule;
  // Rule 1 leaves the meter too full to stop anything.
  work.start = rule === 2 ? BigInt(hardStopFor(budget)) : 1n << 62n;
  if (fuel) fuel.value = work.start;
  work.over = false;
  work.tampered = false;
  work.untilInterrupt = 0;
  if (pyModule && signalClockAddr > 0) pyModule.HEAP32[signalClockAddr >> 2] = WORK_UNIT_CHECKS;
}

/**
 * Rule 1 only: work done inside C calls that the toolkit makes (KNN's distances:
 * python/work_charges.py) is charged here (rule 2's meter sees C work itself). Only ever adds: a
 * program that calls this itself can only make its own count larger.
 */
function chargeWork(units: unknown): void {
  const n = Math.floor(Number(units));
  if (!work.counting || work.rule !== 1 || !(n > 0)) return;
  work.used += n;
  if (work.used > work.budget) overBudget();
}

function installWorkCharges(py: PyodideAPI): void {
  const ns = py.toPy({}) as unknown as { get(k: string): PyProxyFn; destroy(): void };
  py.runPython(workChargesSource, { globals: ns as never });
  const install = ns.get('install');
  install(chargeWork);
  install.destroy();
  ns.destroy();
}

/** True when the interrupt check is still on, as the counter left it. */
function counterIntact(): boolean {
  return !work.tampered && (!pyModule || signalHandlingAddr < 0 || pyModule.HEAP8[signalHandlingAddr] === 1);
}

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
      if (truncated) hitLimit('output');
      return buf.length;
    },
  };
}

/** Caps wasm memory growth: past the cap, growth fails and Python raises MemoryError. */
function capMemoryGrowth(capBytes: number): void {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, delta: number): number {
    if (this.buffer.byteLength + delta * 65536 > capBytes) {
      hitLimit('memory');
      throw new RangeError('sandbox: memory cap reached');
    }
    return grow.call(this, delta);
  };
}

/**
 * Compiles each small wasm module once during start-up: Emscripten wraps every JavaScript function
 * it puts in the wasm table in a tiny module of its own (about 260 of them, 30 distinct), which is
 * about a tenth of a worker's start-up when each is compiled again.
 */
function cacheSmallModules(): () => void {
  const Module = WebAssembly.Module;
  const compiled = new Map<string, WebAssembly.Module>();
  WebAssembly.Module = new Proxy(Module, {
    construct(target, args: [BufferSource]) {
      const bytes = ArrayBuffer.isView(args[0]) ? new Uint8Array(args[0].buffer, args[0].byteOffset, args[0].byteLength) : new Uint8Array(args[0]);
      if (bytes.length > 4096) return new target(args[0]);
      const key = bytes.join(',');
      let m = compiled.get(key);
      if (!m) compiled.set(key, (m = new target(args[0])));
      return m;
    },
  });
  return () => {
    WebAssembly.Module = Module;
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
    // The work meter's fuel stays here: Pyodide (and so a program) gets every export but it.
    const { [FUEL_EXPORT]: meter, ...exports } = instance.exports;
    fuel = meter instanceof WebAssembly.Global ? meter : null;
    return { instance: { exports: Object.freeze(exports) }, module: b.wasmModule };
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

/**
 * Caps what a run stores in MEMFS (JavaScript memory outside the wasm heap, so the memory cap does
 * not see it): every allocation of file storage is charged before it happens, on each path that
 * allocates (the write fast path that copies a whole first write, growth, truncate to a larger size,
 * msync), and every new file or directory costs FILE_NODE_BYTES. Storage is never refunded, so the
 * count bounds what the run can hold. Past the cap the operation fails with ENOSPC.
 */
let fsBytes = 0;
function capFileStorage(py: PyodideAPI): void {
  type Node = { contents: unknown; mode: number };
  type Write = (stream: { node: Node }, buffer: Uint8Array, offset: number, length: number, position: number, canOwn?: boolean) => number;
  type NodeOps = { setattr?: (node: Node, attr: { size?: number }) => void };
  const fs = py.FS as unknown as {
    filesystems: {
      MEMFS: {
        createNode(...args: unknown[]): Node;
        stream_ops: { write: Write };
        ops_table: Record<string, { node: NodeOps; stream: { write?: Write } }> | null;
      };
    };
    isFile(mode: number): boolean;
    ErrnoError: new (errno: number) => Error;
  };
  const memfs = fs.filesystems.MEMFS;
  if (!memfs.ops_table) throw new Error('sandbox: MEMFS has no ops table yet');
  const capacity = (node: Node): number => (node.contents instanceof Uint8Array ? node.contents.length : 0);
  const charge = (bytes: number): void => {
    if (bytes <= 0) return;
    if (fsBytes + bytes > caps.files) {
      hitLimit('files');
      throw new fs.ErrnoError(51 /* ENOSPC */);
    }
    fsBytes += bytes;
  };
  const write = memfs.stream_ops.write;
  const cappedWrite: Write = function (this: unknown, stream, buffer, offset, length, position, canOwn) {
    const before = capacity(stream.node);
    const end = position + length;
    charge(end - before);
    const written = write.call(this, stream, buffer, offset, length, position, canOwn);
    // MEMFS grows capacity geometrically: count what it really allocated beyond the charge.
    fsBytes += Math.max(0, capacity(stream.node) - Math.max(before, end));
    return written;
  };
  memfs.stream_ops.write = cappedWrite; // msync writes through this one
  for (const ops of Object.values(memfs.ops_table)) {
    if (ops.stream.write) ops.stream.write = cappedWrite;
    const setattr = ops.node.setattr;
    if (!setattr) continue;
    ops.node.setattr = function (this: unknown, node, attr) {
      if (attr.size !== undefined && fs.isFile(node.mode)) charge(attr.size - capacity(node));
      return setattr.call(this, node, attr);
    };
  }
  const createNode = memfs.createNode;
  memfs.createNode = function (this: unknown, ...args: unknown[]): Node {
    charge(FILE_NODE_BYTES);
    return createNode.apply(this, args);
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
  // Before anything else: a worker whose CSP is not in force never runs a program (worker-boundary.ts).
  const open = await unrefusedProbes();
  if (open.length > 0) throw new BoundaryError(boundaryMessage(open));
  outCap = b.outputCapBytes;
  caps.memory = b.memoryCapBytes;
  caps.files = b.fileCapBytes;
  caps.output = b.outputCapBytes;
  capMemoryGrowth(b.memoryCapBytes);
  const restoreShims = installBootShims(b);
  const restoreModule = cacheSmallModules();
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
    // A private copy: Pyodide reads the snapshot header with TextDecoder, which refuses shared
    // memory; and nothing in this worker may hold a view of the buffer every later worker restores from.
    ...(b.snapshot ? { _loadSnapshot: new Uint8Array(b.snapshot).slice() } : {}),
  });
  restoreShims();
  restoreModule();
  // Pyodide keeps its options, the copy included: tens of MB each worker need not hold.
  const config = (py as unknown as { _api?: { config?: Record<string, unknown> } })._api?.config;
  if (config) delete config._loadSnapshot;
  pyodide = py;
  mark('loaded');

  if (b.makeSnapshot) {
    // Everything that does not depend on this worker goes into the snapshot: common imports (the
    // toolkit too) and the guards (audit hooks and import blocks live in the wasm heap, so restored
    // workers have them).
    writeLibrary(py, b.pythonFiles);
    py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(LIB_ROOT)})\nsys.dont_write_bytecode = True`);
    py.runPython(`import ${PRE_IMPORTS.join(', ')}`);
    const ns = py.toPy({}) as unknown as { get(k: string): PyProxyFn; clear(): void; destroy(): void };
    py.runPython(GUARD_SOURCE, { globals: ns as never });
    const make = ns.get('_sandbox_make_runner');
    const pair = make(WORKDIR, py.toPy([...BLOCKED_MODULES])) as PyProxyFn;
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

  // The library's files again (the snapshot holds the imported modules, not the file system): for
  // tracebacks through the toolkit, and a program that reads them.
  writeLibrary(py, b.pythonFiles);
  py.FS.mkdirTree(WORKDIR);
  py.FS.mkdirTree('/tmp');
  capFileStorage(py);
  py.setStdout({ write: capture(() => stdoutChunks).write });
  py.setStderr({ write: capture(() => stderrChunks).write });
  interruptFlag = new Uint8Array(b.interruptBuffer);
  if (b.countWork && !fuel) throw new Error(UNMETERED_MESSAGE);
  if (b.countWork) {
    installWorkCounter(py, interruptFlag);
    installWorkCharges(py);
  } else {
    py.setInterruptBuffer(interruptFlag);
  }
  mark('files');
  // The runner the snapshot left on sys, taken off before any program can see it there; arming the
  // guards hides Pyodide's JS bridges, which its start-up after the restore still needed.
  const pair = py.runPython('import sys\nsys.__dict__.pop("_sandbox_runner")') as PyTuple & { get(i: number): PyProxyFn };
  runner = pair.get(0);
  const arm = pair.get(1);
  pair.destroy();
  arm(b.reuse);
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

/** Which of `names` (dotted paths from the global scope) this worker can reach. */
function reachable(names: readonly string[]): string[] {
  return names.filter((name) => {
    let o: unknown = scope;
    for (const part of name.split('.')) {
      if (o === null || o === undefined || !(part in Object(o))) return false;
      o = (o as Record<string, unknown>)[part];
    }
    return true;
  });
}

function runJob(job: WorkerRun): void {
  const py = pyodide;
  stdoutChunks = [];
  stderrChunks = [];
  outBytes = 0;
  truncated = false;
  limitHit = null;
  const base = { type: 'done' as const, jobId: job.jobId, nonce: job.nonce };
  const present = new Set(job.probeGlobals ? reachable(job.probeGlobals) : []);
  if (!py || !runner || fatal) {
    post({ ...base, status: 'error', stdout: '', stderr: '', outputTruncated: false, traceback: 'sandbox worker is not usable', seconds: 0, heapBytes: heapBytes(), fileBytes: 0, work: 0, fatal: true });
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
    // The inputs are the job's, not the program's: the file cap counts from here.
    fsBytes = 0;
    current = { jobId: job.jobId, nonce: job.nonce };
    const t0 = performance.now();
    let out: PyTuple | null = null;
    resetWorkCounter(job.workBudget, job.workRule);
    work.counting = true;
    try {
      out = runner(job.source) as PyTuple;
      const [s, tb, secs] = out.toJs() as [WorkerStatus, string | null | undefined, number];
      status = s;
      traceback = tb ?? undefined;
      seconds = secs;
    } finally {
      if (work.rule === 2) work.used = fuelUsed();
      work.counting = false;
      // What runs between jobs (the result's conversion, a reused worker's clean-up) never meets the trap.
      if (fuel) fuel.value = 1n << 62n;
      out?.destroy();
    }
    // A run that passed its budget inside C code, where no check looked, is over it all the same.
    if (work.used > work.budget) overBudget();
    if (pyModule && !counterIntact()) hitLimit('work', COUNTER_TAMPERED_MESSAGE);
    if (!(seconds > 0)) seconds = (performance.now() - t0) / 1000;
    ({ csv: predictionsCsv, problem: predictionsProblem } = readPredictions(py));
  } catch (e) {
    // The meter's hard stop (rule 2): the interpreter trapped past the budget (the count was taken
    // in the `finally` above, before the fuel was refilled). A timeout.
    if (work.rule === 2 && work.used > work.budget) overBudget();
    // An exception out of the runner itself means Pyodide's state is broken: recycle.
    fatal = true;
    status = 'error';
    traceback = `sandbox: fatal Pyodide error: ${e instanceof Error ? e.message : String(e)}`;
  }
  work.counting = false;
  current = null;
  // Set by hitLimit during the run (TypeScript cannot see that through the call).
  const hit = limitHit as { limit: RunLimit; message: string } | null;
  if (job.probeGlobals) for (const name of reachable(job.probeGlobals)) present.add(name);
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
    fileBytes: fsBytes,
    work: work.used,
    ...(hit ? { limit: hit.limit, limitMessage: hit.message } : {}),
    ...(job.probeGlobals ? { globalsPresent: [...present] } : {}),
    fatal,
  };
  post(done);
}

scope.addEventListener('message', (event: MessageEvent<PageToWorker>) => {
  const msg = event.data;
  if (msg.type === 'boot') {
    if (booted) return;
    booted = true;
    start(msg).catch((e: unknown) => post({ type: 'boot-failed', message: e instanceof BoundaryError ? e.message : e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) }));
  } else if (msg.type === 'run') {
    runJob(msg);
  }
});
