// What the page and a sandbox worker say to each other, and what a caller of the pool gets back.
// Test labels have no field here on purpose: a job carries only what a program may read.

import type { WorkRule } from './work-rule.ts';

/** The files a program finds in its working directory. */
export interface SandboxFiles {
  'train.csv': string;
  'test.csv': string;
  'task.json': string;
}

/**
 * The file name a program is compiled under, so its frames in a traceback read `File "program.py",
 * line N` with N the line of the source as sent (the Playground keeps those frames and drops the runner's).
 */
export const PROGRAM_FILE = 'program.py';

export interface SandboxJob {
  source: string;
  files: SandboxFiles;
  /**
   * The program's budget, in calibrated milliseconds: it may do `workBudgetFor(timeoutMs, workRule)`
   * units of work (work-rule.ts, calibrated on a quiet machine), however busy this machine is.
   * The wall clock is only a backstop, `backstopMsFor(timeoutMs)`.
   */
  timeoutMs: number;
  /** Work units the program may use, instead of the count timeoutMs gives (tests). */
  workBudget?: number;
  /** How work is counted (work-rule.ts): the pool's rule when absent. */
  workRule?: WorkRule;
  /** Wall-clock backstop, ms, instead of the one timeoutMs gives (tests). */
  backstopMs?: number;
  /**
   * Global names (dotted paths such as `navigator.sendBeacon`) the worker checks for, before and
   * after the program runs; the result's `globalsPresent` lists those it could reach. For tests.
   */
  probeGlobals?: readonly string[];
}

/**
 * `memory` and `resource`: the run passed a cap (the result's `limit` says which). `timeout`: the
 * program used up its work budget (`limit` 'work'): its own fault, the same on any machine.
 * `unscored`: the wall-clock backstop stopped it twice, on two fresh interpreters, before its work
 * budget ran out (a long C call the counter cannot see, or a machine too busy): no verdict on the
 * program, so callers leave it out of anything scored instead of counting it as a failure.
 */
export type SandboxStatus = 'ok' | 'error' | 'timeout' | 'memory' | 'resource' | 'killed' | 'unscored';

/** The per-job caps that end a run: wasm memory, bytes stored in files, captured stdout + stderr. */
export type ResourceLimit = 'memory' | 'files' | 'output';

/** What ended a run early: a resource cap, or the work budget. */
export type RunLimit = ResourceLimit | 'work';

/** The wall-clock backstop is this many times the budget's calibrated time (plus BACKSTOP_SLACK_MS). */
export const BACKSTOP_FACTOR = 6;
export const BACKSTOP_SLACK_MS = 10_000;

/** Wall-clock backstop of a job with budget `timeoutMs`: well above what its work budget takes here. */
export function backstopMsFor(timeoutMs: number): number {
  return timeoutMs * BACKSTOP_FACTOR + BACKSTOP_SLACK_MS;
}

/** The message a run whose work counter was switched off from inside ends with. */
export const COUNTER_TAMPERED_MESSAGE =
  'work limit reached: the program switched off the work counter (Pyodide\'s interrupt check), so its work cannot be counted (workBudget)';

/** Every file or directory a run creates counts this many bytes against the file cap (its inode). */
export const FILE_NODE_BYTES = 4096;

function formatBytes(n: number): string {
  for (const [unit, size] of [['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const) {
    if (n >= size) return `${Number((n / size).toFixed(1))} ${unit}`;
  }
  return `${n} bytes`;
}

/** The message a run over a cap ends with: which limit, its size, and the pool option that sets it. */
export function limitMessage(limit: ResourceLimit, capBytes: number): string {
  const cap = `${formatBytes(capBytes)} (${capBytes} bytes)`;
  switch (limit) {
    case 'memory':
      return `memory limit reached: the program needed more than ${cap} of memory (memoryCapBytes)`;
    case 'files':
      return `file limit reached: the program stored more than ${cap} in files, counting ${FILE_NODE_BYTES} bytes per file or directory created (fileCapBytes)`;
    case 'output':
      return `output limit reached: the program printed more than ${cap} to stdout and stderr together (outputCapBytes)`;
  }
}

/** What a finished run left, as the worker reports it and as the pool passes it on. */
export interface RunOutput {
  /** predictions.csv as the program left it (absent if it wrote none, or the run did not finish). */
  predictionsCsv?: string;
  /** Why predictions.csv was written but not passed on (too large, not UTF-8, binary); absent otherwise. */
  predictionsProblem?: string;
  stdout: string;
  stderr: string;
  /** True when stdout or stderr passed the output cap and was cut. */
  outputTruncated: boolean;
  /** Python traceback, trimmed to the program's own frames where possible. */
  traceback?: string;
  /** Program run time measured in the worker (exec only); in a SandboxResult, wall time until the kill. */
  seconds: number;
  /** Work units the program used (in a SandboxResult, the last attempt's count; 0 when its worker was terminated before it could report). */
  work: number;
  /** The worker's wasm heap after the run, bytes (0 when the worker died). */
  heapBytes: number;
  /** Bytes the run stored in files (the file cap's count), 0 when the worker died. */
  fileBytes: number;
  /** For a job with probeGlobals: the names the worker could reach. */
  globalsPresent?: string[];
}

export interface SandboxResult extends RunOutput {
  status: SandboxStatus;
  /** Why the run ended that way: the limit's message for memory/resource, the pool's reason for killed/timeout. */
  reason?: string;
  /** The cap the run passed (status memory or resource), or 'work' (status timeout). */
  limit?: RunLimit;
  /** The work budget the job ran under, units. */
  workBudget: number;
  /** The rule that counted its work (work-rule.ts). */
  workRule: WorkRule;
  /** Times the wall-clock backstop stopped this job (0, 1 when the rerun gave the result, 2 when unscored). */
  backstops: number;
  /** Page-side time from dispatch to result, including message passing and file set-up. */
  wallMs: number;
  /** Time the job waited for a free worker. */
  queuedMs: number;
  /**
   * Start-up time (spawn to ready, restored from the snapshot) of the worker that ran the job, on the
   * first job that worker ran, 0 otherwise: a fresh worker per job is part of each job's cost, though
   * spares start it ahead of time, off the job's latency.
   */
  bootMs: number;
  workerId: number;
  /**
   * The worker instance (interpreter) that ran the job, unique within the pool; -1 when none did. With
   * the default maxRunsPerWorker (1) no two jobs share one.
   */
  interpreter: number;
  /** Sequence number of the job in this pool (1-based), so callers can check none is lost or doubled. */
  jobId: number;
}

/** Everything a fresh worker needs, all fetched and compiled by the page before the worker locks down. */
export interface WorkerBoot {
  type: 'boot';
  workerId: number;
  /** Absolute URL of the vendored pyodide directory (ends with '/'); module imports only, no fetch. */
  indexURL: string;
  wasmModule: WebAssembly.Module;
  /** Shared, so sending it to each new worker copies nothing. */
  stdlibZip: SharedArrayBuffer;
  lockFileJson: string;
  /** Memory snapshot to restore from; absent for the bootstrap worker that makes it. */
  snapshot?: SharedArrayBuffer;
  /** Make a snapshot after start-up instead of serving jobs (the bootstrap worker). */
  makeSnapshot: boolean;
  interruptBuffer: SharedArrayBuffer;
  /** Python files (toolkit and runner) to place on sys.path, keyed by path relative to the library root. */
  pythonFiles: Record<string, string>;
  outputCapBytes: number;
  memoryCapBytes: number;
  fileCapBytes: number;
  /** The worker serves more than one job: the Python guard puts interpreter state back after each. */
  reuse: boolean;
  /** Count work and enforce the work budget (false only in the benchmark, to measure the counter's cost). */
  countWork: boolean;
}

export interface WorkerRun {
  type: 'run';
  jobId: number;
  nonce: string;
  source: string;
  files: SandboxFiles;
  probeGlobals?: readonly string[];
  /** Work units the program may use. */
  workBudget: number;
  workRule: WorkRule;
}

export type PageToWorker = WorkerBoot | WorkerRun;

export interface WorkerReady {
  type: 'ready';
  workerId: number;
  bootMs: number;
  /** Start-up phases, ms since the boot message arrived. */
  phases: Record<string, number>;
  fromSnapshot: boolean;
  /** Globals that should be gone after lock-down but are still reachable (must be empty). */
  leftoverGlobals: string[];
  heapBytes: number;
}

export interface WorkerSnapshot {
  type: 'snapshot';
  snapshot: SharedArrayBuffer;
  bootMs: number;
  phases: Record<string, number>;
}

/** Status as seen inside the worker; the page turns it into the final SandboxStatus. */
export type WorkerStatus = 'ok' | 'error' | 'memory' | 'interrupted';

/** Sent the moment a run passes a cap or its work budget, so the page can end it even if the program carries on. */
export interface WorkerLimit {
  type: 'limit';
  jobId: number;
  nonce: string;
  limit: RunLimit;
  message: string;
}

export interface WorkerDone extends RunOutput {
  type: 'done';
  jobId: number;
  nonce: string;
  status: WorkerStatus;
  /** The first cap the run passed, if any. */
  limit?: RunLimit;
  limitMessage?: string;
  /** Pyodide suffered a fatal error: the worker must not run anything else. */
  fatal: boolean;
}

export interface WorkerFailed {
  type: 'boot-failed';
  message: string;
}

export type WorkerToPage = WorkerReady | WorkerSnapshot | WorkerDone | WorkerLimit | WorkerFailed;

/** Why an ok run has no gradable predictions.csv: the worker's reason, or that it wrote none. */
export function missingPredictionsMessage(r: Pick<SandboxResult, 'predictionsProblem'>): string {
  return r.predictionsProblem ?? 'the program wrote no predictions.csv';
}
