// The experiment page (experiment.html): one run per call, driven from Node by the experiment CLI
// (src/cli/experiment.ts). The same path as the Train view: createTrainer with its policy worker,
// world-model worker, sandbox pool and page-side grader. 'sft' runs evaluate the starting policy
// only; 'train' runs train for config.steps, then evaluate on the held-out tasks with the same
// sampling seeds. Progress goes to window.experimentProgress when the driver exposes it.
import { appUrl } from '../primitives/app-root.ts';
import type { StepRecord } from '../training/trainer.ts';
import { FOLDER_MODELS_PATH, ruleOfRequest, trimRecord, type CurvePoint, type RunEnvironment, type RunProgress, type RunRequest, type RunResult, type TrimmedStepRecord } from '../experiments/run-result.ts';
import { createTrainer, type TrainerSession } from './create-trainer.ts';
import { loadCommittedModels, type ModelSources } from './models.ts';
import { tinyRandomModels } from './tiny-models.ts';

/** Seed of the tiny random model ('tiny' runs check plumbing: its programs do not run). */
const TINY_MODEL_SEED = 5;
const TINY_CONTEXT = 192;

function tinyModels(): Promise<ModelSources> {
  return tinyRandomModels({ seed: TINY_MODEL_SEED, contextLength: TINY_CONTEXT, purpose: 'experiment plumbing checks', labelNote: 'plumbing only' });
}

function message(e: unknown): string {
  if (e instanceof Error) return e.stack && !e.stack.startsWith(e.message) ? `${e.message}\n${e.stack}` : (e.stack ?? e.message);
  return String(e);
}

declare global {
  interface Window {
    experiment: { run(request: RunRequest): Promise<RunResult> };
    experimentProgress?: (p: RunProgress) => void;
  }
}

async function run(request: RunRequest): Promise<RunResult> {
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const progress = (p: Omit<RunProgress, 'preset' | 'seed'>) => {
    try {
      void window.experimentProgress?.({ preset: request.preset, seed: request.seed, ...p });
    } catch {
      // progress is best effort
    }
  };
  let session: TrainerSession | null = null;
  let environment: RunEnvironment | null = null;
  const records: TrimmedStepRecord[] = [];
  let lastRecord: StepRecord | null = null;
  let startupMs = 0;
  const curve: CurvePoint[] = [];
  const finish = (status: 'ok' | 'failed', error: string | null, evaluation: RunResult['evaluation']): RunResult => ({
    format: 'wmrl-experiment-run',
    version: 1,
    kind: request.kind,
    preset: request.preset,
    seed: request.seed,
    status,
    error,
    request,
    environment,
    records,
    evaluation,
    ...(request.kind === 'train' && (request.evalAtSteps?.length ?? 0) > 0 ? { curve } : {}),
    training: request.kind === 'train' && lastRecord ? lastRecord.cumulativeCost : null,
    startupMs,
    wallMs: performance.now() - t0,
    startedAt,
    finishedAt: new Date().toISOString(),
  });
  try {
    progress({ phase: 'startup' });
    const models =
      request.models === 'tiny' ? await tinyModels()
      : request.models === 'committed' ? await loadCommittedModels()
      : await loadCommittedModels(appUrl(FOLDER_MODELS_PATH), request.models.slice('folder:'.length));
    session = await createTrainer(request.config, { models, pool: { ...(request.poolSize === null ? {} : { size: request.poolSize }), workRule: ruleOfRequest(request) }, executionTimeoutMs: request.executionTimeoutMs });
    startupMs = performance.now() - t0;
    environment = {
      policy: session.policy,
      worldModel: session.worldModel,
      poolSize: session.poolSize,
      modelsLabel: session.modelsLabel,
      userAgent: navigator.userAgent,
      hardwareConcurrency: navigator.hardwareConcurrency,
      crossOriginIsolated: globalThis.crossOriginIsolated,
    };
    progress({ phase: 'ready', note: `policy ${session.policy.backend}; world model ${session.worldModel.backend}; pool ${session.poolSize}; start-up ${(startupMs / 1000).toFixed(1)} s` });
    const evalOptions = { k: request.evalK, seed: request.seed, taskIds: request.evalTaskIds ?? undefined };
    if (request.kind === 'sft') {
      progress({ phase: 'eval-before' });
      const evaluation = await session.evaluate(evalOptions);
      progress({ phase: 'done', avgAtK: evaluation.avgAtK });
      return finish('ok', null, evaluation);
    }
    let failure: unknown = null;
    session.onState((state, error) => {
      if (state === 'failed') failure = error ?? new Error('trainer failed');
    });
    session.onStep((r) => {
      lastRecord = r;
      records.push(trimRecord(r, request.keepPrograms));
      progress({ phase: 'step', step: r.step, steps: request.config.steps, meanReward: r.meanReward, executions: r.executions, stepWallMs: r.wallMs, busyMs: r.cumulativeCost.totalBusyMs });
    });
    const at = new Set((request.evalAtSteps ?? []).filter((s) => s > 0 && s < request.config.steps));
    const point = (evaluation: RunResult['evaluation'] & object): CurvePoint => ({ step: session!.step, trainingBusyMs: lastRecord?.cumulativeCost.totalBusyMs ?? 0, avgAtK: evaluation.avgAtK, evaluation });
    if (at.size === 0) await session.start();
    else {
      // step by step, so the policy can be evaluated (idle only) between steps
      const done = (): boolean => session!.state === 'done';
      while (!done()) {
        await session.stepOnce();
        if (at.has(session.step) && !done()) {
          progress({ phase: 'eval-during', step: session.step - 1, steps: request.config.steps });
          const e = await session.evaluate(evalOptions);
          curve.push(point(e));
          progress({ phase: 'eval-during', step: session.step - 1, steps: request.config.steps, avgAtK: e.avgAtK });
        }
      }
    }
    if (failure !== null) throw failure;
    if (session.state !== 'done') throw new Error(`training ended in state ${session.state} after ${session.step} of ${request.config.steps} steps`);
    progress({ phase: 'eval-after' });
    const evaluation = await session.evaluate(evalOptions);
    if (at.size > 0) curve.push(point(evaluation));
    progress({ phase: 'done', avgAtK: evaluation.avgAtK });
    return finish('ok', null, evaluation);
  } catch (e) {
    return finish('failed', message(e), null);
  } finally {
    await session?.dispose().catch(() => undefined);
  }
}

window.experiment = { run };
document.getElementById('status')?.setAttribute('data-state', 'loaded');
