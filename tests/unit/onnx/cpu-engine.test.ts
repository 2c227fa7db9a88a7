// The CPU engine (onnxruntime-web wasm): the shared engine conformance checks, plus what is CPU-specific.
import { describe, expect, it } from 'vitest';
import { sftLoss, tokenLogProbs, worldModelLoss } from '../../../src/model/losses.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { CpuEngine } from '../../../src/engine/cpu-engine.ts';
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

});
