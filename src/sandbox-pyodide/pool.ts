// A pool of hardened Pyodide workers. Every job runs in a worker no earlier job touched: each worker
// is restored from a memory snapshot, serves one job (maxRunsPerWorker) and is terminated; spares
// restored ahead of time take over at once. Nothing a program does to its interpreter (builtins,
// modules, hooks, timers, files) can reach a later job, whatever the Python guard misses.
// Every submitted job gets exactly one result, whatever happens to its worker. The budget counts
// work, not time (the worker counts it: sandbox-worker.ts), so a run over it ends `timeout` on any
// machine; a run that passes a cap (memory, files, output) ends memory/resource. The wall clock is
// only a backstop, well above the budget: it raises KeyboardInterrupt through a shared interrupt
// buffer and terminates the worker a grace later; the job then runs once more on a fresh
// interpreter, and ends `unscored` if the backstop stops it again.
// Busy time is counted per worker for compute accounting.
// This file is the job queue: pending jobs, dispatch, each job's budget and backstop, and settling its
// one result. The workers it runs on (snapshot, spawn, spares, boot failures, replacement) are
// worker-slots.ts's: the queue asks it to replace a slot's worker, and it tells the queue when a slot
// can serve, what its worker reports and when a worker crashed.
import {
  backstopMsFor,
  type PageToWorker,
  type RunLimit,
  type SandboxJob,
  type SandboxResult,
  type SandboxStatus,
  type WorkerDone,
  type WorkerLimit,
} from './protocol.ts';
import { WORK_RULE, workBudgetFor, type WorkRule } from './work-rule.ts';
import { WorkerSlots, type Slot, type WorkerSlotsStats } from './worker-slots.ts';

export type { WorkerStats } from './worker-slots.ts';

export interface PoolOptions {
  /** Number of workers (default: hardwareConcurrency - 1, at least 1, at most 8). */
  size?: number;
  /** Where the vendored Pyodide files are served (default: this app's /vendor/pyodide/). */
  indexURL?: string;
  /** Captured stdout + stderr per run, bytes. */
  outputCapBytes?: number;
  /** wasm memory a worker may grow to; past it the run ends with status memory. */
  memoryCapBytes?: number;
  /** Bytes a run may store in files (each file or directory counts 4 KiB); past it the run ends with status resource. */
  fileCapBytes?: number;
  /** A reused worker (maxRunsPerWorker > 1) whose heap plus files end a run above this is replaced. */
  recycleHeapBytes?: number;
  /** Time after the soft interrupt (or a passed cap) before the worker is terminated. */
  hardGraceMs?: number;
  /**
   * Count work and enforce each job's work budget (default true). False only to measure the
   * counter's cost (the benchmark): then nothing but the wall-clock backstop ends a long run.
   */
  countWork?: boolean;
  /** How work is counted for jobs that do not say (work-rule.ts; default WORK_RULE): an experiment keeps its plan's rule. */
  workRule?: WorkRule;
  /**
   * Jobs a worker serves before it is replaced. 1 (the default) is the isolation boundary: every job
   * gets a fresh interpreter. Larger values reuse an interpreter after a best-effort Python clean-up,
   * which a program can defeat (it can poison later jobs): for benchmarks only, never for untrusted code.
   */
  maxRunsPerWorker?: number;
  /** A worker not ready after this long is terminated and spawned again. */
  bootTimeoutMs?: number;
  /**
   * Workers restored ahead of time, so a slot serves its next job (or recovers from a kill) at once
   * (default: size; at least 1 while maxRunsPerWorker is 1).
   */
  spares?: number;
}

export interface PoolStats extends WorkerSlotsStats {
  submitted: number;
  settled: number;
  queued: number;
  byStatus: Record<SandboxStatus, number>;
  /** Messages ignored because they did not match the worker's current job (forged or stale). */
  ignoredMessages: number;
  /** Attempts to settle an already settled job (must stay 0). */
  doubleSettles: number;
}

interface Pending {
  jobId: number;
  job: SandboxJob;
  resolve: (r: SandboxResult) => void;
  settled: boolean;
  submittedAt: number;
  dispatchedAt: number;
  nonce: string;
  /** The backstop interrupted this attempt. */
  interrupted: boolean;
  /** Attempts the backstop stopped (a job gets one more on a fresh interpreter, then ends unscored). */
  backstops: number;
  /** The cap or budget the run passed, as the worker reported it. */
  limit: { limit: RunLimit; message: string } | null;
  timers: ReturnType<typeof setTimeout>[];
}

const DEFAULTS = {
  outputCapBytes: 256 * 1024,
  memoryCapBytes: 1024 * 1024 * 1024,
  fileCapBytes: 256 * 1024 * 1024,
  recycleHeapBytes: 512 * 1024 * 1024,
  hardGraceMs: 2000,
  countWork: true,
  workRule: WORK_RULE as WorkRule,
  maxRunsPerWorker: 1,
  bootTimeoutMs: 60_000,
};

function defaultSize(): number {
  const cores = globalThis.navigator?.hardwareConcurrency ?? 2;
  return Math.min(8, Math.max(1, cores - 1));
}

function randomNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

type PoolSlot = Slot<Pending>;

export class SandboxPool {
  private readonly opts: Required<Omit<PoolOptions, 'indexURL'>> & { indexURL?: string };
  private readonly workers: WorkerSlots<Pending>;
  private queue: Pending[] = [];
  private nextJobId = 1;
  /** Why start() failed, if it did: a job submitted to such a pool ends at once with this reason. */
  private startFailure: string | null = null;
  private readonly counts = {
    submitted: 0,
    settled: 0,
    ignoredMessages: 0,
    doubleSettles: 0,
    byStatus: { ok: 0, error: 0, timeout: 0, memory: 0, resource: 0, killed: 0, unscored: 0 } as Record<SandboxStatus, number>,
  };

  constructor(options: PoolOptions = {}) {
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as PoolOptions;
    const size = given.size ?? defaultSize();
    // One spare per slot: with one job per worker, every finished job hands its slot a spare. At
    // least one even when asked for none: without it every job would wait for a worker to start.
    const opts = { ...DEFAULTS, size, spares: size, ...given };
    if (opts.maxRunsPerWorker <= 1) opts.spares = Math.max(1, opts.spares);
    this.opts = opts;
    this.workers = new WorkerSlots<Pending>(opts, {
      serving: () => this.pump(),
      done: (slot, msg) => this.onDone(slot, msg),
      limit: (slot, msg) => this.onLimit(slot, msg),
      crashed: (slot, reason) => this.replace(slot, 'killed', reason),
      // With no worker able to start, queued jobs would wait for ever: end them now.
      unavailable: (message) => this.endQueued(`sandbox unavailable: ${message}`),
      ignored: () => this.counts.ignoredMessages++,
    });
  }

  /** Loads the runtime once, makes the memory snapshot, starts the workers; resolves when all are ready. */
  async start(): Promise<void> {
    try {
      await this.workers.start();
    } catch (e) {
      // run() promises to resolve: jobs queued now or submitted later end 'killed' with the reason.
      this.startFailure = `the sandbox pool did not start: ${e instanceof Error ? e.message : String(e)}`;
      this.endQueued(this.startFailure);
      throw e;
    }
  }

  get size(): number {
    return this.workers.slots.length;
  }

  /** Runs one program; always resolves, exactly once. */
  run(job: SandboxJob): Promise<SandboxResult> {
    return new Promise((resolve) => {
      const p: Pending = {
        jobId: this.nextJobId++,
        job,
        resolve,
        settled: false,
        submittedAt: performance.now(),
        dispatchedAt: 0,
        nonce: randomNonce(),
        interrupted: false,
        backstops: 0,
        limit: null,
        timers: [],
      };
      this.counts.submitted++;
      if (this.workers.closed || this.startFailure) {
        this.settle(p, this.pageResult(p, 'killed', this.startFailure ?? 'the sandbox pool is closed', null));
        return;
      }
      this.queue.push(p);
      this.pump();
    });
  }

  /** Terminates a worker as if it had crashed (fault injection for tests); its job ends 'killed'. */
  killWorker(workerId: number, reason = 'killed by request'): boolean {
    const slot = this.workers.slots[workerId];
    if (!slot || !slot.handle) return false;
    this.replace(slot, 'killed', reason);
    return true;
  }

  stats(): PoolStats {
    return {
      submitted: this.counts.submitted,
      settled: this.counts.settled,
      queued: this.queue.length,
      byStatus: { ...this.counts.byStatus },
      ignoredMessages: this.counts.ignoredMessages,
      doubleSettles: this.counts.doubleSettles,
      ...this.workers.stats(),
    };
  }

  /** Resolves when every slot has a ready worker. */
  whenAllReady(): Promise<void> {
    return this.workers.whenAllReady();
  }

  /** Ends every worker; queued and running jobs resolve 'killed'. */
  close(): void {
    this.workers.close();
    for (const slot of this.workers.slots) {
      if (slot.current) this.settle(slot.current, this.pageResult(slot.current, 'killed', 'the sandbox pool was closed', slot));
      slot.current = null;
    }
    this.endQueued('the sandbox pool was closed');
  }

  /** Ends every job still waiting for a worker with `reason`. */
  private endQueued(reason: string): void {
    for (const p of this.queue.splice(0)) this.settle(p, this.pageResult(p, 'killed', reason, null));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.workers.slots.find((s) => s.state === 'idle');
      if (!slot) return;
      const p = this.queue.shift() as Pending;
      this.dispatch(slot, p);
    }
  }

  private dispatch(slot: PoolSlot, p: Pending): void {
    const { worker, interrupt } = slot.handle!;
    slot.state = 'busy';
    slot.current = p;
    p.dispatchedAt = performance.now();
    Atomics.store(interrupt, 0, 0);
    const backstopMs = Math.max(1, this.backstopMs(p.job));
    p.timers.push(
      setTimeout(() => {
        if (slot.current !== p || p.limit) return;
        p.interrupted = true;
        Atomics.store(interrupt, 0, 2); // SIGINT: KeyboardInterrupt at the next bytecode check
      }, backstopMs),
      setTimeout(() => {
        if (slot.current === p && !p.limit) this.backstopped(slot, p);
      }, backstopMs + this.opts.hardGraceMs),
    );
    worker.postMessage({
      type: 'run',
      jobId: p.jobId,
      nonce: p.nonce,
      source: p.job.source,
      files: p.job.files,
      ...(p.job.probeGlobals ? { probeGlobals: [...p.job.probeGlobals] } : {}),
      workBudget: this.workBudget(p.job),
      workRule: this.workRule(p.job),
    } satisfies PageToWorker);
  }

  private workRule(job: SandboxJob): WorkRule {
    return job.workRule ?? this.opts.workRule;
  }

  private workBudget(job: SandboxJob): number {
    return job.workBudget ?? workBudgetFor(job.timeoutMs, this.workRule(job));
  }

  private backstopMs(job: SandboxJob): number {
    return job.backstopMs ?? backstopMsFor(job.timeoutMs);
  }

  /**
   * The backstop stopped this attempt before its work budget ran out: the machine's doing (a C call
   * the counter cannot see, or a load heavy enough to stretch the budget past it), not a verdict
   * on the program. Its worker is replaced; the first time the job runs again, on a fresh
   * interpreter, ahead of the queue; the second time it ends `unscored`.
   */
  private backstopped(slot: PoolSlot, p: Pending, work = 0): void {
    p.backstops++;
    if (p.backstops >= 2) {
      this.replace(slot, 'unscored', `stopped by the wall-clock backstop (${this.backstopMs(p.job)} ms) on two fresh interpreters before its work budget ran out: not scored`, work);
      return;
    }
    this.finishSlotJob(slot, performance.now());
    this.replace(slot, null, '');
    p.interrupted = false;
    p.limit = null;
    p.nonce = randomNonce();
    p.timers = [];
    this.queue.unshift(p);
    this.pump();
  }

  /** The run passed a cap: it ends as memory/resource; a worker that does not stop is terminated. */
  private onLimit(slot: PoolSlot, msg: WorkerLimit): void {
    const p = slot.current;
    if (!p || msg.jobId !== p.jobId || msg.nonce !== p.nonce) {
      this.counts.ignoredMessages++;
      return;
    }
    if (p.limit) return;
    p.limit = { limit: msg.limit, message: msg.message };
    p.timers.push(
      setTimeout(() => {
        if (slot.current === p) this.replace(slot, limitStatus(msg.limit), msg.message, msg.limit === 'work' ? this.workBudget(p.job) + 1 : 0);
      }, this.opts.hardGraceMs),
    );
  }

  private onDone(slot: PoolSlot, msg: WorkerDone): void {
    const p = slot.current;
    if (!p || msg.jobId !== p.jobId || msg.nonce !== p.nonce) {
      this.counts.ignoredMessages++;
      return;
    }
    const now = performance.now();
    let status: SandboxStatus;
    let reason: string | undefined;
    const limit = p.limit ?? (msg.limit && msg.limitMessage ? { limit: msg.limit, message: msg.limitMessage } : null);
    if (limit) {
      status = limitStatus(limit.limit);
      reason = limit.message;
    } else if (p.interrupted) {
      // Stopped by the backstop, not by its budget: run again, or end unscored.
      this.backstopped(slot, p, msg.work);
      return;
    } else if (msg.status === 'interrupted') {
      status = 'error'; // the program raised KeyboardInterrupt itself
    } else {
      status = msg.status;
    }
    if (msg.fatal) reason = reason ?? 'fatal Pyodide error: worker recycled';
    this.finishSlotJob(slot, now);
    this.settle(p, {
      status,
      ...(msg.predictionsCsv !== undefined && status === 'ok' ? { predictionsCsv: msg.predictionsCsv } : {}),
      ...(msg.predictionsProblem !== undefined && status === 'ok' ? { predictionsProblem: msg.predictionsProblem } : {}),
      stdout: msg.stdout,
      stderr: msg.stderr,
      outputTruncated: msg.outputTruncated,
      // The limit goes last in the traceback too: what most reports show is its tail (the
      // KeyboardInterrupt or OSError above it is only how the program was stopped).
      ...(msg.traceback || limit ? { traceback: [msg.traceback?.trimEnd(), limit?.message].filter(Boolean).join('\n') } : {}),
      ...(reason ? { reason } : {}),
      ...(limit ? { limit: limit.limit } : {}),
      seconds: msg.seconds,
      work: msg.work,
      workBudget: this.workBudget(p.job),
      workRule: this.workRule(p.job),
      backstops: p.backstops,
      wallMs: now - p.dispatchedAt,
      queuedMs: p.dispatchedAt - p.submittedAt,
      bootMs: this.bootShare(slot),
      workerId: slot.id,
      interpreter: slot.handle?.generation ?? -1,
      jobId: p.jobId,
      heapBytes: msg.heapBytes,
      fileBytes: msg.fileBytes,
      ...(msg.globalsPresent ? { globalsPresent: msg.globalsPresent } : {}),
    });
    slot.runsOnWorker++;
    // Files live outside the wasm heap: both count towards a reused worker's memory.
    const recycle =
      msg.fatal ||
      p.interrupted ||
      limit !== null ||
      msg.heapBytes + msg.fileBytes > this.opts.recycleHeapBytes ||
      slot.runsOnWorker >= this.opts.maxRunsPerWorker;
    if (recycle) {
      this.replace(slot, null, '');
    } else {
      slot.state = 'idle';
      this.pump();
    }
  }

  /** The start-up time a job is charged: its worker's, on the first job that worker runs; 0 after. */
  private bootShare(slot: PoolSlot | null): number {
    return slot && slot.handle && slot.runsOnWorker === 0 ? slot.handle.bootMs : 0;
  }

  private finishSlotJob(slot: PoolSlot, now: number): void {
    const p = slot.current;
    if (!p) return;
    for (const t of p.timers) clearTimeout(t);
    slot.busyMs += now - p.dispatchedAt;
    slot.runs++;
    slot.current = null;
  }

  /**
   * Terminates the slot's worker, ends its job (if any) with `status` (`work`: the units it had used,
   * as far as the page knows), and puts a fresh worker in.
   */
  private replace(slot: PoolSlot, status: SandboxStatus | null, reason: string, work = 0): void {
    const p = slot.current;
    if (p && status) {
      const now = performance.now();
      const interpreter = slot.handle?.generation ?? -1;
      this.finishSlotJob(slot, now);
      this.settle(p, { ...this.pageResult(p, status, reason, slot, now), interpreter, work, ...(p.limit ? { limit: p.limit.limit } : {}) });
    }
    slot.current = null;
    this.workers.replace(slot);
  }

  /** A result decided on the page, when the worker could not give one. */
  private pageResult(p: Pending, status: SandboxStatus, reason: string, slot: PoolSlot | null, now = performance.now()): SandboxResult {
    const started = p.dispatchedAt || now;
    return {
      status,
      stdout: '',
      stderr: '',
      outputTruncated: false,
      reason,
      seconds: (now - started) / 1000,
      work: 0,
      workBudget: this.workBudget(p.job),
      workRule: this.workRule(p.job),
      backstops: p.backstops,
      wallMs: now - started,
      queuedMs: (p.dispatchedAt || now) - p.submittedAt,
      bootMs: p.dispatchedAt ? this.bootShare(slot) : 0,
      workerId: slot ? slot.id : -1,
      interpreter: -1,
      jobId: p.jobId,
      heapBytes: 0,
      fileBytes: 0,
    };
  }

  private settle(p: Pending, result: SandboxResult): void {
    if (p.settled) {
      this.counts.doubleSettles++;
      return;
    }
    p.settled = true;
    for (const t of p.timers) clearTimeout(t);
    this.counts.settled++;
    this.counts.byStatus[result.status]++;
    p.resolve(result);
  }
}

function limitStatus(limit: RunLimit): SandboxStatus {
  return limit === 'memory' ? 'memory' : limit === 'work' ? 'timeout' : 'resource';
}
