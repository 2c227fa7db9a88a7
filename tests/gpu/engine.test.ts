// The WebGPU policy engine against the reference model (src/model) on the 'tiny' configuration:
// forward logits and log-probs, every parameter gradient (LM coefficient loss and world-model
// loss), AdamW steps with clipping, the AdamW state round trip (bit-exact resume), and seeded
// sampling with the KV cache.

import { beforeAll, describe, expect, it } from 'vitest';
import { namedConfig } from '../../src/model/config.ts';
import { createModel, type Model } from '../../src/model/init.ts';
import { rlLoss, sftLoss, tokenLogProbs, worldModelLoss, worldModelScores } from '../../src/model/losses.ts';
import { adamwStep, clipByGlobalNorm, globalNorm } from '../../src/model/ops/reference-ops.ts';
import { view } from '../../src/model/parameter-layout.ts';
import { sample } from '../../src/model/sampling.ts';
import { makeSequenceBatch, type SequenceBatch } from '../../src/model/sequence-batch.ts';
import { forward, lmLogits } from '../../src/model/transformer.ts';
import { readFloat32 } from '../../src/gpu/buffers.ts';
import { GpuPolicyEngine } from '../../src/engine/webgpu/gpu-policy-engine.ts';
import { deriveSeed, mulberry32 } from '../../src/primitives/random.ts';
import { closeness, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';
import { expectOptimizerRoundTrip } from '../unit/onnx/engine-conformance.ts';

const config = namedConfig('tiny');
let device: GPUDevice;
let model: Model;
let engine: GpuPolicyEngine;

/** A reference model whose biases and LayerNorm parameters are not at their init values, so every path carries signal. */
function testModel(seed: number): Model {
  const rand = seededRandom(seed);
  const m = createModel(config, rand);
  for (const v of m.layout.views) {
    const t = view(m.layout, m.params, v.name);
    const scale = v.decay ? 0.15 : 0.2;
    for (let i = 0; i < t.length; i++) t[i] += (rand() * 2 - 1) * scale;
  }
  return m;
}

function testBatch(seed: number, lengths: number[], T: number): SequenceBatch {
  const rand = seededRandom(seed);
  return makeSequenceBatch(lengths.map((len) => ({
    tokens: Array.from({ length: len }, () => Math.floor(rand() * config.vocabSize)),
    programStart: Math.min(3, len - 1),
  })), T);
}

/** Per-tensor check: relative L2 error and elementwise closeness scaled to the tensor's size. */
function expectTensorsClose(got: Float32Array, want: Float32Array, label: string, rel = 2e-4): void {
  const diff = new Float32Array(want.length);
  for (let i = 0; i < want.length; i++) diff[i] = got[i] - want[i];
  const norm = globalNorm(want);
  const err = globalNorm(diff);
  expect(err, `${label}: |diff| ${err} vs |want| ${norm}`).toBeLessThanOrEqual(rel * norm + 1e-7);
  let maxAbs = 0;
  for (const x of want) maxAbs = Math.max(maxAbs, Math.abs(x));
  expect(closeness(got, want, 1e-3 * maxAbs + 1e-7, 1e-3), label).toBeLessThanOrEqual(1);
}

function expectAllGradients(got: Float32Array, want: Float32Array, what: string): void {
  for (const v of model.layout.views) {
    expectTensorsClose(view(model.layout, got, v.name), view(model.layout, want, v.name), `${what} ${v.name}`);
  }
  // the alignment gaps carry no gradient
  const mask = new Uint8Array(got.length);
  for (const v of model.layout.views) mask.fill(1, v.offset, v.offset + v.size);
  for (let i = 0; i < got.length; i++) if (!mask[i]) expect(got[i]).toBe(0);
}

beforeAll(async () => {
  device = (await testDevice()).device;
  model = testModel(7);
  engine = new GpuPolicyEngine(device, config, { maxBatch: 4, maxSeq: config.contextLength }, model.params);
});

describe('GPU policy engine (tiny) against the reference', () => {
  const batch = testBatch(11, [16, 11, 5], 16);

  it('round-trips the weights and reports its memory', async () => {
    expect(await engine.getWeights()).toEqual(model.params);
    expect(engine.memoryBytes).toBeGreaterThan(4 * 4 * model.layout.totalLength);
  });

  it('forward: logits of every row and the token log-probs', async () => {
    const got = await expectNoGpuError(device, () => engine.logProbs(batch, 'all'));
    expectTensorsClose(got, tokenLogProbs(model, batch, 'all'), 'log-probs', 1e-5);
    const rows = Array.from({ length: batch.B * batch.T }, (_, i) => i);
    const want = lmLogits(model, forward(model, batch.tokens, batch.B, batch.T).hidden, rows).logits;
    const logits = await readFloat32(device, engine.model.buffers.logits, want.length);
    expectTensorsClose(logits, want, 'logits', 1e-5);
    // the mask selection matches the reference's
    const masked = await engine.logProbs(batch, 'mask');
    const wantMasked = tokenLogProbs(model, batch, 'mask');
    for (let i = 0; i < masked.length; i++) expect(masked[i] === 0).toBe(wantMasked[i] === 0);
  });

  it('SFT loss and every parameter gradient', async () => {
    const ref = sftLoss(model, batch);
    const got = await expectNoGpuError(device, () => engine.gradients(batch, { kind: 'sft' }));
    expect(Math.abs(got.loss - ref.loss)).toBeLessThan(1e-5 * Math.abs(ref.loss) + 1e-6);
    expect(got.count).toBe(ref.tokens);
    expectAllGradients(got.grads, ref.grads!, 'sft');
  });

  it('RL loss with signed per-sequence weights: every parameter gradient', async () => {
    const options = { weights: [1.3, -0.7, 0.4], normalizer: 20 };
    const ref = rlLoss(model, batch, options);
    const got = await engine.gradients(batch, { kind: 'rl', ...options });
    expect(Math.abs(got.loss - ref.loss)).toBeLessThan(1e-5 * Math.abs(ref.loss) + 1e-6);
    expect(got.policyLoss).toBe(got.loss);
    expectAllGradients(got.grads, ref.grads!, 'rl');
  });

  it('RL loss with ratio clipping and a KL penalty: terms and gradients', async () => {
    const current = tokenLogProbs(model, batch, 'mask');
    const shift = (d: number): Float32Array => current.map((x, i) => (x === 0 ? 0 : x + d * Math.sin(i)));
    const options = { weights: [0.9, -1.1, 0.5], normalizer: 20, clip: { epsilon: 0.2, oldLogProbs: shift(0.4) },
      kl: { beta: 0.05, refLogProbs: shift(0.3) } };
    const ref = rlLoss(model, batch, options);
    expect(ref.clipFraction).toBeGreaterThan(0);
    const got = await engine.gradients(batch, { kind: 'rl', ...options });
    expect(Math.abs(got.loss - ref.loss)).toBeLessThan(1e-4 * Math.abs(ref.loss) + 1e-6);
    expect(got.clipFraction).toBe(ref.clipFraction);
    expect(Math.abs(got.meanKl! - ref.meanKl)).toBeLessThan(1e-4 * ref.meanKl + 1e-7);
    expectAllGradients(got.grads, ref.grads!, 'rl clipped');
  });

  it('world model: scores, squared-error loss and every parameter gradient through the score head', async () => {
    const targets = [0.9, 0.1, 0.55];
    const ref = worldModelLoss(model, batch, targets);
    const scores = await engine.worldModelScores(batch);
    expectTensorsClose(scores, worldModelScores(model, batch), 'scores', 1e-5);
    const got = await expectNoGpuError(device, () => engine.gradients(batch, { kind: 'wm', targets }));
    expect(Math.abs(got.loss - ref.loss)).toBeLessThan(1e-5 * ref.loss + 1e-7);
    expect(got.count).toBe(batch.B);
    expectAllGradients(got.grads, ref.grads!, 'world model');
  });
});

describe('GPU policy engine: AdamW steps', () => {
  it('two clipped steps (SFT then world model) match the reference weights, decay per tensor', async () => {
    const m = testModel(21);
    const eng = new GpuPolicyEngine(device, config, { maxBatch: 2, maxSeq: 12 }, m.params);
    const opt = { lr: 3e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 0.5 };
    const options = { adamw: opt, maxGradNorm: opt.maxGradNorm };
    const mom = new Float32Array(m.params.length);
    const vel = new Float32Array(m.params.length);
    const refStep = (grads: Float32Array, step: number): { norm: number; scale: number } => {
      const norm = globalNorm(grads);
      const scale = clipByGlobalNorm(grads, opt.maxGradNorm);
      for (const v of m.layout.views) {
        const sub = (a: Float32Array): Float32Array => a.subarray(v.offset, v.offset + v.size);
        adamwStep(sub(m.params), sub(grads), sub(mom), sub(vel), step, { ...opt, weightDecay: v.decay ? opt.weightDecay : 0 });
      }
      return { norm, scale };
    };
    const b1 = testBatch(5, [12, 9], 12);
    const ref1 = sftLoss(m, b1);
    const got1 = await expectNoGpuError(device, () => eng.update(b1, { kind: 'sft' }, options));
    const r1 = refStep(ref1.grads!, 1);
    expect(Math.abs(got1.loss - ref1.loss)).toBeLessThan(1e-5 * ref1.loss);
    expect(Math.abs(got1.gradNorm / r1.norm - 1)).toBeLessThan(1e-4);
    expect(got1.clipScale).toBeLessThan(1);
    expect(got1.step).toBe(1);
    expect(Math.abs(got1.clipScale - r1.scale)).toBeLessThan(1e-5);
    // the second step's gradient comes from the updated weights (and the refreshed q/k/v split)
    const b2 = testBatch(6, [10, 12], 12);
    const targets = [0.2, 0.8];
    const ref2 = worldModelLoss(m, b2, targets);
    const got2 = await eng.update(b2, { kind: 'wm', targets }, options);
    const r2 = refStep(ref2.grads!, 2);
    expect(Math.abs(got2.loss - ref2.loss)).toBeLessThan(1e-4 * ref2.loss + 1e-7);
    expect(Math.abs(got2.gradNorm / r2.norm - 1)).toBeLessThan(1e-3);
    // Adam divides by sqrt(v): where the true gradient is 0 (the key bias: softmax ignores a shift
    // shared by a row's scores) both sides step by +-lr on rounding noise. Those elements are only
    // bounded; every other weight must match.
    const weights = await eng.getWeights();
    const noise = (i: number): boolean => Math.abs(ref1.grads![i]) < 1e-8 && Math.abs(ref2.grads![i]) < 1e-8;
    const sure = m.layout.views.flatMap((v) => Array.from({ length: v.size }, (_, k) => v.offset + k)).filter((i) => !noise(i));
    const pick = (a: Float32Array): Float32Array => Float32Array.from(sure, (i) => a[i]);
    expect(sure.length).toBeGreaterThan(0.95 * m.layout.numParameters);
    expect(closeness(pick(weights), pick(m.params), 2e-5, 1e-4)).toBeLessThanOrEqual(1);
    for (let i = 0; i < weights.length; i++) expect(Math.abs(weights[i] - m.params[i])).toBeLessThanOrEqual(4 * opt.lr);
    const state = await eng.model.getOptimizerState();
    expect(state.step).toBe(2);
    expect(closeness(pick(state.m), pick(mom), 1e-6, 1e-3)).toBeLessThanOrEqual(1);
    await eng.dispose();
  });
});

describe('GPU policy engine: AdamW state round trip', () => {
  it('state and weights after two updates, set into a fresh engine, give the same next update bit for bit', async () => {
    const m = testModel(31);
    const opts = { maxBatch: 2, maxSeq: 12 };
    const first = new GpuPolicyEngine(device, config, opts, m.params);
    const fresh = new GpuPolicyEngine(device, config, opts, m.params);
    const batch = testBatch(8, [12, 7], 12);
    const objective = { kind: 'rl' as const, weights: [1.2, -0.6], normalizer: 16 };
    const options = { adamw: { lr: 2e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1 }, maxGradNorm: 0.5 };
    await expectOptimizerRoundTrip({
      first,
      fresh,
      restart: () => new GpuPolicyEngine(device, config, opts, m.params),
      batch,
      objective,
      options,
      guard: (fn) => expectNoGpuError(device, fn),
    });
    for (const e of [first, fresh]) await e.dispose();
  });
});

describe('GPU policy engine: seeded sampling with the KV cache', () => {
  // prompts of three lengths share every decode (maxBatch 4: two calls of 4 and 2 sequences)
  const prompts = [[1, 7, 9], [1, 4], [1, 30, 2, 17, 5]];
  for (const [temperature, topK] of [[1, 0], [0.8, 5], [0, 0]] as const) {
    it(`reproduces the reference sampler's tokens (temperature ${temperature}, top-k ${topK})`, async () => {
      const n = 2;
      const seed = 99;
      const all = prompts.flatMap((p) => Array.from({ length: n }, () => p));
      const rngs = all.map((_, i) => mulberry32(deriveSeed(seed, i)));
      const got = await expectNoGpuError(device, () =>
        engine.sample(all, { maxNewTokens: 12, temperature, topK, rngs, stopToken: 3 }));
      expect(got).toHaveLength(prompts.length * n);
      if (temperature > 0) {
        // some sequences end early at the stop token, others run to maxNewTokens
        expect(got.some((g) => g.stopped)).toBe(true);
        expect(got.some((g) => !g.stopped)).toBe(true);
      }
      let generated = 0;
      for (let i = 0; i < got.length; i++) {
        const prompt = prompts[Math.floor(i / n)];
        const want = sample(model, prompt, { maxNewTokens: 12, temperature, topK, rng: mulberry32(deriveSeed(seed, i)), stopToken: 3 });
        expect(got[i].tokens, `sequence ${i}`).toEqual(want.tokens);
        expect(got[i].stopped).toBe(want.stopped);
        generated += want.tokens.length;
        expect(closeness(Float32Array.from(got[i].logProbs), Float32Array.from(want.logProbs), 1e-4, 1e-4)).toBeLessThanOrEqual(1);
      }
      expect(generated).toBeGreaterThan(prompts.length * n);
    });
  }

  it('stops at the context length and agrees with the full forward on the sampled sequence', async () => {
    const rngs = [mulberry32(5), mulberry32(6)];
    const prompt = [1, 8, 8, 8];
    const got = await engine.sampleWith([prompt, prompt], rngs, { maxNewTokens: 100, stopToken: -1, checkEvery: 3 });
    for (const seq of got) {
      expect(seq.tokens).toHaveLength(config.contextLength - prompt.length);
      expect(seq.stopped).toBe(false);
      const full = makeSequenceBatch([{ tokens: [...prompt, ...seq.tokens], programStart: prompt.length }]);
      const lp = tokenLogProbs(model, full, 'mask').subarray(prompt.length);
      expect(closeness(Float32Array.from(seq.logProbs), lp, 1e-4, 1e-4)).toBeLessThanOrEqual(1);
    }
  });
});

describe("GPU policy engine on 'mini': ragged prompts, greedy, in one decode", () => {
  it('gives the reference greedy tokens for prompts of 1 to 23 tokens; a stopped sequence ends, the others go on', async () => {
    const mini = namedConfig('mini');
    const m = createModel(mini, seededRandom(31));
    const rand = seededRandom(32);
    const prompts = [1, 23, 6, 14].map((len) => [1, ...Array.from({ length: len - 1 }, () => Math.floor(rand() * mini.vocabSize))]);
    const maxNewTokens = 10;
    const free = prompts.map((p) => sample(m, p, { maxNewTokens, temperature: 0, rng: mulberry32(0), stopToken: -1 }).tokens);
    // the stop token: what the third prompt emits at its fourth step, unless an earlier one is the same
    const stopToken = free[2][3];
    const gpu = new GpuPolicyEngine(device, mini, { maxBatch: prompts.length, maxSeq: 32 }, m.params);
    try {
      const got = await expectNoGpuError(device, () => gpu.sampleWith(prompts, prompts.map((_, i) => mulberry32(i)),
        { maxNewTokens, temperature: 0, topK: 0, stopToken, checkEvery: 4 }));
      let stopped = 0;
      prompts.forEach((p, i) => {
        const want = sample(m, p, { maxNewTokens, temperature: 0, rng: mulberry32(0), stopToken });
        expect(got[i].tokens, `prompt ${i} (${p.length} tokens)`).toEqual(want.tokens);
        expect(got[i].stopped).toBe(want.stopped);
        expect(got[i].logProbs.every((l) => l === 0)).toBe(true);
        if (want.stopped) stopped++;
      });
      expect(stopped).toBeGreaterThan(0);
      expect(stopped).toBeLessThan(prompts.length);
    } finally {
      await gpu.dispose();
    }
  });
});

