import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenLogProbs } from '../../../src/model/losses.ts';
import { nextTokenLogits, sample, sampleFromLogits } from '../../../src/model/sampling.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { testRng, tinyTestModel } from './test-models.ts';

const model = tinyTestModel(21);
const prompt = [1, 7, 9, 2];

describe('reference sampling', () => {
  it('is deterministic per seed and differs across seeds', () => {
    const run = (seed: number) => sample(model, prompt, { maxNewTokens: 10, rng: testRng(seed), stopToken: -1 });
    expect(run(1)).toEqual(run(1));
    expect(run(1).tokens).not.toEqual(run(2).tokens);
  });

  it('top-k = 1 and temperature 0 are greedy', () => {
    const greedy = sample(model, prompt, { maxNewTokens: 8, temperature: 0, rng: testRng(0), stopToken: -1 });
    const top1 = sample(model, prompt, { maxNewTokens: 8, topK: 1, rng: testRng(9), stopToken: -1 });
    expect(top1.tokens).toEqual(greedy.tokens);
    // Each greedy token is the argmax of the reference logits of its prefix.
    const seq = [...prompt];
    for (const t of greedy.tokens) {
      const logits = nextTokenLogits(model, seq);
      expect(logits[t]).toBe(Math.max(...logits));
      seq.push(t);
    }
    expect(top1.logProbs.every((lp) => lp === 0)).toBe(true);
  });

  it('top-k only ever emits one of the k most likely tokens', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 1000 }), (k, seed) => {
        const logits = Float32Array.from({ length: 20 }, (_, i) => Math.sin(i * 1.7 + seed));
        const allowed = [...logits.keys()].sort((a, b) => logits[b] - logits[a]).slice(0, k);
        const { token } = sampleFromLogits(logits, { topK: k, rng: testRng(seed) });
        expect(allowed).toContain(token);
      }),
    );
  });

  it('draws with the softmax frequencies', () => {
    const logits = Float32Array.from([0, Math.log(2), Math.log(3), -Infinity]);
    const rng = testRng(4);
    const counts = [0, 0, 0, 0];
    const n = 6000;
    for (let i = 0; i < n; i++) counts[sampleFromLogits(logits, { rng }).token]++;
    expect(counts[0] / n).toBeCloseTo(1 / 6, 1);
    expect(counts[1] / n).toBeCloseTo(2 / 6, 1);
    expect(counts[2] / n).toBeCloseTo(3 / 6, 1);
    expect(counts[3]).toBe(0);
  });

  it('reports log-probs that agree with the forward at temperature 1 and stops at the context length', () => {
    const res = sample(model, prompt, { maxNewTokens: 100, rng: testRng(3), stopToken: -1 });
    expect(prompt.length + res.tokens.length).toBe(model.config.contextLength);
    expect(res.stopped).toBe(false);
    const seq = [...prompt, ...res.tokens];
    const batch = makeSequenceBatch([{ tokens: seq, programStart: prompt.length }]);
    const lp = tokenLogProbs(model, batch, 'mask');
    res.logProbs.forEach((v, i) => expect(lp[prompt.length + i]).toBeCloseTo(v, 4));
  });

  it('stops right after the stop token', () => {
    const free = sample(model, prompt, { maxNewTokens: 6, temperature: 0, rng: testRng(0), stopToken: -1 });
    const stopToken = free.tokens[3];
    const res = sample(model, prompt, { maxNewTokens: 12, temperature: 0, rng: testRng(0), stopToken });
    expect(res.stopped).toBe(true);
    expect(res.tokens).toEqual(free.tokens.slice(0, free.tokens.indexOf(stopToken) + 1));
  });
});
