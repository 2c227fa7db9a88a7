import { describe, expect, it } from 'vitest';
import { rlLoss, sequenceLogProbs, sftLoss, tokenLogProbs, worldModelLoss, worldModelScores } from '../../../src/model/losses.ts';
import { adamwStep } from '../../../src/model/ops/reference-ops.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { view } from '../../../src/model/parameter-layout.ts';
import { tinyBatch, tinyTestModel } from './test-models.ts';

describe('loss semantics', () => {
  it('padding and batch neighbours do not change a sequence\'s log-probs or score (causal, length-aware)', () => {
    const model = tinyTestModel(31);
    const a = { tokens: [1, 8, 9, 2, 10, 11, 12, 3], programStart: 4 };
    const b = { tokens: [1, 20, 2, 21, 22, 23, 24, 25, 26, 27, 3], programStart: 3 };
    const alone = makeSequenceBatch([a]);
    const together = makeSequenceBatch([b, a], 14);
    const lpAlone = tokenLogProbs(model, alone, 'all');
    const lpTogether = tokenLogProbs(model, together, 'all');
    for (let t = 0; t < a.tokens.length; t++) expect(lpTogether[14 + t]).toBeCloseTo(lpAlone[t], 5);
    expect(worldModelScores(model, together)[1]).toBeCloseTo(worldModelScores(model, alone)[0], 5);
  });

  it('masks the card: only program tokens (and eos) enter SFT and RL', () => {
    const model = tinyTestModel(32);
    const batch = tinyBatch(model, 33);
    const lp = tokenLogProbs(model, batch, 'mask');
    for (let i = 0; i < lp.length; i++) if (batch.lossMask[i] === 0) expect(lp[i]).toBe(0);
    const masked = [...lp].filter((_, i) => batch.lossMask[i] !== 0);
    const sft = sftLoss(model, batch, false);
    expect(sft.loss).toBeCloseTo(-masked.reduce((s, v) => s + v, 0) / masked.length, 5);
    const weights = [0.5, -2, 1.5];
    const seq = sequenceLogProbs(model, batch);
    const rl = rlLoss(model, batch, { weights, normalizer: 7 }, false);
    expect(rl.loss).toBeCloseTo(-(weights[0] * seq[0] + weights[1] * seq[1] + weights[2] * seq[2]) / 7, 4);
  });

  it('clipping with old = current log-probs gives the unclipped gradient; KL is zero against itself', () => {
    const model = tinyTestModel(34);
    const batch = tinyBatch(model, 35);
    const current = tokenLogProbs(model, batch, 'mask');
    const opts = { weights: [1, -1, 0.5], normalizer: 10 };
    const plain = rlLoss(model, batch, opts);
    const clipped = rlLoss(model, batch, { ...opts, clip: { epsilon: 0.2, oldLogProbs: current }, kl: { beta: 1, refLogProbs: current } });
    expect(clipped.clipFraction).toBe(0);
    expect(clipped.meanKl).toBeCloseTo(0, 6);
    for (let i = 0; i < plain.grads!.length; i++) expect(clipped.grads![i]).toBeCloseTo(plain.grads![i], 5);
  });

  it('zero weights give zero policy gradient; only the world-model loss reaches the score head', () => {
    const model = tinyTestModel(36);
    const batch = tinyBatch(model, 37);
    const zero = rlLoss(model, batch, { weights: [0, 0, 0], normalizer: 1 });
    expect(zero.grads!.every((g) => g === 0)).toBe(true);
    const sft = sftLoss(model, batch);
    expect(view(model.layout, sft.grads!, 'score.w').every((g) => g === 0)).toBe(true);
    const wm = worldModelLoss(model, batch, [0, 1, 0.5]);
    expect(view(model.layout, wm.grads!, 'score.w').some((g) => g !== 0)).toBe(true);
  });

  it('a few AdamW steps on the SFT gradient lower the loss; on the WM gradient move scores to targets', () => {
    const model = tinyTestModel(38);
    const batch = tinyBatch(model, 39);
    const m = new Float32Array(model.params.length);
    const v = new Float32Array(model.params.length);
    const cfg = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 };
    const before = sftLoss(model, batch, false).loss;
    for (let step = 1; step <= 10; step++) adamwStep(model.params, sftLoss(model, batch).grads!, m, v, step, cfg);
    expect(sftLoss(model, batch, false).loss).toBeLessThan(before * 0.8);

    const targets = [0.1, 0.9, 0.5];
    m.fill(0);
    v.fill(0);
    const wmBefore = worldModelLoss(model, batch, targets, false).loss;
    for (let step = 1; step <= 10; step++) adamwStep(model.params, worldModelLoss(model, batch, targets).grads!, m, v, step, cfg);
    expect(worldModelLoss(model, batch, targets, false).loss).toBeLessThan(wmBefore * 0.5);
  });

  it('rejects malformed batches and targets with clear errors', () => {
    const model = tinyTestModel(40);
    const batch = tinyBatch(model, 41);
    const bad = { ...batch, lossMask: batch.lossMask.slice() };
    bad.lossMask[0] = 1;
    expect(() => sftLoss(model, bad)).toThrow(/position 0/);
    const pad = { ...batch, lossMask: batch.lossMask.slice() };
    pad.lossMask[batch.T * 3 - 1] = 1; // the last row is shorter than T
    expect(() => sftLoss(model, pad)).toThrow(/padding/);
    expect(() => worldModelLoss(model, batch, [0, 1.5, 0])).toThrow(/outside \[0, 1\]/);
    expect(() => rlLoss(model, batch, { weights: [1], normalizer: 1 })).toThrow(/weights/);
    expect(() => rlLoss(model, batch, { weights: [1, 1, 1], normalizer: 0 })).toThrow(/normaliser/);
  });
});
