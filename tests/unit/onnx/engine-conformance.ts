// Behaviour every PolicyEngine must show, checked against the TypeScript reference: batched sampling
// equals the reference sampler prompt by prompt, log-probs equal tokenLogProbs, the update equals the
// reference clipping and per-tensor AdamW on the same gradients, the AdamW state round trip (what
// a checkpoint needs), the world-model objective, and setWeights reaching sampling and gradients.
// The CPU engine runs it (cpu-engine.test.ts); another backend (e.g. the WebGPU engine) can call
// policyEngineConformance with its own factory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '../../../src/model/init.ts';
import { rlLoss, tokenLogProbs, worldModelLoss } from '../../../src/model/losses.ts';
import { adamwStep, clipByGlobalNorm } from '../../../src/model/ops/reference-ops.ts';
import type { AdamWConfig } from '../../../src/model/ops/reference-ops.ts';
import { sample } from '../../../src/model/sampling.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import type { SequenceBatch } from '../../../src/model/sequence-batch.ts';
import type { Objective, PolicyEngine, UpdateOptions } from '../../../src/engine/policy-engine.ts';
import { maxAbsDiff, roughModel, testRng } from './fixtures.ts';

export function conformanceBatch(model: Model, B: number, T: number, seed: number): SequenceBatch {
  const rng = testRng(seed);
  const V = model.config.vocabSize;
  const specs = Array.from({ length: B }, (_, b) => ({
    tokens: Array.from({ length: Math.max(3, T - 3 * b) }, () => 4 + Math.floor(rng() * (V - 4))),
    programStart: 2 + b,
  }));
  return makeSequenceBatch(specs, T);
}

/**
 * The AdamW state round trip every engine must pass: after two updates, state and weights set into a
 * fresh engine give the same next update bit for bit; with the moments restarted the step differs
 * (so the equality can fail); a state of the wrong size or step is refused. `guard` wraps the
 * restoring calls (the GPU test checks them inside error scopes).
 */
export async function expectOptimizerRoundTrip(args: {
  first: PolicyEngine;
  fresh: PolicyEngine;
  restart: () => PolicyEngine | Promise<PolicyEngine>;
  batch: SequenceBatch;
  objective: Objective;
  options: UpdateOptions;
  guard?: (fn: () => Promise<void>) => Promise<void>;
}): Promise<void> {
  const { first, fresh, batch, objective, options } = args;
  const guard = args.guard ?? ((fn) => fn());
  for (let i = 0; i < 2; i++) await first.update(batch, objective, options);
  const state = await first.getOptimizerState();
  const n = (await first.getWeights()).length;
  expect(state.step).toBe(2);
  expect(state.m.length).toBe(n);
  expect(state.v.some((x) => x > 0)).toBe(true);
  // a copy: changing it leaves the engine's state alone
  const m0 = state.m[0];
  state.m[0] = m0 + 1;
  expect((await first.getOptimizerState()).m[0]).toBe(m0);
  state.m[0] = m0;

  const before = await first.getWeights();
  await guard(async () => {
    await fresh.setWeights(before);
    await fresh.setOptimizerState(state);
  });
  const want = await first.update(batch, objective, options);
  const got = await fresh.update(batch, objective, options);
  expect(got.step).toBe(3);
  expect(got.loss).toBe(want.loss);
  expect(got.gradNorm).toBe(want.gradNorm);
  expect(Array.from(await fresh.getWeights())).toEqual(Array.from(await first.getWeights()));
  const a = await first.getOptimizerState();
  const b = await fresh.getOptimizerState();
  expect(Array.from(b.m)).toEqual(Array.from(a.m));
  expect(Array.from(b.v)).toEqual(Array.from(a.v));

  // the same weights with the moments restarted step differently: the check above can fail
  const restarted = await args.restart();
  await restarted.setWeights(before, true);
  expect((await restarted.update(batch, objective, options)).step).toBe(1);
  expect(maxAbsDiff(await restarted.getWeights(), await first.getWeights())).toBeGreaterThan(1e-4);
  await restarted.dispose();

  await expect(fresh.setOptimizerState({ step: 1, m: new Float32Array(n - 1), v: new Float32Array(n) })).rejects.toThrow(/optimizer state.*needs \d+/);
  await expect(fresh.setOptimizerState({ step: -1, m: new Float32Array(n), v: new Float32Array(n) })).rejects.toThrow(/step -1/);
}

export function policyEngineConformance(label: string, create: (model: Model) => PolicyEngine | Promise<PolicyEngine>): void {
  describe(`policy engine conformance: ${label}`, () => {
    let model: Model;
    let engine: PolicyEngine;
    beforeAll(async () => {
      model = roughModel('tiny', 21);
      engine = await create(model);
    });
    afterAll(async () => engine.dispose());

    it('batched sampling draws the same tokens as the reference sampler, prompt by prompt', async () => {
      const prompts = [[1, 5, 9, 13], [1, 7], [1, 20, 21, 22, 23, 24, 25]];
      const options = { maxNewTokens: 9, temperature: 1.3, topK: 12 };
      const got = await engine.sample(prompts, { ...options, rngs: prompts.map((_, i) => testRng(100 + i)), stopToken: 6 });
      prompts.forEach((p, i) => {
        const want = sample(model, p, { ...options, rng: testRng(100 + i), stopToken: 6 });
        expect(got[i].tokens).toEqual(want.tokens);
        expect(got[i].stopped).toBe(want.stopped);
        expect(maxAbsDiff(got[i].logProbs, want.logProbs)).toBeLessThan(1e-4);
      });
      // the context length bounds generation
      const long = await engine.sample([Array.from({ length: 14 }, () => 5)], { maxNewTokens: 10, temperature: 0, rngs: [testRng(1)] });
      expect(long[0].tokens.length).toBe(2);
    });

    it('a short prompt keeps generating after a longer one in the batch has reached the context length', async () => {
      // tiny has 16 positions: the 10-token prompt stops after 6 new tokens, the 3-token one goes on to 13.
      const prompts = [[1, ...Array.from({ length: 9 }, (_, i) => 8 + i)], [1, 30, 31]];
      const options = { maxNewTokens: 20, temperature: 1, topK: 0, stopToken: -1 };
      const got = await engine.sample(prompts, { ...options, rngs: prompts.map((_, i) => testRng(300 + i)) });
      prompts.forEach((p, i) => {
        const want = sample(model, p, { ...options, rng: testRng(300 + i) });
        expect(got[i].tokens).toEqual(want.tokens);
        expect(got[i].tokens.length).toBe(model.config.contextLength - p.length);
      });
    });

    it('log-probs equal tokenLogProbs (mask and all)', async () => {
      const batch = conformanceBatch(model, 3, 14, 22);
      for (const which of ['mask', 'all'] as const) {
        expect(maxAbsDiff(await engine.logProbs(batch, which), tokenLogProbs(model, batch, which))).toBeLessThan(2e-5);
      }
    });

    it('update = the reference clipping and AdamW (decay on matrices only) on the same gradients, over two steps', async () => {
      const batch = conformanceBatch(model, 3, 14, 23);
      const adamw: AdamWConfig = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1 };
      const objective = { kind: 'rl' as const, weights: [0.5, -1, 2], normalizer: 40 };
      const local = await create(model);
      const params = model.params.slice();
      const m = new Float32Array(params.length);
      const v = new Float32Array(params.length);
      for (let step = 1; step <= 2; step++) {
        // the engine's gradients are the reference's (checked per tensor in training-graph.test.ts)
        const want = rlLoss({ ...model, params: params.slice() }, batch, objective);
        const { grads } = await local.gradients(batch, objective);
        expect(maxAbsDiff(grads, want.grads!)).toBeLessThan(1e-4 * Math.max(...want.grads!.map(Math.abs)));
        const scale = clipByGlobalNorm(grads, 0.05);
        for (const view of model.layout.views) {
          const r = (a: Float32Array): Float32Array => a.subarray(view.offset, view.offset + view.size);
          adamwStep(r(params), r(grads), r(m), r(v), step, { ...adamw, weightDecay: view.decay ? adamw.weightDecay : 0 });
        }
        const got = await local.update(batch, objective, { adamw, maxGradNorm: 0.05 });
        expect(got.step).toBe(step);
        expect(got.loss).toBeCloseTo(want.loss, 4);
        expect(got.clipScale).toBeCloseTo(scale, 6);
        expect(scale).toBeLessThan(1);
        expect(maxAbsDiff(await local.getWeights(), params)).toBeLessThan(1e-6);
      }
      expect(maxAbsDiff(params, model.params)).toBeGreaterThan(adamw.lr);
      await local.dispose();
    });

    it('AdamW state round trip: state and weights after two updates, set into a fresh engine, give the same next update bit for bit', async () => {
      const batch = conformanceBatch(model, 3, 14, 27);
      const adamw: AdamWConfig = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1 };
      const objective = { kind: 'rl' as const, weights: [1, -0.5, 0.8], normalizer: 30 };
      const options = { adamw, maxGradNorm: 0.05 };
      const first = await create(model);
      const fresh = await create(model);
      expect((await fresh.getOptimizerState()).step).toBe(0);
      await expectOptimizerRoundTrip({ first, fresh, restart: () => create(model), batch, objective, options });
      for (const e of [first, fresh]) await e.dispose();
    });

    it('world-model objective: loss and gradients equal worldModelLoss', async () => {
      const batch = conformanceBatch(model, 3, 12, 25);
      const targets = [0.1, 0.9, 0.5];
      const want = worldModelLoss(model, batch, targets);
      const got = await engine.gradients(batch, { kind: 'wm', targets });
      expect(got.loss).toBeCloseTo(want.loss, 5);
      expect(got.count).toBe(3);
      expect(maxAbsDiff(got.grads, want.grads!)).toBeLessThan(1e-4 * Math.max(...want.grads!.map(Math.abs)));
    });

    it("world-model objective with the 'bce' loss: loss and gradients equal worldModelLoss(..., 'bce'), and differ from 'mse'", async () => {
      const batch = conformanceBatch(model, 3, 12, 25);
      const targets = [0, 1, 0.4];
      const want = worldModelLoss(model, batch, targets, true, 'bce');
      const mse = worldModelLoss(model, batch, targets, true, 'mse');
      const got = await engine.gradients(batch, { kind: 'wm', targets, loss: 'bce' });
      expect(got.loss).toBeCloseTo(want.loss, 5);
      expect(maxAbsDiff(got.grads, want.grads!)).toBeLessThan(1e-4 * Math.max(...want.grads!.map(Math.abs)));
      expect(maxAbsDiff(got.grads, mse.grads!)).toBeGreaterThan(1e-3 * Math.max(...want.grads!.map(Math.abs)));
    });

    it('setWeights replaces the weights that sampling and gradients use', async () => {
      const other = roughModel('tiny', 99);
      const local = await create(model);
      const prompt = [1, 9, 4];
      const opts = { maxNewTokens: 8, temperature: 1, stopToken: -1 };
      const before = await local.sample([prompt], { ...opts, rngs: [testRng(5)] });
      expect(before[0].tokens).toEqual(sample(model, prompt, { ...opts, rng: testRng(5) }).tokens);
      await local.setWeights(other.params, true);
      // the decoding session must follow the new weights
      const after = await local.sample([prompt], { ...opts, rngs: [testRng(5)] });
      expect(after[0].tokens).toEqual(sample(other, prompt, { ...opts, rng: testRng(5) }).tokens);
      expect(after[0].tokens).not.toEqual(before[0].tokens);
      const batch = conformanceBatch(other, 2, 10, 24);
      expect(maxAbsDiff(await local.logProbs(batch, 'all'), tokenLogProbs(other, batch, 'all'))).toBeLessThan(2e-5);
      await local.dispose();
    });
  });
}
