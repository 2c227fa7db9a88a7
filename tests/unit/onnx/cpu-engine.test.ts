// The CPU engine (onnxruntime-web wasm): the shared engine conformance checks, plus what is CPU-specific.
import { describe, expect, it } from 'vitest';
import { sftLoss, tokenLogProbs, worldModelLoss } from '../../../src/model/losses.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { CpuEngine } from '../../../src/engine/cpu/cpu-engine.ts';
import { conformanceBatch, policyEngineConformance } from './engine-conformance.ts';
import { maxAbsDiff, roughModel } from './fixtures.ts';

policyEngineConformance('cpu', (model) => CpuEngine.fromModel(model, { numThreads: 2 }));

describe('CPU engine specifics', () => {
  const model = roughModel('tiny', 21);

  it('names its backend', async () => {
    const engine = CpuEngine.fromModel(model);
    expect(engine.backend).toMatch(/^cpu \(onnxruntime-web wasm, \d+ threads\)$/);
    await engine.dispose();
  });

  it('chunked runs (row chunks, padding beyond the longest sequence dropped) give the reference loss and gradients', async () => {
    const chunked = CpuEngine.fromModel(model, { maxTokensPerRun: 20 });
    const narrow = conformanceBatch(model, 4, 12, 26);
    // the same sequences in a wider batch: extra padding columns must change nothing
    const batch = makeSequenceBatch(Array.from({ length: 4 }, (_, b) => ({ tokens: Array.from(narrow.tokens.subarray(b * 12, b * 12 + narrow.lengths[b])), programStart: 2 + b })), 15);
    const sft = sftLoss(model, batch);
    const got = await chunked.gradients(batch, { kind: 'sft' });
    expect(got.loss).toBeCloseTo(sft.loss, 4);
    expect(maxAbsDiff(got.grads, sft.grads!)).toBeLessThan(1e-4 * Math.max(...sft.grads!.map(Math.abs)));
    const targets = [0.2, 0.4, 0.6, 0.8];
    const wm = worldModelLoss(model, batch, targets);
    const gotWm = await chunked.gradients(batch, { kind: 'wm', targets });
    expect(gotWm.loss).toBeCloseTo(wm.loss, 5);
    expect(maxAbsDiff(gotWm.grads, wm.grads!)).toBeLessThan(1e-4 * Math.max(...wm.grads!.map(Math.abs)));
    expect(maxAbsDiff(await chunked.logProbs(batch, 'all'), tokenLogProbs(model, batch, 'all'))).toBeLessThan(2e-5);
    await chunked.dispose();
  });

  it("the 'pairwise' world-model loss, its pairs split across row chunks, gives the reference loss and gradients, unlike 'mse'", async () => {
    // 20 tokens per run and rows of up to 12: one row per chunk, so every pair couples two runs
    const chunked = CpuEngine.fromModel(model, { maxTokensPerRun: 20 });
    const batch = conformanceBatch(model, 5, 12, 31);
    const targets = [0.3, 0.8, 0.6, 0, 0.1];
    const ranking = { groups: ['t1', 't1', 't2', 't1', 't1'], ran: [true, true, true, false, true], weight: 1.5 };
    const want = worldModelLoss(model, batch, targets, true, 'pairwise', ranking);
    const mse = worldModelLoss(model, batch, targets, true, 'mse');
    const got = await chunked.gradients(batch, { kind: 'wm', targets, loss: 'pairwise', ranking });
    expect(got.loss).toBeCloseTo(want.loss, 5);
    expect(got.pairs).toBe(3);
    expect(got.count).toBe(5);
    const scale = Math.max(...want.grads!.map(Math.abs));
    expect(maxAbsDiff(got.grads, want.grads!)).toBeLessThan(1e-4 * scale);
    expect(maxAbsDiff(got.grads, mse.grads!)).toBeGreaterThan(1e-2 * scale);
    // weight 0: exactly the squared error's objective
    const zero = await chunked.gradients(batch, { kind: 'wm', targets, loss: 'pairwise', ranking: { ...ranking, weight: 0 } });
    expect(zero.loss).toBeCloseTo(mse.loss, 5);
    expect(maxAbsDiff(zero.grads, mse.grads!)).toBeLessThan(1e-4 * Math.max(...mse.grads!.map(Math.abs)));
    await expect(chunked.gradients(batch, { kind: 'wm', targets, loss: 'pairwise' })).rejects.toThrow(/needs each row's group and ran flag/);
    await expect(chunked.gradients(batch, { kind: 'wm', targets, loss: 'pairwise', ranking: { ...ranking, groups: ['t1'] } })).rejects.toThrow(/one group and one ran flag per row/);
    await chunked.dispose();
  });

});
