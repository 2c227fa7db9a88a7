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
import {
  backstopMsFor,
  type PageToWorker,
  type RunLimit,
  type SandboxJob,
  type SandboxResult,
  type SandboxStatus,
  type WorkerBoot,
  type WorkerDone,
  type WorkerLimit,
  type WorkerToPage,
} from './protocol.ts';
import { pythonLibrary } from './python-library.ts';
import { WORK_RULE, workBudgetFor, type WorkRule } from './work-rule.ts';
import { loadRuntimeAssets, type RuntimeAssets } from './runtime-assets.ts';

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

export interface WorkerStats {
  workerId: number;
  state: 'booting' | 'idle' | 'busy' | 'down';
  /** Runs finished by this slot, across its respawns. */
  runs: number;
  /** Time spent running jobs (dispatch to result), ms. */
  busyMs: number;
  /** Times this slot's worker was replaced. */
  respawns: number;
  /** Start-up time of the current worker, ms (from spawn to ready, page clock). */
  lastBootMs: number;
  /** The worker's own start-up phases, ms since its boot message arrived. */
  lastPhases: Record<string, number>;
  generation: number;
}

export interface PoolStats {
  submitted: number;
  settled: number;
  queued: number;
  byStatus: Record<SandboxStatus, number>;
  /** Messages ignored because they did not match the worker's current job (forged or stale). */
  ignoredMessages: number;
  /** Attempts to settle an already settled job (must stay 0). */
  doubleSettles: number;
  /** Worker start-up times from the snapshot (spawn to ready, page clock), ms, most recent last (at most 1000). */
  respawnMs: number[];
  /** Slot downtimes after a kill or recycle (terminate to serving again, a spare makes it ~0), ms. */
  slotDowntimeMs: number[];
  /** Spares booted and waiting. */
  sparesReady: number;
  snapshotBytes: number;
  snapshotMs: number;
  snapshotPhases: Record<string, number>;
  assetsMs: number;
  workers: WorkerStats[];
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

/** One Pyodide worker, from spawn to termination. */
interface Handle {
  worker: Worker;
  generation: number;
  startedAt: number;
  /** Spawn to ready, ms (0 until ready). */
  bootMs: number;
  interrupt: Uint8Array;
  ready: boolean;
  /** The slot it serves; null while it waits as a spare. */
  slot: Slot | null;
  bootTimer: ReturnType<typeof setTimeout> | null;
  phases: Record<string, number>;
}

/** A place in the pool: the worker ids callers see are slot ids, stable across respawns. */
interface Slot extends Omit<WorkerStats, 'workerId'> {
  id: number;
  handle: Handle | null;
  current: Pending | null;
  runsOnWorker: number;
  bootFailures: number;
  downSince: number;
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
const MAX_BOOT_FAILURES = 3;

class SnapshotTimeout extends Error {}

function defaultSize(): number {
  const cores = globalThis.navigator?.hardwareConcurrency ?? 2;
  return Math.min(8, Math.max(1, cores - 1));
}

function spawnWorker(): Worker {
  return new Worker(new URL('./sandbox-worker.ts', import.meta.url), { type: 'module', name: 'sandbox' });
}

function randomNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class SandboxPool {
  private readonly opts: Required<Omit<PoolOptions, 'indexURL'>> & { indexURL?: string };
  private assets: RuntimeAssets | null = null;
  private snapshot: SharedArrayBuffer | null = null;
  private snapshotMs = 0;
  private snapshotPhases: Record<string, number> = {};
  private readonly library = pythonLibrary();
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextJobId = 1;
  private closed = false;
  /** Why start() failed, if it did: a job submitted to such a pool ends at once with this reason. */
  private startFailure: string | null = null;
  private readonly counts = {
    submitted: 0,
    settled: 0,
    ignoredMessages: 0,
    doubleSettles: 0,
    byStatus: { ok: 0, error: 0, timeout: 0, memory: 0, resource: 0, killed: 0, unscored: 0 } as Record<SandboxStatus, number>,
  };
  private respawnMs: number[] = [];
  private downtimeMs: number[] = [];
  private spares: Handle[] = [];
  private spareFailures = 0;
  private generation = 0;
  private readyWaiters: (() => void)[] = [];

  constructor(options: PoolOptions = {}) {
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as PoolOptions;
    const size = given.size ?? defaultSize();
    // One spare per slot: with one job per worker, every finished job hands its slot a spare. At
    // least one even when asked for none: without it every job would wait for a worker to start.
    const opts = { ...DEFAULTS, size, spares: size, ...given };
    if (opts.maxRunsPerWorker <= 1) opts.spares = Math.max(1, opts.spares);
    this.opts = opts;
  }

  /** Loads the runtime once, makes the memory snapshot, starts the workers; resolves when all are ready. */
  async start(): Promise<void> {
    try {
      await this.startWorkers();
    } catch (e) {
      // run() promises to resolve: jobs queued now or submitted later end 'killed' with the reason.
      this.startFailure = `the sandbox pool did not start: ${e instanceof Error ? e.message : String(e)}`;
      for (const p of this.queue.splice(0)) this.settle(p, this.pageResult(p, 'killed', this.startFailure, null));
      throw e;
    }
  }

  private async startWorkers(): Promise<void> {
    this.assets = await loadRuntimeAssets(this.opts.indexURL);
    const t0 = performance.now();
    this.snapshot = await this.makeSnapshotPatiently(this.assets);
    this.snapshotMs = performance.now() - t0;
    for (let i = 0; i < this.opts.size; i++) {
      const slot: Slot = {
        id: i,
        handle: null,
        state: 'down',
        current: null,
        runsOnWorker: 0,
        runs: 0,
        busyMs: 0,
        respawns: 0,
        lastBootMs: 0,
        lastPhases: {},
        generation: 0,
        bootFailures: 0,
        downSince: 0,
      };
      this.slots.push(slot);
      this.spawn(slot);
    }
    await this.whenAllReady();
    this.topUpSpares();
  }

  get size(): number {
    return this.slots.length;
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
      if (this.closed || this.startFailure) {
        this.settle(p, this.pageResult(p, 'killed', this.startFailure ?? 'the sandbox pool is closed', null));
        return;
      }
      this.queue.push(p);
      this.pump();
    });
  }

  /** Terminates a worker as if it had crashed (fault injection for tests); its job ends 'killed'. */
  killWorker(workerId: number, reason = 'killed by request'): boolean {
    const slot = this.slots[workerId];
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
      respawnMs: [...this.respawnMs],
      slotDowntimeMs: [...this.downtimeMs],
      sparesReady: this.spares.filter((h) => h.ready).length,
      snapshotBytes: this.snapshot?.byteLength ?? 0,
      snapshotMs: this.snapshotMs,
      snapshotPhases: { ...this.snapshotPhases },
      assetsMs: this.assets?.loadMs ?? 0,
      workers: this.slots.map((s) => ({
        workerId: s.id,
        state: s.state,
        runs: s.runs,
        busyMs: s.busyMs,
        respawns: s.respawns,
        lastBootMs: s.lastBootMs,
        lastPhases: { ...s.lastPhases },
        generation: s.generation,
      })),
    };
  }

  /** Resolves when every slot has a ready worker. */
  whenAllReady(): Promise<void> {
    if (this.slots.every((s) => s.state === 'idle' || s.state === 'busy')) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Ends every worker; queued and running jobs resolve 'killed'. */
  close(): void {
    this.closed = true;
    for (const h of this.spares.splice(0)) this.terminate(h);
    for (const slot of this.slots) {
      if (slot.handle) this.terminate(slot.handle);
      slot.handle = null;
      slot.state = 'down';
      if (slot.current) this.settle(slot.current, this.pageResult(slot.current, 'killed', 'the sandbox pool was closed', slot));
      slot.current = null;
    }
    for (const p of this.queue.splice(0)) this.settle(p, this.pageResult(p, 'killed', 'the sandbox pool was closed', null));
  }

  /**
   * The snapshot is the one boot everything waits for, and on a busy machine it can take several times
   * its usual minute: a timeout is retried with a longer limit (1x, 2x, 3x bootTimeoutMs) before the
   * pool gives up. A boot that fails outright is not retried.
   */
  private async makeSnapshotPatiently(assets: RuntimeAssets): Promise<SharedArrayBuffer> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.makeSnapshot(assets, attempt * this.opts.bootTimeoutMs);
      } catch (e) {
        if (!(e instanceof SnapshotTimeout) || attempt >= MAX_BOOT_FAILURES || this.closed) throw e;
      }
    }
  }

  private makeSnapshot(assets: RuntimeAssets, timeoutMs: number): Promise<SharedArrayBuffer> {
    return new Promise((resolve, reject) => {
      const worker = spawnWorker();
      const timer = setTimeout(() => {
        worker.terminate();
        reject(new SnapshotTimeout(`sandbox: the snapshot worker did not finish in time (${Math.round(timeoutMs / 1000)} s)`));
      }, timeoutMs);
      worker.onmessage = (e: MessageEvent<WorkerToPage>) => {
        const msg = e.data;
        clearTimeout(timer);
        worker.terminate();
        if (msg.type === 'snapshot') {
          this.snapshotPhases = msg.phases;
          resolve(msg.snapshot);
        }
        else reject(new Error(`sandbox: snapshot worker: ${msg.type === 'boot-failed' ? msg.message : msg.type}`));
      };
      worker.onerror = (e) => {
        clearTimeout(timer);
        worker.terminate();
        reject(new Error(`sandbox: snapshot worker failed: ${e.message}`));
      };
      worker.postMessage(this.bootMessage(assets, -1, true, new SharedArrayBuffer(4)) satisfies PageToWorker);
    });
  }

  private bootMessage(assets: RuntimeAssets, workerId: number, makeSnapshot: boolean, interruptBuffer: SharedArrayBuffer): WorkerBoot {
    return {
      type: 'boot',
      workerId,
      indexURL: assets.indexURL,
      wasmModule: assets.wasmModule,
      stdlibZip: assets.stdlibZip,
      lockFileJson: assets.lockFileJson,
      ...(makeSnapshot || !this.snapshot ? {} : { snapshot: this.snapshot }),
      makeSnapshot,
      interruptBuffer,
      pythonFiles: this.library,
      outputCapBytes: this.opts.outputCapBytes,
      memoryCapBytes: this.opts.memoryCapBytes,
      fileCapBytes: this.opts.fileCapBytes,
      reuse: this.opts.maxRunsPerWorker > 1,
      countWork: this.opts.countWork,
    };
  }

  /** Starts a worker from the snapshot, for `slot` or (slot null) as a spare. */
  private spawn(slot: Slot | null): void {
    if (this.closed || !this.assets) return;
    const handle: Handle = {
      worker: spawnWorker(),
      generation: ++this.generation,
      startedAt: performance.now(),
      bootMs: 0,
      interrupt: new Uint8Array(new SharedArrayBuffer(4)),
      ready: false,
      slot,
      bootTimer: null,
      phases: {},
    };
    if (slot) {
      slot.handle = handle;
      slot.state = 'booting';
      slot.generation++;
      slot.runsOnWorker = 0;
    } else {
      this.spares.push(handle);
    }
    const { worker } = handle;
    worker.onmessage = (e: MessageEvent<WorkerToPage>) => {
      const msg = e.data;
      if (msg.type === 'ready' && !handle.ready) {
        if (handle.bootTimer) clearTimeout(handle.bootTimer);
        handle.bootTimer = null;
        if (msg.leftoverGlobals.length > 0) {
          // A worker that could not lock down must never run a program.
          this.bootFailed(handle, `lock-down left ${msg.leftoverGlobals.join(', ')}`);
          return;
        }
        handle.ready = true;
        handle.phases = msg.phases;
        handle.bootMs = performance.now() - handle.startedAt;
        this.recordRespawn(handle.bootMs);
        this.onReady(handle);
      } else if (msg.type === 'boot-failed') {
        this.bootFailed(handle, msg.message);
      } else if (msg.type === 'done' && handle.slot && handle.slot.handle === handle) {
        this.onDone(handle.slot, msg);
      } else if (msg.type === 'limit' && handle.slot && handle.slot.handle === handle) {
        this.onLimit(handle.slot, msg);
      } else {
        this.counts.ignoredMessages++;
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      if (!handle.ready) this.bootFailed(handle, e.message || 'worker error during start-up');
      else if (handle.slot && handle.slot.handle === handle) this.replace(handle.slot, 'killed', `the worker crashed: ${e.message || 'unknown error'}`);
      else this.dropSpare(handle);
    };
    worker.onmessageerror = () => {
      if (handle.slot && handle.slot.handle === handle) this.replace(handle.slot, 'killed', 'a message from the worker could not be read');
    };
    handle.bootTimer = setTimeout(() => {
      if (!handle.ready) this.bootFailed(handle, 'start-up timed out');
    }, this.opts.bootTimeoutMs);
    worker.postMessage(this.bootMessage(this.assets, slot ? slot.id : -1, false, handle.interrupt.buffer as SharedArrayBuffer) satisfies PageToWorker);
  }

  private onReady(handle: Handle): void {
    const slot = handle.slot;
    if (!slot) {
      // A spare: hand it to a slot that is down, if any.
      const waiting = this.slots.find((s) => s.state === 'down' || (s.state === 'booting' && s.handle && !s.handle.ready));
      if (waiting) this.attachSpare(waiting);
      return;
    }
    slot.lastBootMs = performance.now() - handle.startedAt;
    slot.lastPhases = handle.phases;
    slot.bootFailures = 0;
    this.slotServing(slot);
  }

  private slotServing(slot: Slot): void {
    if (slot.downSince > 0) {
      this.downtimeMs.push(performance.now() - slot.downSince);
      if (this.downtimeMs.length > 1000) this.downtimeMs.shift();
      slot.downSince = 0;
    }
    slot.state = 'idle';
    this.notifyReady();
    this.pump();
  }

  /** Gives `slot` a ready spare (ending any worker still booting for it). Returns false if none is ready. */
  private attachSpare(slot: Slot): boolean {
    const i = this.spares.findIndex((h) => h.ready);
    if (i < 0) return false;
    const [spare] = this.spares.splice(i, 1);
    if (slot.handle && slot.handle !== spare) this.terminate(slot.handle);
    spare.slot = slot;
    slot.handle = spare;
    slot.generation++;
    slot.runsOnWorker = 0;
    slot.lastBootMs = performance.now() - spare.startedAt;
    slot.lastPhases = spare.phases;
    slot.bootFailures = 0;
    this.slotServing(slot);
    this.topUpSpares();
    return true;
  }

  private topUpSpares(): void {
    if (this.closed || this.spareFailures >= MAX_BOOT_FAILURES) return;
    while (this.spares.length < this.opts.spares) this.spawn(null);
  }

  private dropSpare(handle: Handle): void {
    this.terminate(handle);
    this.spares = this.spares.filter((h) => h !== handle);
  }

  private terminate(handle: Handle): void {
    if (handle.bootTimer) clearTimeout(handle.bootTimer);
    handle.bootTimer = null;
    handle.worker.onmessage = null;
    handle.worker.onerror = null;
    handle.worker.terminate();
  }

  private recordRespawn(ms: number): void {
    this.respawnMs.push(ms);
    if (this.respawnMs.length > 1000) this.respawnMs.shift();
  }

  private bootFailed(handle: Handle, message: string): void {
    this.terminate(handle);
    const slot = handle.slot;
    if (!slot) {
      this.spares = this.spares.filter((h) => h !== handle);
      this.spareFailures++;
      if (this.spareFailures >= MAX_BOOT_FAILURES) console.error(`sandbox: spare workers fail to start: ${message}`);
      this.topUpSpares();
      return;
    }
    if (slot.handle !== handle) return;
    slot.handle = null;
    slot.state = 'down';
    slot.bootFailures++;
    if (slot.bootFailures < MAX_BOOT_FAILURES) {
      slot.respawns++;
      if (!this.attachSpare(slot)) this.spawn(slot);
      return;
    }
    console.error(`sandbox worker ${slot.id} failed to start ${slot.bootFailures} times: ${message}`);
    this.notifyReady();
    // With no worker able to start, queued jobs would wait for ever: end them now.
    if (this.slots.every((s) => s.state === 'down')) {
      for (const p of this.queue.splice(0)) this.settle(p, this.pageResult(p, 'killed', `sandbox unavailable: ${message}`, null));
    }
  }

  private notifyReady(): void {
    if (!this.slots.every((s) => s.state !== 'booting')) return;
    for (const w of this.readyWaiters.splice(0)) w();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.state === 'idle');
      if (!slot) return;
      const p = this.queue.shift() as Pending;
      this.dispatch(slot, p);
    }
  }

  private dispatch(slot: Slot, p: Pending): void {
    const handle = slot.handle as Handle;
    const { worker, interrupt } = handle;
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
  private backstopped(slot: Slot, p: Pending, work = 0): void {
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
  private onLimit(slot: Slot, msg: WorkerLimit): void {
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

  private onDone(slot: Slot, msg: WorkerDone): void {
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
  private bootShare(slot: Slot | null): number {
    return slot && slot.handle && slot.runsOnWorker === 0 ? slot.handle.bootMs : 0;
  }

  private finishSlotJob(slot: Slot, now: number): void {
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
  private replace(slot: Slot, status: SandboxStatus | null, reason: string, work = 0): void {
    const p = slot.current;
    if (p && status) {
      const now = performance.now();
      const interpreter = slot.handle?.generation ?? -1;
      this.finishSlotJob(slot, now);
      this.settle(p, { ...this.pageResult(p, status, reason, slot, now), interpreter, work, ...(p.limit ? { limit: p.limit.limit } : {}) });
    }
    slot.current = null;
    if (slot.handle) this.terminate(slot.handle);
    slot.handle = null;
    slot.state = 'down';
    slot.downSince = performance.now();
    slot.respawns++;
    if (this.closed) return;
    if (!this.attachSpare(slot)) this.spawn(slot);
  }

  /** A result decided on the page, when the worker could not give one. */
  private pageResult(p: Pending, status: SandboxStatus, reason: string, slot: Slot | null, now = performance.now()): SandboxResult {
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
