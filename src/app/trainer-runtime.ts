// The settings-independent part of a training session: the models loaded into the policy and
// world-model workers and a booted sandbox pool. It is the slow part and does not depend on the
// run's settings, so the Train view starts it as soon as it opens and hands it to createTrainer
// when the user asks for a step.
//
// Where the world model runs follows the policy: on the WebGPU engine (and unless the world model is
// asked for on wasm) it is loaded into the policy worker, on the policy's GPUDevice, so that a step's
// sampling, scoring and update run on one device; otherwise, or when that fails (the reason is kept),
// it runs in its own worker on onnxruntime-web (wasm, or the WebGPU EP on a device of its own).
import * as Comlink from 'comlink';
import { SandboxPool, type PoolOptions } from '../sandbox-pyodide/pool.ts';
import { startPolicyWorker, type PolicyWorkerHandle } from '../workers/policy-client.ts';
import type { PolicyBackendChoice, PolicyInfo } from '../workers/policy-api.ts';
import { startWorldModelWorker, type WorldModelWorkerHandle } from '../workers/world-model-client.ts';
import type { WorldModelInfo, WorldModelLoadRequest, WorldModelScorer } from '../workers/world-model-api.ts';
import type { TrainerConfig } from '../training/trainer.ts';
import { loadCommittedModels, type ModelSources } from './models.ts';
import type { ProgressTracker } from './progress.ts';

/** Options of the settings-independent part: models, workers and sandbox. */
export interface RuntimeOptions {
  /** Models to use; default: the committed public/models. */
  models?: ModelSources;
  /** Policy backend; default 'auto'. */
  policyBackend?: PolicyBackendChoice;
  /** World-model backend; default 'auto'. */
  worldModelBackend?: 'auto' | 'webgpu' | 'wasm';
  pool?: PoolOptions;
  /** Hears every operation (start-up, each phase of a step, evaluation) as it begins, advances and ends. */
  progress?: ProgressTracker;
  /** Largest sampling batch the policy engine is sized for (B x n of a step); default 64. */
  maxBatch?: number;
}

/** The loaded models in their workers and a booted sandbox pool, ready for a trainer. */
export interface TrainerRuntime {
  readonly models: ModelSources;
  readonly policyHandle: PolicyWorkerHandle;
  /** Scores a step's programs, wherever the world model runs (its worker, or the policy worker on the policy's device). */
  readonly worldModel: WorldModelScorer;
  readonly pool: SandboxPool;
  readonly policyInfo: PolicyInfo;
  readonly wmInfo: WorldModelInfo;
  /** What it was started with, to tell whether it serves a run's settings. */
  readonly maxBatch: number;
  readonly policyBackend: PolicyBackendChoice;
  readonly worldModelBackend: 'auto' | 'webgpu' | 'wasm';
  dispose(): Promise<void>;
}

export async function startTrainerRuntime(options: RuntimeOptions = {}): Promise<TrainerRuntime> {
  const progress = options.progress;
  const track = <T>(key: string, label: string, work: () => Promise<T>): Promise<T> => (progress ? progress.track(key, label, work) : work());
  const models = options.models ?? (await track('start.models', 'Loading and checking the models', () => loadCommittedModels()));
  const maxBatch = Math.max(64, options.maxBatch ?? 0);
  const policyBackend = options.policyBackend ?? 'auto';
  const worldModelBackend = options.worldModelBackend ?? 'auto';
  const policyHandle: PolicyWorkerHandle = startPolicyWorker();
  let wmHandle: WorldModelWorkerHandle | null = null;
  const pool = new SandboxPool(options.pool);
  const cleanup = () => {
    policyHandle.terminate();
    wmHandle?.terminate();
    pool.close();
  };
  // Workers load copies: transferred bytes would be unusable on the page afterwards.
  const copy = <T extends ArrayBuffer | Uint8Array | string>(x: T): T => (typeof x === 'string' ? x : (x.slice(0) as T));
  const wmRequest = (): WorldModelLoadRequest => ({
    model: copy(models.worldModel), tokenizer: models.tokenizer, contextLength: models.contextLength, nHeads: models.nHeads, prefer: worldModelBackend,
  });
  /** The world model where the policy's engine says it should run, with its scorer. */
  const loadWorldModel = async (policy: PolicyInfo | null): Promise<{ info: WorldModelInfo; scorer: WorldModelScorer }> => {
    let passedOver = '';
    if (policy?.kind === 'webgpu') {
      try {
        const request = wmRequest();
        const transfer = typeof request.model === 'string' ? [] : [request.model.buffer as ArrayBuffer];
        const info = await policyHandle.api.loadWorldModel(Comlink.transfer(request, transfer));
        return { info, scorer: { score: (pairs) => policyHandle.api.scoreWorldModel(pairs) } };
      } catch (e) {
        passedOver = `on the policy's WebGPU device it failed (${e instanceof Error ? e.message : String(e)}); `;
      }
    }
    const handle = startWorldModelWorker();
    wmHandle = handle;
    const info = await handle.load(wmRequest());
    return { info: passedOver ? { ...info, reason: passedOver + info.reason } : info, scorer: handle.api };
  };
  const policyLoad = track('start.policy', 'Loading the policy into its worker', () =>
    policyHandle.load({ checkpoint: copy(models.policyCheckpoint), prefer: policyBackend, maxBatch }));
  // Which engine the policy got decides where the world model goes: after the policy's load, unless
  // the settings already say it cannot share the policy's device (then both load at once, as ever).
  const shareable = policyBackend !== 'cpu' && worldModelBackend !== 'wasm';
  const wmLoad = (shareable ? policyLoad : Promise.resolve(null)).then((policy) =>
    track('start.world-model', 'Loading the world model', () => loadWorldModel(policy)));
  try {
    const [policyInfo, wm] = await Promise.all([policyLoad, wmLoad, startPool(pool, progress)]);
    // The CPU engine builds its decoding session on the first sample (and after each update): built
    // here, as part of the start-up, a step's first program starts to appear soon after the click.
    await track('start.sampler', 'Preparing the policy\'s sampler', () =>
      policyHandle.api.sample([{ card: 'warm-up', seed: 0 }], { maxNewTokens: 1, temperature: 1, topK: 0 }));
    return {
      models, policyHandle, worldModel: wm.scorer, pool, policyInfo, wmInfo: wm.info, maxBatch, policyBackend, worldModelBackend,
      async dispose() {
        await policyHandle.api.release().catch(() => undefined);
        await wmHandle?.api.release().catch(() => undefined);
        cleanup();
      },
    };
  } catch (e) {
    // a load still under way would start (or hold) a worker after the clean-up
    await Promise.allSettled([policyLoad, wmLoad]);
    cleanup();
    throw e;
  }
}

/** Whether a runtime started with `runtime`'s options serves a run of `config` with these backends. */
export function runtimeServes(runtime: TrainerRuntime, config: TrainerConfig, options: Pick<RuntimeOptions, 'policyBackend' | 'worldModelBackend'>): boolean {
  return runtime.maxBatch >= config.groupsPerStep * config.groupSize
    && runtime.policyBackend === (options.policyBackend ?? 'auto')
    && runtime.worldModelBackend === (options.worldModelBackend ?? 'auto');
}

async function startPool(pool: SandboxPool, progress: ProgressTracker | undefined): Promise<void> {
  if (!progress) return pool.start();
  const h = progress.begin('start.sandbox', 'Booting the Python sandbox (Pyodide, a memory snapshot, then the workers)');
  const timer = setInterval(() => {
    const { workers } = pool.stats();
    if (workers.length > 0) h.advance(workers.filter((w) => w.state === 'idle' || w.state === 'busy').length, workers.length);
  }, 250);
  try {
    await pool.start();
    h.end();
  } catch (e) {
    h.end(false);
    throw e;
  } finally {
    clearInterval(timer);
  }
}
