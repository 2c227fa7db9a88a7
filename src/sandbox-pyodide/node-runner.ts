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

// Counts down in a worker thread while Python holds the main thread, then raises the interrupt flag.
const TIMER_SOURCE = `
const { workerData } = require('node:worker_threads');
const cancel = new Int32Array(workerData.sab, 4, 1);
const flag = new Uint8Array(workerData.sab, 0, 1);
if (Atomics.wait(cancel, 0, 0, workerData.ms) === 'timed-out') Atomics.store(flag, 0, 2);
`;

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
    const interrupt = new SharedArrayBuffer(8);
    py.setInterruptBuffer(new Uint8Array(interrupt, 0, 1));
    return new TrustedPyodideRunner(py, interrupt, options.outputCap ?? 65536);
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
    Atomics.store(flag, 0, 0);
    Atomics.store(cancel, 0, 0);
    let timer: Worker | undefined;
    if (timeoutMs !== undefined) {
      timer = new Worker(TIMER_SOURCE, { eval: true, workerData: { sab: this.interrupt, ms: timeoutMs } });
      await new Promise<void>((resolve) => timer!.once('online', () => resolve()));
    }
    let reply: RunnerReply;
    try {
      const runProgram = py.pyimport(RUNNER_MODULE).run_program as (
        ...args: unknown[]
      ) => { toJs: (o: object) => RunnerReply; destroy: () => void };
      const proxy = runProgram(source, JOB_DIR, this.outputCap);
      reply = proxy.toJs({ dict_converter: Object.fromEntries });
      proxy.destroy();
    } finally {
      if (timer) {
        Atomics.store(cancel, 0, 1);
        Atomics.notify(cancel, 0);
        await timer.terminate();
      }
    }
    const timedOut = Atomics.load(flag, 0) === 2 || (reply.traceback ?? '').includes('KeyboardInterrupt');
    Atomics.store(flag, 0, 0);
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
      timedOut: timedOut && reply.status === 'error',
      outputTruncated: reply.truncated,
    };
  }

  /** Run Python in the runner's interpreter (tests and benchmarks of the toolkit itself). */
  runPython(code: string): unknown {
    return this.py.runPython(code);
  }

  private clearJob(): void {
    this.py.runPython(`import shutil, os\nshutil.rmtree(${JSON.stringify(JOB_DIR)}, ignore_errors=True)\nos.makedirs(${JSON.stringify(JOB_DIR)}, exist_ok=True)`);
  }
}
