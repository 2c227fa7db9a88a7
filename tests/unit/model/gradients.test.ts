import { describe, expect, it } from 'vitest';
import { rlLoss, sftLoss, tokenLogProbs, worldModelLoss } from '../../../src/model/losses.ts';
import { checkGradient, indicesPerView } from './gradient-check.ts';
import { testRng, tinyBatch, tinyTestModel } from './test-models.ts';

const TOL = 2e-2;

describe('reference backward matches central finite differences on tiny', () => {
  it('SFT cross-entropy', () => {
    const model = tinyTestModel(1);
    const batch = tinyBatch(model, 2);
    const { grads } = sftLoss(model, batch);
    const report = checkGradient(model, () => sftLoss(model, batch, false).loss, grads!, indicesPerView(model, 3, testRng(3)));
    expect(report.worst.error, JSON.stringify(report.worst)).toBeLessThan(TOL);
  });

  it('world-model squared error', () => {
    const model = tinyTestModel(4);
    const batch = tinyBatch(model, 5);
    const targets = [0.1, 0.9, 0.5];
    const { grads } = worldModelLoss(model, batch, targets);
    const report = checkGradient(model, () => worldModelLoss(model, batch, targets, false).loss, grads!, indicesPerView(model, 3, testRng(6)));
    expect(report.worst.error, JSON.stringify(report.worst)).toBeLessThan(TOL);
  });

  it('world-model binary cross-entropy (soft targets, failures at 0)', () => {
    const model = tinyTestModel(4);
    const batch = tinyBatch(model, 5);
    const targets = [0, 1, 0.3];
    const { grads } = worldModelLoss(model, batch, targets, true, 'bce');
    const report = checkGradient(model, () => worldModelLoss(model, batch, targets, false, 'bce').loss, grads!, indicesPerView(model, 3, testRng(6)));
    expect(report.worst.error, JSON.stringify(report.worst)).toBeLessThan(TOL);
  });

  it('world-model squared error plus the within-task pairwise term (pairs cross no group, skip a failure)', () => {
    const model = tinyTestModel(4);
    const batch = tinyBatch(model, 5, 4);
    const targets = [0.2, 0.9, 0.5, 0];
    const ranking = { groups: ['a', 'a', 'b', 'a'], ran: [true, true, true, false], weight: 2 };
    const { grads } = worldModelLoss(model, batch, targets, true, 'pairwise', ranking);
    const report = checkGradient(model, () => worldModelLoss(model, batch, targets, false, 'pairwise', ranking).loss, grads!, indicesPerView(model, 3, testRng(6)));
    expect(report.worst.error, JSON.stringify(report.worst)).toBeLessThan(TOL);
  });

  it('RL without clipping', () => {
    const model = tinyTestModel(7);
    const batch = tinyBatch(model, 8);
    const opts = { weights: [0.7, -1.2, 0.4], normalizer: 20 };
    const { grads } = rlLoss(model, batch, opts);
    const report = checkGradient(model, () => rlLoss(model, batch, opts, false).loss, grads!, indicesPerView(model, 3, testRng(9)));
    expect(report.worst.error, JSON.stringify(report.worst)).toBeLessThan(TOL);
  });

  it('RL with ratio clipping (some tokens clipped, some not) and a k3 KL term', () => {
    const model = tinyTestModel(10);
    const batch = tinyBatch(model, 11);
    const current = tokenLogProbs(model, batch, 'mask');
    const rng = testRng(12);
    // Old log-probs offset from the current ones by +-0.05 (inside eps = 0.2) or +-0.6 (outside):
    // far from the clip boundaries so a finite-difference step never crosses one.
    const old = new Float32Array(current.length);
    const ref = new Float32Array(current.length);
    for (let i = 0; i < current.length; i++) {
      const far = rng() < 0.5;
      const sign = rng() < 0.5 ? -1 : 1;
      old[i] = current[i] + sign * (far ? 0.6 : 0.05);
      ref[i] = current[i] + 0.5 * (rng() - 0.5);
    }
    const opts = {
      weights: [0.7, -1.2, 0.4],
      normalizer: 20,
      clip: { epsilon: 0.2, oldLogProbs: old },
      kl: { beta: 0.3, refLogProbs: ref },
    };
    const result = rlLoss(model, batch, opts);
    expect(result.clipFraction).toBeGreaterThan(0.1);
    expect(result.clipFraction).toBeLessThan(0.9);
    expect(result.meanKl).toBeGreaterThan(0);
    const report = checkGradient(model, () => rlLoss(model, batch, opts, false).loss, result.grads!, indicesPerView(model, 3, testRng(13)));
    expect(report.worst.error, JSON.stringify(report.worst)).toBeLessThan(TOL);
  });
});
