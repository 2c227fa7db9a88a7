// The experiment page (experiment.html): one run per call, driven from Node by the experiment CLI
// (src/cli/experiment.ts). The same path as the Train view: createTrainer with its policy worker,
// world-model worker, sandbox pool and page-side grader. 'sft' runs evaluate the starting policy
// only; 'train' runs train for config.steps, then evaluate on the held-out tasks with the same
// sampling seeds. Progress goes to window.experimentProgress when the driver exposes it. When it
// exposes window.experimentSave, a 'train' run hands it the run so far (before and after each
// evaluation, and between them as often as its cost allows: src/experiments/keeping.ts), and a run
// given the last of those (`from`) goes on from there: the run file is then the uninterrupted run's,
// timings aside.
import { appUrl } from '../primitives/app-root.ts';
import { typedJsonReplacer, typedJsonReviver } from '../primitives/typed-json.ts';
import type { CostSheet } from '../training/cost.ts';
import { FOLDER_MODELS_PATH, ruleOfRequest, trimRecord, type CurvePoint, type RunEnvironment, type RunProgress, type RunRequest, type RunResult, type RunSoFar, type TrimmedStepRecord } from '../experiments/run-result.ts';
import { keepAfterStep, type LastKeep } from '../experiments/keeping.ts';
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
    experiment: { run(request: RunRequest, from?: string | null): Promise<RunResult> };
    experimentProgress?: (p: RunProgress) => void;
    /**
     * Hears a 'train' run so far (a RunSoFar as typed JSON) after a step when keepAfterStep says so
     * (src/experiments/keeping.ts), and after an evaluation along the way; awaited, so the run goes on
     * only once the driver has kept it.
     */
    experimentSave?: (runSoFar: string, step: number) => Promise<void>;
  }
}

async function run(request: RunRequest, from: string | null = null): Promise<RunResult> {
  const pageStartedAt = new Date().toISOString();
  const t0 = performance.now();
  const progress = (p: Omit<RunProgress, 'preset' | 'seed'>) => {
    try {
      void window.experimentProgress?.({ preset: request.preset, seed: request.seed, ...p });
    } catch {
      // progress is best effort
    }
  };
  let before: RunSoFar | null = null;
  let session: TrainerSession | null = null;
  let environment: RunEnvironment | null = null;
  let records: TrimmedStepRecord[] = [];
  let curve: CurvePoint[] = [];
  let training: CostSheet | null = null;
  let startupMs = 0;
  const startedAt = (): string => before?.startedAt ?? pageStartedAt;
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
    training: request.kind === 'train' ? training : null,
    startupMs: (before?.startupMs ?? 0) + startupMs,
    wallMs: (before?.wallMs ?? 0) + performance.now() - t0,
    startedAt: startedAt(),
    finishedAt: new Date().toISOString(),
  });
  try {
    if (from !== null) {
      if (request.kind !== 'train') throw new Error(`only a 'train' run goes on from a saved state, not a '${request.kind}' run`);
      before = JSON.parse(from, typedJsonReviver) as RunSoFar;
      if (JSON.stringify(before.checkpoint.config) !== JSON.stringify(request.config)) throw new Error('the saved run was trained under another config than this request');
      records = [...before.records];
      curve = [...before.curve];
      training = before.checkpoint.cost;
    }
    progress({ phase: 'startup' });
    const models =
      request.models === 'tiny' ? await tinyModels()
      : request.models === 'committed' ? await loadCommittedModels()
      : await loadCommittedModels(appUrl(FOLDER_MODELS_PATH), request.models.slice('folder:'.length));
    session = await createTrainer(request.config, {
      models, pool: { ...(request.poolSize === null ? {} : { size: request.poolSize }), workRule: ruleOfRequest(request) }, executionTimeoutMs: request.executionTimeoutMs,
      ...(before ? { checkpoint: before.checkpoint } : {}),
    });
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
    const s = session;
    const steps = request.config.steps;
    s.onStep((r) => {
      training = r.cumulativeCost;
      records.push(trimRecord(r, request.keepPrograms));
      progress({ phase: 'step', step: r.step, steps, meanReward: r.meanReward, executions: r.executions, stepWallMs: r.wallMs, busyMs: r.cumulativeCost.totalBusyMs });
    });
    let lastKeep: LastKeep | null = null;
    const save = async (): Promise<void> => {
      if (!window.experimentSave) return;
      const t = performance.now();
      const so: RunSoFar = { checkpoint: await s.checkpoint(), records, curve, startedAt: startedAt(), startupMs: (before?.startupMs ?? 0) + startupMs, wallMs: (before?.wallMs ?? 0) + performance.now() - t0 };
      const t1 = performance.now();
      const text = JSON.stringify(so, typedJsonReplacer);
      const t2 = performance.now();
      await window.experimentSave(text, so.checkpoint.step);
      const t3 = performance.now();
      lastKeep = { at: t3, ms: t3 - t };
      progress({ phase: 'saved', step: so.checkpoint.step, save: { checkpointMs: t1 - t, textMs: t2 - t1, handOverMs: t3 - t2, chars: text.length } });
    };
    // evaluated (idle only) between steps; the last step's evaluation is the final one
    const at = new Set((request.evalAtSteps ?? []).filter((x) => x > 0 && x < steps));
    const evaluateHere = async (): Promise<void> => {
      progress({ phase: 'eval-during', step: s.step - 1, steps });
      const e = await s.evaluate(evalOptions);
      curve.push({ step: s.step, trainingBusyMs: training?.totalBusyMs ?? 0, avgAtK: e.avgAtK, evaluation: e });
      progress({ phase: 'eval-during', step: s.step - 1, steps, avgAtK: e.avgAtK });
    };
    // a run stopped between a step and its evaluation makes the evaluation first
    if (at.has(s.step) && !curve.some((p) => p.step === s.step)) {
      await evaluateHere();
      await save();
    }
    while (s.state !== 'done') {
      await s.stepOnce();
      if (keepAfterStep(lastKeep, performance.now(), at.has(s.step) || s.step === steps)) await save();
      if (at.has(s.step)) {
        await evaluateHere();
        await save(); // an evaluation can take minutes
      }
    }
    if (s.step !== steps) throw new Error(`training ended after ${s.step} of ${steps} steps`);
    progress({ phase: 'eval-after' });
    const evaluation = await s.evaluate(evalOptions);
    if (at.size > 0) curve.push({ step: s.step, trainingBusyMs: training?.totalBusyMs ?? 0, avgAtK: evaluation.avgAtK, evaluation });
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
