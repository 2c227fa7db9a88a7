// The app harness page (app-harness.html): drives createTrainer in a real browser for the e2e test,
// with a tiny model built on the spot (random init, tokenizer trained on reference-program text and
// the suite's cards) until the committed models are used. Sampled programs from a random model fail
// in the sandbox and score 0: this page checks the plumbing, not learning.
import type { PoolStats } from '../sandbox-pyodide/pool.ts';
import { fetchLoader, TaskRegistry } from '../tasks/task-registry.ts';
import type { PolicyInfo } from '../workers/policy-api.ts';
import type { WorldModelInfo } from '../workers/world-model-api.ts';
import type { EvaluationResult } from '../training/evaluate.ts';
import type { StepRecord, TrainerConfig } from '../training/trainer.ts';
import { createTrainer } from '../app/create-trainer.ts';
import { tinyRandomModels } from '../app/tiny-models.ts';
import { base64Encoder, fromBase64, fromBase64Reference, toBase64, toBase64Reference } from '../primitives/typed-json.ts';

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

/** The browser's base64 fast path against the reference (src/primitives/typed-json.ts). */
export interface Base64Check {
  encoder: string;
  /** Per length: the fast text equals the reference's, and both decoders give the bytes back. */
  agree: boolean[];
  badIsNull: boolean;
}

declare global {
  interface Window {
    appHarness: { runTiny(request: TinyRunRequest): Promise<TinyRunResult>; base64Check(lengths: number[]): Base64Check };
  }
}

window.appHarness = {
  base64Check(lengths) {
    const agree = lengths.map((n) => {
      const bytes = new Uint8Array(n + 3).subarray(3);
      for (let i = 0; i < n; i++) bytes[i] = (i * 2654435761 + n) >>> 24;
      const text = toBase64(bytes);
      const same = (b: Uint8Array | null) => b !== null && b.length === n && b.every((x, i) => x === bytes[i]);
      return text === toBase64Reference(bytes) && same(fromBase64(text)) && same(fromBase64Reference(text));
    });
    return { encoder: base64Encoder, agree, badIsNull: fromBase64('a*bc') === null && fromBase64('QUJD!') === null };
  },
  async runTiny(request) {
    const models = await tinyRandomModels({ seed: request.modelSeed, contextLength: request.contextLength, purpose: 'the app harness' });
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
