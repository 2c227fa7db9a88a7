// The engine-backed policy port on the real CPU engine: seeded sampling, the AdamW state round trip
// through the engine's getOptimizerState/setOptimizerState, PPO epochs and the KL term reaching the engine.
import { describe, expect, it } from 'vitest';
import { CpuEngine } from '../../../src/engine/cpu/cpu-engine.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { PolicyHost } from '../../../src/workers/policy-host.ts';
import type { SamplingProgress } from '../../../src/training/ports.ts';
import { cpuPolicy, testTokenizer, tinyPolicyModel } from './fixtures.ts';

const sampling = { maxNewTokens: 10, temperature: 1, topK: 0 };
const cards = ['Regression. Metric: RMSE.', 'Binary classification. Metric: AUC.'];

async function sampleBatch(host: PolicyHost) {
  const got = await host.sample(cards.flatMap((card) => [1, 2].map((seed) => ({ card, seed }))), sampling);
  return { got, batch: makeSequenceBatch(got.samples.map((s) => ({ tokens: [...s.promptTokens, ...s.programTokens], programStart: s.promptTokens.length }))) };
}

describe('PolicyHost (CPU engine)', { timeout: 30_000 }, () => {
  it('samples per seed, independent of batch neighbours, and decodes what it sampled', async () => {
    const host = await cpuPolicy(4);
    const both = await host.sample([{ card: cards[0], seed: 9 }, { card: cards[1], seed: 10 }], sampling);
    const alone = await host.sample([{ card: cards[1], seed: 10 }], sampling);
    expect(alone.samples[0]).toEqual(both.samples[1]);
    const s = both.samples[0];
    expect(s.promptTokens).toEqual(testTokenizer().encodeSequence(cards[0]).tokens);
    expect(s.programTokens.length).toBeGreaterThan(0);
    expect(s.programTokens.length).toBeLessThanOrEqual(10);
    expect(s.program).toBe(testTokenizer().decode(s.stopped ? s.programTokens.slice(0, -1) : s.programTokens));
    expect(both.busyMs).toBeGreaterThan(0);
    await host.dispose();
  });

  it('reports its progress while it samples: every program once, with its final text, and the same samples as without', async () => {
    const host = await cpuPolicy(4);
    const requests = cards.flatMap((card) => [3, 4, 5].map((seed) => ({ card, seed })));
    const quiet = await host.sample(requests, sampling);
    const reports: SamplingProgress[] = [];
    const told = await host.sample(requests, sampling, (p) => reports.push(structuredClone(p)));
    expect(told.samples).toEqual(quiet.samples);
    expect(reports.length).toBeGreaterThan(0);
    const finished = reports.flatMap((r) => r.finished);
    expect(finished.map((f) => f.index).sort((a, b) => a - b)).toEqual(requests.map((_, i) => i));
    for (const f of finished) expect(f.program).toBe(told.samples[f.index].program);
    // counts only grow, end at the total, and the program being written is one not yet finished
    const seen = new Set<number>();
    let done = 0;
    for (const r of reports) {
      expect(r.total).toBe(requests.length);
      expect(r.done).toBeGreaterThanOrEqual(done);
      done = r.done;
      for (const f of r.finished) seen.add(f.index);
      expect(r.done).toBe(seen.size);
      if (r.current) {
        expect(seen.has(r.current.index)).toBe(false);
        expect(told.samples[r.current.index].program.startsWith(r.current.program)).toBe(true);
      }
    }
    expect(reports.at(-1)!.done).toBe(requests.length);
    expect(reports.at(-1)!.tokens).toBe(told.samples.reduce((a, s) => a + s.programTokens.length, 0));
    await host.dispose();
  });

  it('carries AdamW state through getWeights/setWeights; without it the moments restart', async () => {
    const a = await cpuPolicy(4);
    const { batch } = await sampleBatch(a);
    const req = { batch, coefficients: [0.5, -0.5, 0.2, -0.2], normalizer: 40, lr: 1e-2, weightDecay: 0, maxGradNorm: 1 };
    await a.update(req);
    const saved = await a.getWeights();
    expect(saved.optimizer?.step).toBe(1);
    await a.update(req);
    const twoSteps = await a.getWeights();

    const b = await cpuPolicy(8);
    await b.setWeights(saved);
    await b.update(req);
    expect(Array.from((await b.getWeights()).params)).toEqual(Array.from(twoSteps.params));

    const c = await cpuPolicy(8);
    await c.setWeights({ params: saved.params, optimizer: null });
    const r = await c.update(req);
    expect(r.optimizerStep).toBe(1);
    expect(Array.from((await c.getWeights()).params)).not.toEqual(Array.from(twoSteps.params));
    // a state of the wrong size is refused before anything changes
    const n = saved.params.length;
    await expect(b.setWeights({ params: saved.params, optimizer: { step: 1, m: new Float32Array(n), v: new Float32Array(n + 4) } }))
      .rejects.toThrow(/optimizer state/);
    expect((await b.getWeights()).optimizer?.step).toBe(2);
    for (const h of [a, b, c]) await h.dispose();
  });

  it('several epochs clip the ratio against the sampling policy; the KL term needs and uses a reference', async () => {
    const model = tinyPolicyModel(4);
    const host = await PolicyHost.create(CpuEngine.fromModel(model), testTokenizer(), {
      makeReference: async (params) => CpuEngine.create(model.config, params),
    });
    const { batch } = await sampleBatch(host);
    const r = await host.update({ batch, coefficients: [1, -1, 1, -1], normalizer: 8, lr: 0.05, weightDecay: 0, maxGradNorm: 0, epochs: 4, clipEpsilon: 0.05, klBeta: 0.1 });
    expect(r.optimizerStep).toBe(4);
    expect(r.clipFraction).toBeGreaterThan(0);
    expect(r.meanKl).toBeGreaterThan(0);
    const noRef = await cpuPolicy(4);
    await expect(noRef.update({ batch, coefficients: [1, -1, 1, -1], normalizer: 8, lr: 0.05, weightDecay: 0, maxGradNorm: 0, klBeta: 0.1 })).rejects.toThrow(/reference/);
    await host.dispose();
    await noRef.dispose();
  });

  it('says clearly when a card leaves no room for a program, or the sizes disagree', async () => {
    const host = await cpuPolicy(4);
    await expect(host.sample([{ card: 'x'.repeat(400), seed: 1 }], sampling)).rejects.toThrow(/no room for a program/);
    const { batch } = await sampleBatch(host);
    await expect(host.update({ batch, coefficients: [1], normalizer: 8, lr: 0.01, weightDecay: 0, maxGradNorm: 1 })).rejects.toThrow(/coefficients for 4/);
    await expect(host.setWeights({ params: new Float32Array(3), optimizer: null })).rejects.toThrow(/weights/);
    await host.dispose();
  });
});
