// ============================================================================================
//  TRUSTED PROGRAMS ONLY. In Node, Pyodide can reach the host (files, processes, network):
//  it is NOT a sandbox here. Use this runner for the project's own programs (reference
//  programs for leaderboards, toolkit tests, fixtures). NEVER pass it agent-written or
//  user-written source: those go through the hardened browser worker pool.
// ============================================================================================
//
// Loads Pyodide once from node_modules, writes the toolkit and the runner into its file system,
// and runs one program at a time in a job folder that is emptied before and after every run.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadPyodide, type PyodideAPI } from 'pyodide';
import type { PyProxy } from 'pyodide/ffi';

export interface TrustedRunResult {
  status: 'ok' | 'error';
  /** predictions.csv as the program left it; absent if it wrote none. */
  predictionsCsv?: string;
  stdout: string;
  stderr: string;
  traceback?: string;
  /** Program run time inside Python (exec only). */
  seconds: number;
  /** True when the run was interrupted because it passed timeoutMs. */
  timedOut: boolean;
  /** True when stdout or stderr passed the output cap. */
  outputTruncated: boolean;
}

export interface TrustedRunnerOptions {
  /** Characters of stdout and of stderr kept per run. */
  outputCap?: number;
}

const LIB_DIR = '/wmrl_lib';
const JOB_DIR = '/job';
const RUNNER_MODULE = 'wmrl_runner';

/** The toolkit package and the runner, read from this source tree, keyed by library-relative path. */
export function readPythonLibrary(): Record<string, string> {
  const root = join(dirname(fileURLToPath(import.meta.url)), 'python');
  const files: Record<string, string> = {};
  for (const name of readdirSync(join(root, 'toolkit'))) {
    if (name.endsWith('.py')) files[`toolkit/${name}`] = readFileSync(join(root, 'toolkit', name), 'utf8');
  }
  files[`${RUNNER_MODULE}.py`] = readFileSync(join(root, 'runner.py'), 'utf8');
  return files;
}

/**
 * SHA-256 over the Python library's paths and sources: leaderboards record it, so a toolkit change
 * that would move their values is caught (tests compare it with the committed leaderboards).
 */
export function pythonLibraryHash(lib: Record<string, string> = readPythonLibrary()): string {
  const h = createHash('sha256');
  for (const k of Object.keys(lib).sort()) h.update(k).update('\u0000').update(lib[k]).update('\u0000');
  return h.digest('hex');
}

// Counts down in a worker thread while Python holds the main thread, then raises the interrupt flag,
// and raises it again every REINTERRUPT_MS until the run ends: Python can consume an interrupt and
// lose it (C code that checks for signals and clears the error), and one lost interrupt would leave
// an endless program holding this thread forever. `fired` tells the runner the deadline passed.
const REINTERRUPT_MS = 100;
const TIMER_SOURCE = `
const { workerData } = require('node:worker_threads');
const flag = new Uint8Array(workerData.sab, 0, 1);
const cancel = new Int32Array(workerData.sab, 4, 1);
const fired = new Int32Array(workerData.sab, 8, 1);
if (Atomics.wait(cancel, 0, 0, workerData.ms) === 'timed-out') {
  Atomics.store(fired, 0, 1);
  do Atomics.store(flag, 0, 2);
  while (Atomics.wait(cancel, 0, 0, ${REINTERRUPT_MS}) === 'timed-out');
}
`;

// Runs after a timed run with the timer stopped and the flag cleared: an interrupt Python took from the
// flag but has not raised yet surfaces here (or at the top of this code, so it is retried).
const DRAIN_SOURCE = 'try:\n    for _ in range(64):\n        pass\nexcept KeyboardInterrupt:\n    pass\n';

// What run_program restores when it finishes; a late interrupt inside its own clean-up can cut that short.
const BASELINE_SOURCE = 'import sys, os\n_baseline = (sys.stdout, sys.stderr, os.getcwd(), sys.modules.get("__main__"))\n';
const RESTORE_SOURCE =
  'import sys, os\nsys.stdout, sys.stderr = _baseline[0], _baseline[1]\nos.chdir(_baseline[2])\n' +
  'if _baseline[3] is not None:\n    sys.modules["__main__"] = _baseline[3]\n';

// A KeyboardInterrupt, or an error it caused (Pyodide wraps one inside a conversion, say).
const isKeyboardInterrupt = (e: unknown): boolean =>
  (e as { type?: unknown } | null)?.type === 'KeyboardInterrupt' || (e instanceof Error && /^KeyboardInterrupt$/m.test(e.message));

type ReplyProxy = { toJs: (o: object) => RunnerReply; destroy: () => void };
type RunProgram = (source: string, workdir: string, outputCap: number) => ReplyProxy;

interface RunnerReply {
  status: 'ok' | 'error';
  stdout: string;
  stderr: string;
  traceback: string | null;
  seconds: number;
  truncated: boolean;
}

/** Runs the project's own (trusted) Python programs against the toolkit in Node. */
export class TrustedPyodideRunner {
  private constructor(
    private readonly py: PyodideAPI,
    private readonly interrupt: SharedArrayBuffer,
    private readonly outputCap: number,
    /** The runner's own namespace (not the library's): the state a run must leave as it found it. */
    private readonly own: PyProxy,
    /** run_program, imported once: importing runs Python, which a deadline must not interrupt. */
    private readonly runProgram: RunProgram,
  ) {}

  static async create(options: TrustedRunnerOptions = {}): Promise<TrustedPyodideRunner> {
    const require = createRequire(import.meta.url);
    const indexURL = dirname(require.resolve('pyodide/package.json')) + '/';
    // An empty package list: any stray loadPackage fails at once instead of reaching for the network.
    const lock = JSON.parse(readFileSync(join(indexURL, 'pyodide-lock.json'), 'utf8')) as { info: unknown };
    const py = await loadPyodide({
      indexURL,
      lockFileContents: JSON.stringify({ info: lock.info, packages: {} }),
      stdout: () => {},
      stderr: () => {},
    });
    for (const [path, text] of Object.entries(readPythonLibrary())) {
      const full = `${LIB_DIR}/${path}`;
      py.FS.mkdirTree(full.slice(0, full.lastIndexOf('/')));
      py.FS.writeFile(full, text);
    }
    py.FS.mkdirTree(JOB_DIR);
    py.runPython(`import sys\nif ${JSON.stringify(LIB_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(LIB_DIR)})\nimport ${RUNNER_MODULE}, toolkit`);
    // byte 0: the interrupt flag Python reads (2 = SIGINT); int32 at 4: cancel; int32 at 8: deadline passed
    const interrupt = new SharedArrayBuffer(12);
    py.setInterruptBuffer(new Uint8Array(interrupt, 0, 1));
    const own = py.toPy({}) as PyProxy;
    py.runPython(BASELINE_SOURCE, { globals: own });
    const runProgram = py.pyimport(RUNNER_MODULE).run_program as RunProgram;
    return new TrustedPyodideRunner(py, interrupt, options.outputCap ?? 65536, own, runProgram);
  }

  /** Run `source` with train.csv, test.csv and task.json in its working directory. */
  async run(source: string, trainCsv: string, testCsv: string, taskJson: string, timeoutMs?: number): Promise<TrustedRunResult> {
    const { py } = this;
    this.clearJob();
    py.FS.writeFile(`${JOB_DIR}/train.csv`, trainCsv);
    py.FS.writeFile(`${JOB_DIR}/test.csv`, testCsv);
    py.FS.writeFile(`${JOB_DIR}/task.json`, taskJson);
    const flag = new Uint8Array(this.interrupt, 0, 1);
    const cancel = new Int32Array(this.interrupt, 4, 1);
    const fired = new Int32Array(this.interrupt, 8, 1);
    Atomics.store(flag, 0, 0);
    Atomics.store(cancel, 0, 0);
    Atomics.store(fired, 0, 0);
    let timer: Worker | undefined;
    if (timeoutMs !== undefined) {
      timer = new Worker(TIMER_SOURCE, { eval: true, workerData: { sab: this.interrupt, ms: timeoutMs } });
      await new Promise<void>((resolve) => timer!.once('online', () => resolve()));
    }
    let proxy: ReplyProxy | undefined;
    let escaped: unknown;
    const t0 = performance.now();
    try {
      proxy = this.runProgram(source, JOB_DIR, this.outputCap);
    } catch (e) {
      escaped = e;
    }
    const wallSeconds = (performance.now() - t0) / 1000;
    if (timer) {
      Atomics.store(cancel, 0, 1);
      Atomics.notify(cancel, 0);
      await timer.terminate();
    }
    const deadlinePassed = Atomics.load(fired, 0) === 1;
    Atomics.store(flag, 0, 0);
    if (deadlinePassed) this.settle(escaped !== undefined);
    // Past the deadline, a repeated interrupt can land in the runner's own clean-up and escape it: that
    // run timed out all the same. Anything else out of the runner is a fault of this process.
    if (escaped !== undefined && !(deadlinePassed && isKeyboardInterrupt(escaped))) throw escaped;
    let reply: RunnerReply;
    if (proxy) {
      reply = proxy.toJs({ dict_converter: Object.fromEntries });
      proxy.destroy();
    } else {
      const message = escaped instanceof Error ? escaped.message : String(escaped);
      reply = { status: 'error', stdout: '', stderr: '', traceback: message, seconds: wallSeconds, truncated: false };
    }
    const timedOut = deadlinePassed && reply.status === 'error' && (reply.traceback ?? '').includes('KeyboardInterrupt');
    let predictionsCsv: string | undefined;
    const predPath = `${JOB_DIR}/predictions.csv`;
    if (py.FS.analyzePath(predPath).exists) predictionsCsv = py.FS.readFile(predPath, { encoding: 'utf8' }) as string;
    this.clearJob();
    return {
      status: reply.status,
      predictionsCsv,
      stdout: reply.stdout,
      stderr: reply.stderr,
      traceback: reply.traceback ?? undefined,
      seconds: reply.seconds,
      timedOut,
      outputTruncated: reply.truncated,
    };
  }

  /** Run Python in the runner's interpreter (tests and benchmarks of the toolkit itself). */
  runPython(code: string): unknown {
    return this.py.runPython(code);
  }

  /**
   * After a run that passed its deadline (timer stopped, flag cleared): raise and drop an interrupt
   * Python took but had not raised yet, and, when one escaped the runner, put back what its
   * clean-up may not have restored.
   */
  private settle(restore: boolean): void {
    for (let attempt = 0; ; attempt++) {
      try {
        this.py.runPython(DRAIN_SOURCE, { globals: this.own });
        break;
      } catch (e) {
        if (!isKeyboardInterrupt(e) || attempt >= 2) throw e;
      }
    }
    if (restore) this.py.runPython(RESTORE_SOURCE, { globals: this.own });
  }

  private clearJob(): void {
    this.py.runPython(`import shutil, os\nshutil.rmtree(${JSON.stringify(JOB_DIR)}, ignore_errors=True)\nos.makedirs(${JSON.stringify(JOB_DIR)}, exist_ok=True)`);
  }
}
