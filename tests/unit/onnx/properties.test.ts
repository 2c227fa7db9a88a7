// Property and sweep tests of the training graph and exports: random batch shapes (dynamic B, T,
// lengths, masks, weights) and every named configuration.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_NAMES } from '../../../src/model/config.ts';
import type { Model } from '../../../src/model/init.ts';
import { rlLoss, sftLoss } from '../../../src/model/losses.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { forward, lmLogits } from '../../../src/model/transformer.ts';
import { CpuEngine } from '../../../src/engine/cpu/cpu-engine.ts';
import { exportPolicyLogits } from '../../../src/model/onnx/export.ts';
import { createWasmSession, floatData, int64Tensor } from '../../../src/engine/onnx/ort-runtime.ts';
import { maxAbs, maxAbsDiff, randomTokens, roughModel } from './fixtures.ts';

describe('training graph under random batch shapes (tiny)', () => {
  let model: Model;
  let engine: CpuEngine;
  beforeAll(() => {
    model = roughModel('tiny', 51);
    engine = CpuEngine.fromModel(model);
  });
  afterAll(async () => engine.dispose());

  it('RL gradients equal rlLoss for any lengths, program starts and per-sequence weights', async () => {
    const V = model.config.vocabSize;
    const sequence = fc.record({
      tokens: fc.array(fc.integer({ min: 0, max: V - 1 }), { minLength: 1, maxLength: model.config.contextLength }),
      programStart: fc.integer({ min: 1, max: 16 }),
      weight: fc.double({ min: -3, max: 3, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(sequence, { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 3 }), async (seqs, extraPad) => {
        const T = Math.min(model.config.contextLength, Math.max(...seqs.map((s) => s.tokens.length)) + extraPad);
        const batch = makeSequenceBatch(seqs.map((s) => ({ tokens: s.tokens, programStart: s.programStart })), T);
        const options = { weights: seqs.map((s) => s.weight), normalizer: 17 };
        const want = rlLoss(model, batch, options);
        const got = await engine.gradients(batch, { kind: 'rl', ...options });
        expect(got.count).toBe(want.tokens);
        expect(Math.abs(got.loss - want.loss)).toBeLessThan(1e-4 * (1 + Math.abs(want.loss)));
        expect(maxAbsDiff(got.grads, want.grads!)).toBeLessThan(2e-4 * (maxAbs(want.grads!) + 1e-6));
      }),
      { numRuns: 12, seed: 7 },
    );
  });
});

describe('every named configuration', () => {
  it.each(CONFIG_NAMES)('%s: exported logits and SFT gradients match the reference on a short batch', async (name) => {
    const model = roughModel(name, 61);
    const [B, T] = [2, 6];
    const tokens = randomTokens(model, B, T, 62);
    const session = await createWasmSession(exportPolicyLogits(model));
    const got = floatData((await session.run({ tokens: int64Tensor(tokens, [B, T]) })).logits);
    const want = lmLogits(model, forward(model, tokens, B, T).hidden, Array.from({ length: B * T }, (_, i) => i)).logits;
    expect(maxAbsDiff(got, want)).toBeLessThan(2e-5 * (1 + maxAbs(want)));
    await session.release();
    const batch = makeSequenceBatch([{ tokens: Array.from(tokens.subarray(0, T)), programStart: 2 }, { tokens: Array.from(tokens.subarray(T, T + 4)), programStart: 1 }], T);
    const engine = CpuEngine.fromModel(model);
    const g = await engine.gradients(batch, { kind: 'sft' });
    const ref = sftLoss(model, batch);
    for (const v of model.layout.views) {
      const a = g.grads.subarray(v.offset, v.offset + v.size);
      const b = ref.grads!.subarray(v.offset, v.offset + v.size);
      expect(maxAbsDiff(a, b), v.name).toBeLessThan(5e-4 * (maxAbs(b) + 1e-6));
    }
    await engine.dispose();
  }, 60_000);
});
