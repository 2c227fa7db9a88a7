// Training-graph gradients (one onnxruntime run, wasm EP) against the reference losses and backward.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '../../../src/model/init.ts';
import { rlLoss, sftLoss, worldModelLoss } from '../../../src/model/losses.ts';
import type { SequenceBatch } from '../../../src/model/sequence-batch.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { OnnxTrainingSession } from '../../../src/engine/onnx/training-session.ts';
import { rlCoefficients, sftCoefficients, sftLossValue } from '../../../src/engine/token-coefficients.ts';
import { maxAbs, maxAbsDiff, roughModel, testRng } from './fixtures.ts';

function batchFor(model: Model, B: number, T: number, seed: number): SequenceBatch {
  const rng = testRng(seed);
  const V = model.config.vocabSize;
  const specs = Array.from({ length: B }, (_, b) => {
    const len = Math.max(3, T - 2 * b);
    return { tokens: Array.from({ length: len }, () => 4 + Math.floor(rng() * (V - 4))), programStart: 1 + (b % 3) };
  });
  return makeSequenceBatch(specs, T);
}

/** Per-tensor relative error: max |got - want| / (max |want| + floor). */
function expectGradsClose(model: Model, got: Float32Array, want: Float32Array, rel: number): void {
  for (const v of model.layout.views) {
    const g = got.subarray(v.offset, v.offset + v.size);
    const w = want.subarray(v.offset, v.offset + v.size);
    const err = maxAbsDiff(g, w) / (maxAbs(w) + 1e-6);
    expect(err, `${v.name}: relative error ${err}`).toBeLessThan(rel);
  }
  // the gaps stay zero
  let gaps = 0;
  for (let i = 0; i < got.length; i++) gaps += Math.abs(got[i]) * (want[i] === 0 ? 1 : 0);
  expect(gaps).toBeLessThan(1e-3 * maxAbs(want));
}

describe.each([
  ['tiny', 3, 14],
  ['mini', 2, 40],
] as const)('training graph on %s (B=%i, T=%i)', (name, B, T) => {
  let model: Model;
  let lm: OnnxTrainingSession;
  let wm: OnnxTrainingSession;
  beforeAll(async () => {
    model = roughModel(name, 11);
    lm = await OnnxTrainingSession.create(model.config, model.layout, 'lm');
    wm = await OnnxTrainingSession.create(model.config, model.layout, 'wm');
  });
  afterAll(async () => {
    await lm.release();
    await wm.release();
  });

  it('SFT loss and gradients match sftLoss', async () => {
    const batch = batchFor(model, B, T, 12);
    const want = sftLoss(model, batch);
    const c = sftCoefficients(batch);
    const got = await lm.lm(model.params, batch.tokens, B, T, c.coef);
    expect(got.loss).toBeCloseTo(want.loss, 4);
    expect(sftLossValue(batch, got.logProbs, c)).toBeCloseTo(want.loss, 4);
    expectGradsClose(model, got.grads, want.grads!, 2e-4);
  });

  it('RL loss with per-sequence weights and the program mask matches rlLoss', async () => {
    const batch = batchFor(model, B, T, 13);
    const weights = Array.from({ length: B }, (_, b) => (b % 2 === 0 ? 0.7 : -1.3) * (b + 1));
    const options = { weights, normalizer: 50 };
    const want = rlLoss(model, batch, options);
    const c = rlCoefficients(batch, options);
    const got = await lm.lm(model.params, batch.tokens, B, T, c.coef);
    expect(got.loss).toBeCloseTo(want.loss, 4);
    expect(rlCoefficients(batch, options, got.logProbs).loss).toBeCloseTo(want.loss, 4);
    expectGradsClose(model, got.grads, want.grads!, 2e-4);
  });

  it('clipped RL with a KL term matches rlLoss via current log-probs', async () => {
    const batch = batchFor(model, B, T, 14);
    const rng = testRng(15);
    const old = new Float32Array(B * T);
    const ref = new Float32Array(B * T);
    const first = await lm.lm(model.params, batch.tokens, B, T, new Float32Array(B * T));
    for (let i = 0; i < B * T; i++) {
      old[i] = first.logProbs[i] + 0.4 * (rng() - 0.5);
      ref[i] = first.logProbs[i] + 0.4 * (rng() - 0.5);
    }
    const options = { weights: Array.from({ length: B }, (_, b) => b - 0.5), normalizer: 30, clip: { epsilon: 0.1, oldLogProbs: old }, kl: { beta: 0.05, refLogProbs: ref } };
    const want = rlLoss(model, batch, options);
    const c = rlCoefficients(batch, options, first.logProbs);
    expect(c.loss).toBeCloseTo(want.loss, 4);
    expect(c.clipFraction).toBeCloseTo(want.clipFraction, 6);
    const got = await lm.lm(model.params, batch.tokens, B, T, c.coef);
    expectGradsClose(model, got.grads, want.grads!, 2e-4);
  });

  it('world-model loss, scores and gradients match worldModelLoss', async () => {
    const batch = batchFor(model, B, T, 16);
    const targets = Array.from({ length: B }, (_, b) => (b * 0.37) % 1);
    const want = worldModelLoss(model, batch, targets);
    const got = await wm.wm(model.params, batch.tokens, B, T, batch.lengths, targets);
    expect(maxAbsDiff(got.scores, want.scores)).toBeLessThan(1e-5);
    expect(got.loss).toBeCloseTo(want.loss, 5);
    expectGradsClose(model, got.grads, want.grads!, 2e-4);
  });
});
