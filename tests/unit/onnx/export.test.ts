// Exported inference graphs against the TypeScript reference (src/model/transformer.ts) on the wasm EP.
import { describe, expect, it } from 'vitest';
import { namedConfig } from '../../../src/model/config.ts';
import { createModel } from '../../../src/model/init.ts';
import type { Model } from '../../../src/model/init.ts';
import { forward, lmLogits, scoreHead } from '../../../src/model/transformer.ts';
import { decodeInputNames, exportPolicyDecoder, exportPolicyLogits, exportWorldModel } from '../../../src/model/onnx/export.ts';
import { createWasmSession, floatData, floatTensor, int64Tensor, ort } from '../../../src/engine/onnx/ort-runtime.ts';
import { MASKED_BIAS } from '../../../src/model/onnx/transformer-graph.ts';
import { maxAbsDiff, randomTokens, roughModel, testRng } from './fixtures.ts';

function referenceLogits(model: Model, tokens: Int32Array, B: number, T: number): Float32Array {
  const cache = forward(model, tokens, B, T);
  return lmLogits(model, cache.hidden, Array.from({ length: B * T }, (_, i) => i)).logits;
}

describe('ONNX export (wasm EP)', () => {
  it('policy logits match the reference on tiny, both weight modes', async () => {
    const model = roughModel('tiny', 1);
    const [B, T] = [3, 11];
    const tokens = randomTokens(model, B, T, 2);
    const want = referenceLogits(model, tokens, B, T);
    const frozen = await createWasmSession(exportPolicyLogits(model));
    const got = floatData((await frozen.run({ tokens: int64Tensor(tokens, [B, T]) })).logits);
    expect(maxAbsDiff(got, want)).toBeLessThan(2e-5 * (1 + Math.max(...want.map(Math.abs))));
    const fed = await createWasmSession(exportPolicyLogits(model, 'flat-input'));
    const got2 = floatData((await fed.run({ tokens: int64Tensor(tokens, [B, T]), params: floatTensor(model.params, [model.params.length]) })).logits);
    expect(maxAbsDiff(got2, got)).toBeLessThan(1e-6);
    await frozen.release();
    await fed.release();
  });

  it('policy logits match the reference on mini at full context', async () => {
    const model = createModel(namedConfig('mini'), testRng(3));
    const [B, T] = [2, model.config.contextLength];
    const tokens = randomTokens(model, B, T, 4);
    const want = referenceLogits(model, tokens, B, T);
    const session = await createWasmSession(exportPolicyLogits(model));
    const got = floatData((await session.run({ tokens: int64Tensor(tokens, [B, T]) })).logits);
    expect(maxAbsDiff(got, want)).toBeLessThan(1e-4);
    await session.release();
  });

  it('world-model score matches the reference at the last real token', async () => {
    const model = roughModel('tiny', 5);
    const [B, T] = [4, 9];
    const tokens = randomTokens(model, B, T, 6);
    const lengths = Int32Array.from([9, 1, 5, 7]);
    const want = scoreHead(model, forward(model, tokens, B, T), lengths);
    const session = await createWasmSession(exportWorldModel(model));
    const got = floatData((await session.run({ tokens: int64Tensor(tokens, [B, T]), lengths: int64Tensor(lengths, [B]) })).score);
    expect(maxAbsDiff(got, want)).toBeLessThan(1e-5);
    // the pad tail must not matter: change tokens after each length
    const noisy = tokens.slice();
    for (let b = 0; b < B; b++) for (let t = lengths[b]; t < T; t++) noisy[b * T + t] = (noisy[b * T + t] + 7) % model.config.vocabSize;
    const got2 = floatData((await session.run({ tokens: int64Tensor(noisy, [B, T]), lengths: int64Tensor(lengths, [B]) })).score);
    expect(maxAbsDiff(got2, got)).toBeLessThan(1e-6);
    await session.release();
  });

  it('incremental decoding (prefill, then one token at a time) equals the full forward', async () => {
    const model = roughModel('tiny', 7);
    const { nLayers: L, nHeads: H } = model.config;
    const Dh = model.config.dModel / H;
    const V = model.config.vocabSize;
    const [B, T, P0] = [2, 12, 5];
    const tokens = randomTokens(model, B, T, 8);
    const want = referenceLogits(model, tokens, B, T);
    const session = await createWasmSession(exportPolicyDecoder(model));
    let past: ort.Tensor[] = [];
    for (let l = 0; l < 2 * L; l++) past.push(floatTensor(new Float32Array(0), [B, H, 0, Dh]));
    let P = 0;
    const step = async (S: number): Promise<Float32Array> => {
      const tok = new Int32Array(B * S);
      const pos = new Int32Array(B * S);
      const bias = new Float32Array(B * S * (P + S));
      for (let b = 0; b < B; b++) {
        for (let s = 0; s < S; s++) {
          tok[b * S + s] = tokens[b * T + P + s];
          pos[b * S + s] = P + s;
          for (let j = 0; j < P + S; j++) if (j > P + s) bias[(b * S + s) * (P + S) + j] = MASKED_BIAS;
        }
      }
      const feeds: Record<string, ort.Tensor> = {
        tokens: int64Tensor(tok, [B, S]),
        positions: int64Tensor(pos, [B, S]),
        attn_bias: floatTensor(bias, [B, 1, S, P + S]),
      };
      for (let l = 0; l < L; l++) {
        feeds[decodeInputNames(l).pastKey] = past[2 * l];
        feeds[decodeInputNames(l).pastValue] = past[2 * l + 1];
      }
      const out = await session.run(feeds);
      past = [];
      for (let l = 0; l < L; l++) past.push(out[decodeInputNames(l).presentKey], out[decodeInputNames(l).presentValue]);
      expect(past[0].dims).toEqual([B, H, P + S, Dh]);
      P += S;
      return floatData(out.logits);
    };
    const got = new Float32Array(B * T * V);
    const place = (logits: Float32Array, start: number, S: number): void => {
      for (let b = 0; b < B; b++) for (let s = 0; s < S; s++) got.set(logits.subarray((b * S + s) * V, (b * S + s + 1) * V), (b * T + start + s) * V);
    };
    place(await step(P0), 0, P0);
    for (let t = P0; t < T; t++) place(await step(1), t, 1);
    expect(maxAbsDiff(got, want)).toBeLessThan(2e-5 * (1 + Math.max(...want.map(Math.abs))));
    await session.release();
  });
});
