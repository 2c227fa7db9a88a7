// The app harness page (app-harness.html): drives createTrainer in a real browser for the e2e test,
// with a tiny model built on the spot (random init, tokenizer trained on reference-program text and
// the suite's cards) until the committed models are used. Sampled programs from a random model fail
// in the sandbox and score 0: this page checks the plumbing, not learning.
import { namedConfig } from '../model/config';
import { saveCheckpoint } from '../model/checkpoint';
import { createModel } from '../model/init';
import { exportWorldModel } from '../model/onnx/export';
import { trainTokenizer } from '../model/tokenizer-training';
import { referencePrograms } from '../sandbox-pyodide/reference-programs';
import { fetchLoader, TaskRegistry } from '../tasks/task-registry';
import type { PoolStats } from '../sandbox-pyodide/pool';
import type { PolicyInfo } from '../workers/policy-api';
import type { WorldModelInfo } from '../workers/world-model-api';
import type { EvaluationResult } from '../training/evaluate';
import { mulberry32 } from '../primitives/random';
import type { StepRecord, TrainerConfig } from '../training/trainer';
import { createTrainer } from '../app/create-trainer';
import type { ModelSources } from '../app/models';

export interface TinyRunRequest {
  config: TrainerConfig;
  poolSize: number;
  modelSeed: number;
  contextLength: number;
}

export interface TinyRunResult {
  policy: PolicyInfo;
  worldModel: WorldModelInfo;
  poolSize: number;
  records: StepRecord[];
  pool: PoolStats;
  crossOriginIsolated: boolean;
  /** Resume check: the step after a checkpoint taken and restored on the page. */
  resumedStep: number;
  /** Steps done when the run came to rest after stop() was asked for during step 0. */
  stoppedAt: number;
  stateAfterStop: string;
  evaluation: EvaluationResult;
}

async function tinyModels(seed: number, contextLength: number): Promise<ModelSources> {
  const registry = new TaskRegistry(fetchLoader());
  const cards = (await registry.list({ includeSmoke: true })).map((t) => t.card);
  const programs = (['regression', 'binary', 'multiclass'] as const).flatMap((t) => referencePrograms(t).slice(0, 10).map((p) => p.source));
  const tokenizer = trainTokenizer([...cards, ...programs], { vocabSize: 400 });
  const config = namedConfig('tiny', { vocabSize: tokenizer.vocabSize, contextLength });
  const model = createModel(config, mulberry32(seed));
  return {
    policyCheckpoint: saveCheckpoint(model, tokenizer, { note: 'tiny random policy for the app harness' }),
    // The world model shares the policy's backbone and tokenizer (method.md 2); here, untrained.
    worldModel: exportWorldModel(model, 'initializers'),
    tokenizer: tokenizer.toJSON(),
    contextLength: config.contextLength,
    nHeads: config.nHeads,
    label: `tiny random model (seed ${seed})`,
  };
}

declare global {
  interface Window {
    appHarness: { runTiny(request: TinyRunRequest): Promise<TinyRunResult> };
  }
}

window.appHarness = {
  async runTiny(request) {
    const models = await tinyModels(request.modelSeed, request.contextLength);
    const session = await createTrainer(request.config, { models, pool: { size: request.poolSize }, executionTimeoutMs: 20_000 });
    try {
      const records: StepRecord[] = [];
      // Ask for a stop during the first step: the loop must finish that step and rest.
      const off = session.onStep((r) => {
        records.push(r);
        if (r.step === 0) void session.stop();
      });
      await session.start();
      const stoppedAt = session.step;
      const stateAfterStop = session.state;
      await session.start();
      off();
      if (session.state !== 'done') throw new Error(`trainer ended in state ${session.state}`);
      const checkpoint = await session.checkpoint();
      await session.resume(checkpoint);
      const heldOut = (await new TaskRegistry(fetchLoader()).list({ split: 'heldout' }))[0];
      const evaluation = await session.evaluate({ k: 2, seed: 1, taskIds: [heldOut.id] });
      return {
        policy: session.policy,
        worldModel: session.worldModel,
        poolSize: session.poolSize,
        records,
        pool: session.poolStats(),
        crossOriginIsolated: globalThis.crossOriginIsolated,
        resumedStep: session.step,
        stoppedAt,
        stateAfterStop,
        evaluation,
      };
    } finally {
      await session.dispose();
    }
  },
};
document.getElementById('status')?.setAttribute('data-state', 'loaded');
