// createTrainer: what the Train view calls. Takes the runtime (trainer-runtime.ts: models in their
// workers and a booted sandbox pool, started ahead or here), wires it into the ports, and drives the
// loop with start / stop / resume, a callback per StepRecord, checkpoints (plain data, ready for
// IndexedDB) and held-out evaluation. Everything runs on the page except the three kinds of workers.
import type { PoolStats } from '../sandbox-pyodide/pool.ts';
import { fetchLoader, TaskRegistry } from '../tasks/task-registry.ts';
import { workerPolicyPort } from '../workers/policy-client.ts';
import type { PolicyInfo } from '../workers/policy-api.ts';
import type { WorldModelInfo } from '../workers/world-model-api.ts';
import { DEFAULT_EVAL_K, evaluatePolicy, type EvaluationResult } from '../training/evaluate.ts';
import type { SamplingProgress } from '../training/ports.ts';
import { Trainer, compileGateVerdict, validateTrainerConfig, type StepRecord, type TrainerCheckpoint, type TrainerConfig, type TrainerPorts } from '../training/trainer.ts';
import { LookupWorldModel, RegistryTasks, SandboxExecutor, WorkerWorldModel } from './ports-browser.ts';
import type { ModelSources } from './models.ts';
import { LOOKUP_FILE, parseFamilyTypeLookup } from '../pipeline/family-type-lookup.ts';
import type { MeanLookup } from '../pipeline/mean-lookup.ts';
import { trackedPorts } from './progress-ports.ts';
import { PoolStaticVerifier } from './static-verifier.ts';
import { runtimeServes, startTrainerRuntime, type RuntimeOptions, type TrainerRuntime } from './trainer-runtime.ts';

export interface CreateTrainerOptions extends Omit<RuntimeOptions, 'maxBatch'> {
  /** Per-program execution budget, ms. */
  executionTimeoutMs?: number;
  /** Where the task suite is served (default /tasks/). */
  tasksBaseUrl?: string;
  /** Resume this run instead of starting at step 0 (its config wins over `config`). */
  checkpoint?: TrainerCheckpoint;
  /** Models, workers and sandbox started ahead (startTrainerRuntime); the session owns it from here. */
  runtime?: TrainerRuntime;
}

export type TrainerState = 'idle' | 'running' | 'stopping' | 'done' | 'failed';

export interface EvaluateOptions {
  k?: number;
  seed?: number;
  taskIds?: string[];
  /** Only the first `tasks` held-out tasks (after taskIds). */
  tasks?: number;
}

/** A policy sampling call under way, as the session tells it (a step's or an evaluation's). */
export interface SamplingEvent {
  what: 'step' | 'eval';
  /** Index of the step under way (steps done so far). */
  step: number;
  /** The task of each request, in request order (n per group for a step). */
  taskIds: readonly string[];
  /** performance.now() when the call began. */
  startedAt: number;
  progress: SamplingProgress;
}

export interface TrainerSession {
  readonly config: TrainerConfig;
  readonly policy: PolicyInfo;
  readonly worldModel: WorldModelInfo;
  readonly poolSize: number;
  readonly modelsLabel: string;
  get state(): TrainerState;
  get step(): number;
  /** Hears every StepRecord; returns an unsubscribe function. */
  onStep(listener: (record: StepRecord) => void): () => void;
  /**
   * Hears a checkpoint after every step (after onStep), before the next step begins, and is awaited:
   * what autosave needs, since checkpoint() is refused while the loop runs. A rejection fails the run,
   * so a listener that must not stop training catches its own errors.
   */
  onCheckpoint(listener: (record: StepRecord, checkpoint: TrainerCheckpoint) => Promise<void>): () => void;
  /** Hears the policy's sampling as it goes (programs finished, the one being written). */
  onSampling(listener: (event: SamplingEvent) => void): () => void;
  /** Hears state changes (and the error when a step fails). */
  onState(listener: (state: TrainerState, error?: unknown) => void): () => void;
  /** Runs steps until config.steps or stop(); resolves when the loop has stopped. */
  start(): Promise<void>;
  /** Asks the loop to stop after the current step; resolves when it has. */
  stop(): Promise<void>;
  /** One step, when idle. */
  stepOnce(): Promise<StepRecord>;
  /** A checkpoint between steps (stop first while running). */
  checkpoint(): Promise<TrainerCheckpoint>;
  /** Replaces the run with a checkpointed one (idle only). */
  resume(checkpoint: TrainerCheckpoint): Promise<void>;
  /** Held-out avg@k with the current policy (idle only). `tasks`: the first so many held-out tasks. */
  evaluate(options?: EvaluateOptions): Promise<EvaluationResult>;
  /**
   * Evaluation along the run: after every `every` steps (and after the last step), between two
   * steps, before the step's checkpoint is handed out; null turns it off. Results go to onEvaluation.
   */
  evaluateEvery(plan: { every: number; options: EvaluateOptions } | null): void;
  /** One evaluation at the next point between two steps (a run in progress), or at once when idle. */
  evaluateBetweenSteps(options: EvaluateOptions): Promise<EvaluationResult>;
  /** Hears every evaluation made between steps: after `step` steps, its result (null and why when it failed). */
  onEvaluation(listener: (e: { step: number; result: EvaluationResult | null; error?: string }) => void): () => void;
  poolStats(): PoolStats;
  /**
   * The authors' compile gate on programs, for display (the Train view's compile column under a preset
   * without a gate): null where a program passes, else why not. Runs on the session's verifier; not charged to the run.
   */
  compileCheck(programs: readonly string[]): Promise<(string | null)[]>;
  dispose(): Promise<void>;
}

/** The models folder's family x task-type lookup, for a run that scores with it; a clear error where the folder has none. */
function lookupOf(models: ModelSources): MeanLookup {
  if (!models.familyTypeLookup) throw new Error(`the models folder lists no ${LOOKUP_FILE}, which the lookup scorer needs (npm run wm-eval -- --write-lookup writes it)`);
  return parseFamilyTypeLookup(models.familyTypeLookup.text, models.familyTypeLookup.path).lookup;
}

export async function createTrainer(config: TrainerConfig, options: CreateTrainerOptions = {}): Promise<TrainerSession> {
  const progress = options.progress;
  const wanted = options.checkpoint?.config ?? config;
  // checked before anything is sized from it (engines take B x n as their batch)
  validateTrainerConfig(wanted);
  // a runtime started ahead for other settings (a larger batch, another backend) is replaced
  const ahead = options.runtime && runtimeServes(options.runtime, wanted, options) ? options.runtime : null;
  if (options.runtime && !ahead) await options.runtime.dispose();
  const runtime = ahead ?? (await startTrainerRuntime({ ...options, maxBatch: wanted.groupsPerStep * wanted.groupSize }));
  const { models, policyHandle, worldModel, pool, policyInfo, wmInfo } = runtime;
  const cleanup = () => void runtime.dispose();
  const registry = new TaskRegistry(fetchLoader(options.tasksBaseUrl));
  const tasks = new RegistryTasks(registry);
  const executor = new SandboxExecutor(pool, registry, options.executionTimeoutMs);
  // wmrl-static's verifier: its own interpreter, started on its first check
  const verifier = new PoolStaticVerifier();
  // What a step or an evaluation is doing, told by the ports as they are called ('step' or 'eval').
  let doing: 'step' | 'eval' = 'step';
  const ports: TrainerPorts = trackedPorts(
    {
      policy: workerPolicyPort(policyHandle, policyInfo),
      worldModel: wanted.scorer === 'lookup' ? new LookupWorldModel(lookupOf(models)) : new WorkerWorldModel(worldModel, `${wmInfo.backend} (${wmInfo.reason})`),
      executor,
      tasks,
      verifier,
    },
    progress,
    () => (doing === 'step' ? { key: 'step', label: `Step ${trainer.stepsTaken + 1}` } : { key: 'eval', label: 'Evaluation' }),
    (requests, progressOf) => {
      const what = doing;
      const step = trainer.stepsTaken;
      const startedAt = performance.now();
      let taskIds: string[] = [];
      void taskIdsOf(requests).then((ids) => (taskIds = ids));
      progressOf((p) => {
        for (const l of samplingListeners) l({ what, step, taskIds, startedAt, progress: p });
      });
    },
  );
  const samplingListeners = new Set<(e: SamplingEvent) => void>();
  // A card names its task for the view; both lists are read once (the registry caches them).
  let cardIds: Promise<Map<string, string>> | null = null;
  const taskIdsOf = async (requests: readonly { card: string }[]): Promise<string[]> => {
    cardIds ??= Promise.all([tasks.trainingTasks(), tasks.heldOutTasks()]).then(([a, b]) => new Map([...a, ...b].map((t) => [t.card, t.id])));
    const m = await cardIds.catch(() => new Map<string, string>());
    return requests.map((r) => m.get(r.card) ?? '?');
  };

  let trainer: Trainer;
  try {
    trainer = options.checkpoint ? await Trainer.resume(options.checkpoint, ports) : new Trainer(config, ports);
  } catch (e) {
    cleanup(); // e.g. a saved run whose policy no longer fits the committed model
    throw e;
  }
  let state: TrainerState = trainer.done ? 'done' : 'idle';
  let stopRequested = false;
  let loop: Promise<void> | null = null;
  const stepListeners = new Set<(r: StepRecord) => void>();
  const stateListeners = new Set<(s: TrainerState, e?: unknown) => void>();
  const setState = (s: TrainerState, e?: unknown) => {
    state = s;
    for (const l of stateListeners) l(s, e);
  };
  const checkpointListeners = new Set<(r: StepRecord, c: TrainerCheckpoint) => Promise<void>>();
  let evaluationPlan: { every: number; options: EvaluateOptions } | null = null;
  let evaluationOnce: { options: EvaluateOptions; resolve: (r: EvaluationResult) => void; reject: (e: unknown) => void }[] = [];
  const evaluationListeners = new Set<(e: { step: number; result: EvaluationResult | null; error?: string }) => void>();
  const runEvaluation = async (opts: EvaluateOptions): Promise<EvaluationResult> => {
    let held = await tasks.heldOutTasks();
    if (opts.taskIds) held = held.filter((t) => opts.taskIds?.includes(t.id));
    if (opts.tasks !== undefined) held = held.slice(0, opts.tasks);
    doing = 'eval';
    try {
      return await evaluatePolicy(ports.policy, ports.executor, held, {
        k: opts.k ?? DEFAULT_EVAL_K, seed: opts.seed ?? trainer.config.seed, sampling: trainer.config.sampling,
        ...(trainer.config.reward === 'ladder' ? { ladder: true } : {}),
      });
    } finally {
      doing = 'step';
    }
  };
  // Between two steps, what is due: a requested evaluation, else the plan's. A failed evaluation is
  // told to its listeners and does not stop the run.
  const evaluateDue = async () => {
    const once = evaluationOnce;
    evaluationOnce = [];
    const plan = evaluationPlan;
    const planned = plan && plan.every > 0 && (trainer.stepsTaken % plan.every === 0 || trainer.done) ? plan.options : null;
    const opts = once[0]?.options ?? planned;
    if (!opts) return;
    const step = trainer.stepsTaken;
    try {
      const result = await runEvaluation(opts);
      for (const o of once) o.resolve(result);
      for (const l of evaluationListeners) l({ step, result });
    } catch (e) {
      for (const o of once) o.reject(e);
      for (const l of evaluationListeners) l({ step, result: null, error: e instanceof Error ? e.message : String(e) });
    }
  };
  // Requests left when the loop has ended (asked after its last step) are served once it is idle.
  const evaluateRequested = async () => {
    if (evaluationOnce.length === 0) return;
    const plan = evaluationPlan;
    evaluationPlan = null;
    try {
      await evaluateDue();
    } finally {
      evaluationPlan = plan;
    }
  };
  // Between two steps: the step's record, what evaluation is due, then (only when someone listens)
  // the checkpoint after it.
  const emit = async (r: StepRecord) => {
    for (const l of stepListeners) l(r);
    await evaluateDue();
    if (checkpointListeners.size === 0) return;
    const c = await trainer.checkpoint();
    for (const l of checkpointListeners) await l(r, c);
  };
  const requireIdle = (what: string) => {
    if (state === 'running' || state === 'stopping') throw new Error(`trainer: ${what} while a run is in progress (stop it first)`);
  };

  return {
    get config() {
      return trainer.config;
    },
    policy: policyInfo,
    worldModel: wmInfo,
    poolSize: pool.size,
    modelsLabel: models.label,
    get state() {
      return state;
    },
    get step() {
      return trainer.stepsTaken;
    },
    onStep(listener) {
      stepListeners.add(listener);
      return () => void stepListeners.delete(listener);
    },
    onCheckpoint(listener) {
      checkpointListeners.add(listener);
      return () => void checkpointListeners.delete(listener);
    },
    onSampling(listener) {
      samplingListeners.add(listener);
      return () => void samplingListeners.delete(listener);
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => void stateListeners.delete(listener);
    },
    start() {
      if (loop) return loop;
      if (trainer.done) return Promise.resolve();
      stopRequested = false;
      setState('running');
      loop = trainer
        .run(emit, () => stopRequested)
        .then(
          () => setState(trainer.done ? 'done' : 'idle'),
          (e: unknown) => setState('failed', e),
        )
        .finally(() => {
          loop = null;
          void evaluateRequested();
        });
      return loop;
    },
    async stop() {
      if (!loop) return;
      stopRequested = true;
      setState('stopping');
      await loop;
    },
    async stepOnce() {
      requireIdle('stepOnce');
      // 'running' while the step is under way, so a view can tell one step from rest.
      const before = state;
      setState('running');
      try {
        const r = await trainer.step();
        await emit(r);
        setState(trainer.done ? 'done' : 'idle');
        void evaluateRequested();
        return r;
      } catch (e) {
        setState(before);
        throw e;
      }
    },
    async checkpoint() {
      requireIdle('checkpoint');
      return trainer.checkpoint();
    },
    async resume(checkpoint) {
      requireIdle('resume');
      trainer = await Trainer.resume(checkpoint, ports);
      setState(trainer.done ? 'done' : 'idle');
    },
    async evaluate(opts = {}) {
      requireIdle('evaluate');
      return runEvaluation(opts);
    },
    evaluateEvery(plan) {
      evaluationPlan = plan;
    },
    evaluateBetweenSteps(opts) {
      const p = new Promise<EvaluationResult>((resolve, reject) => evaluationOnce.push({ options: opts, resolve, reject }));
      if (state !== 'running' && state !== 'stopping') void evaluateRequested();
      return p;
    },
    onEvaluation(listener) {
      evaluationListeners.add(listener);
      return () => void evaluationListeners.delete(listener);
    },
    poolStats: () => pool.stats(),
    async compileCheck(programs) {
      const { results } = await verifier.check(programs);
      return results.map((r, j) => compileGateVerdict(programs[j], r));
    },
    async dispose() {
      stopRequested = true;
      if (loop) await loop.catch(() => undefined);
      verifier.close();
      await runtime.dispose();
    },
  };
}

/** Starts the pool, counting its workers as they come up. */
