// The sandbox pool's workers, from the memory snapshot to termination. The runtime is loaded once, a
// bootstrap worker makes the snapshot, and every worker after it is restored from that snapshot,
// locked down and checked before it may serve. A slot is a place in the pool (the worker id callers
// see); its worker changes: spares restored ahead of time take over a slot at once, a worker that
// fails to start is spawned again (up to MAX_BOOT_FAILURES), and a replaced one is terminated.
// The job queue (pool.ts) decides what runs on a slot and when its worker must go; this file tells it
// when a slot can serve, what the slot's worker reports about its job, and when a worker crashed.
import type { PageToWorker, WorkerBoot, WorkerDone, WorkerLimit, WorkerToPage } from './protocol.ts';
import { pythonLibrary } from './python-library.ts';
import { loadRuntimeAssets, type RuntimeAssets } from './runtime-assets.ts';

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

/** The workers' part of the pool's stats (PoolStats, pool.ts). */
export interface WorkerSlotsStats {
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

/** The pool's options the workers need, defaults filled in (each is described in PoolOptions, pool.ts). */
export interface WorkerSlotsOptions {
  size: number;
  indexURL?: string;
  outputCapBytes: number;
  memoryCapBytes: number;
  fileCapBytes: number;
  countWork: boolean;
  maxRunsPerWorker: number;
  bootTimeoutMs: number;
  spares: number;
}

/** One Pyodide worker, from spawn to termination. */
export interface Handle<J> {
  worker: Worker;
  generation: number;
  startedAt: number;
  /** Spawn to ready, ms (0 until ready). */
  bootMs: number;
  interrupt: Uint8Array;
  ready: boolean;
  /** The slot it serves; null while it waits as a spare. */
  slot: Slot<J> | null;
  bootTimer: ReturnType<typeof setTimeout> | null;
  phases: Record<string, number>;
}

/**
 * A place in the pool: the worker ids callers see are slot ids, stable across respawns. `current` is
 * the queue's job on it (J is the queue's own record); this file only carries it.
 */
export interface Slot<J> extends Omit<WorkerStats, 'workerId'> {
  id: number;
  handle: Handle<J> | null;
  current: J | null;
  runsOnWorker: number;
  bootFailures: number;
  downSince: number;
}

/** What the workers tell the job queue. */
export interface SlotEvents<J> {
  /** The slot has a ready worker and no job. */
  serving(slot: Slot<J>): void;
  /** The slot's own worker finished its job. */
  done(slot: Slot<J>, msg: WorkerDone): void;
  /** The slot's own worker reports that its job passed a cap or its budget. */
  limit(slot: Slot<J>, msg: WorkerLimit): void;
  /** The slot's worker crashed, or sent a message that could not be read: its job cannot finish. */
  crashed(slot: Slot<J>, reason: string): void;
  /** No slot has a worker that can start: jobs waiting for one would wait for ever. */
  unavailable(message: string): void;
  /** A message no worker state expects (forged or stale). */
  ignored(): void;
}

const MAX_BOOT_FAILURES = 3;

class SnapshotTimeout extends Error {}

function spawnWorker(): Worker {
  return new Worker(new URL('./sandbox-worker.ts', import.meta.url), { type: 'module', name: 'sandbox' });
}

export class WorkerSlots<J> {
  private assets: RuntimeAssets | null = null;
  private snapshot: SharedArrayBuffer | null = null;
  private snapshotMs = 0;
  private snapshotPhases: Record<string, number> = {};
  private readonly library = pythonLibrary();
  readonly slots: Slot<J>[] = [];
  private spares: Handle<J>[] = [];
  private spareFailures = 0;
  private generation = 0;
  private ended = false;
  private readyWaiters: (() => void)[] = [];
  private respawnMs: number[] = [];
  private downtimeMs: number[] = [];

  constructor(
    private readonly opts: WorkerSlotsOptions,
    private readonly events: SlotEvents<J>,
  ) {}

  /** Loads the runtime once, makes the memory snapshot, starts the workers; resolves when all are ready. */
  async start(): Promise<void> {
    this.assets = await loadRuntimeAssets(this.opts.indexURL);
    const t0 = performance.now();
    this.snapshot = await this.makeSnapshotPatiently(this.assets);
    this.snapshotMs = performance.now() - t0;
    for (let i = 0; i < this.opts.size; i++) {
      const slot: Slot<J> = {
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

  stats(): WorkerSlotsStats {
    return {
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

  /** True after close(): no worker starts again (the queue refuses new jobs on it). */
  get closed(): boolean {
    return this.ended;
  }

  /** Ends every worker and spawns no more; the slots' jobs are the queue's to end. */
  close(): void {
    this.ended = true;
    for (const h of this.spares.splice(0)) this.terminate(h);
    for (const slot of this.slots) {
      if (slot.handle) this.terminate(slot.handle);
      slot.handle = null;
      slot.state = 'down';
    }
  }

  /** Terminates the slot's worker and puts a fresh one in: a ready spare at once, else a new spawn. */
  replace(slot: Slot<J>): void {
    if (slot.handle) this.terminate(slot.handle);
    slot.handle = null;
    slot.state = 'down';
    slot.downSince = performance.now();
    slot.respawns++;
    if (this.ended) return;
    if (!this.attachSpare(slot)) this.spawn(slot);
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
        if (!(e instanceof SnapshotTimeout) || attempt >= MAX_BOOT_FAILURES || this.ended) throw e;
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
  private spawn(slot: Slot<J> | null): void {
    if (this.ended || !this.assets) return;
    const handle: Handle<J> = {
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
    // The slot this worker serves now, if it is still that slot's worker: a replaced or spare worker
    // has no say over any job.
    const serving = (): Slot<J> | null => (handle.slot && handle.slot.handle === handle ? handle.slot : null);
    const { worker } = handle;
    worker.onmessage = (e: MessageEvent<WorkerToPage>) => {
      const msg = e.data;
      const slot = serving();
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
      } else if (msg.type === 'done' && slot) {
        this.events.done(slot, msg);
      } else if (msg.type === 'limit' && slot) {
        this.events.limit(slot, msg);
      } else {
        this.events.ignored();
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      const slot = serving();
      if (!handle.ready) this.bootFailed(handle, e.message || 'worker error during start-up');
      else if (slot) this.events.crashed(slot, `the worker crashed: ${e.message || 'unknown error'}`);
      else this.dropSpare(handle);
    };
    worker.onmessageerror = () => {
      const slot = serving();
      if (slot) this.events.crashed(slot, 'a message from the worker could not be read');
    };
    handle.bootTimer = setTimeout(() => {
      if (!handle.ready) this.bootFailed(handle, 'start-up timed out');
    }, this.opts.bootTimeoutMs);
    worker.postMessage(this.bootMessage(this.assets, slot ? slot.id : -1, false, handle.interrupt.buffer as SharedArrayBuffer) satisfies PageToWorker);
  }

  private onReady(handle: Handle<J>): void {
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

  private slotServing(slot: Slot<J>): void {
    if (slot.downSince > 0) {
      this.downtimeMs.push(performance.now() - slot.downSince);
      if (this.downtimeMs.length > 1000) this.downtimeMs.shift();
      slot.downSince = 0;
    }
    slot.state = 'idle';
    this.notifyReady();
    this.events.serving(slot);
  }

  /** Gives `slot` a ready spare (ending any worker still booting for it). Returns false if none is ready. */
  private attachSpare(slot: Slot<J>): boolean {
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
    if (this.ended || this.spareFailures >= MAX_BOOT_FAILURES) return;
    while (this.spares.length < this.opts.spares) this.spawn(null);
  }

  private dropSpare(handle: Handle<J>): void {
    this.terminate(handle);
    this.spares = this.spares.filter((h) => h !== handle);
  }

  private terminate(handle: Handle<J>): void {
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

  private bootFailed(handle: Handle<J>, message: string): void {
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
    if (this.slots.every((s) => s.state === 'down')) this.events.unavailable(message);
  }

  private notifyReady(): void {
    if (!this.slots.every((s) => s.state !== 'booting')) return;
    for (const w of this.readyWaiters.splice(0)) w();
  }
}
