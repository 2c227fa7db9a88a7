// The world-model runner on the wasm EP: tokenise, pad, batched forward; equals the reference scores.
import { describe, expect, it } from 'vitest';
import { namedConfig } from '../../../src/model/config.ts';
import { createModel } from '../../../src/model/init.ts';
import { worldModelScores } from '../../../src/model/losses.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { exportWorldModel } from '../../../src/model/onnx/export.ts';
import { WorldModelRunner } from '../../../src/engine/onnx/world-model-runner.ts';
import { maxAbsDiff, testRng } from './fixtures.ts';

describe('world-model runner (wasm EP)', () => {
  it('scores (card, program) pairs like the reference, in one forward or in memory-bounded chunks', async () => {
    const tokenizer = new Tokenizer([]);
    const config = namedConfig('tiny', { vocabSize: tokenizer.vocabSize, contextLength: 24 });
    const model = createModel(config, testRng(31));
    // a score head far from 0 so that scores differ between programs
    for (let i = 0; i < config.dModel; i++) model.params[model.layout.byName.get('score.w')!.offset + i] = Math.sin(i) * 2;
    const pairs = [
      { card: 'clf r=10', program: 'fit(a)' },
      { card: 'reg', program: 'x=1' },
      { card: 'clf rows=200 features=8', program: 'model = trees(depth=3)' }, // longer than the context
      { card: 'reg', program: 'y' },
    ];
    const runner = await WorldModelRunner.create(exportWorldModel(model), tokenizer, { contextLength: 24, nHeads: config.nHeads }, { prefer: 'wasm' });
    expect(runner.backend).toBe('wasm');
    expect(runner.reason).toMatch(/wasm/);
    const got = await runner.score(pairs);
    expect(got.truncated).toBe(1);
    expect(got.forwards).toBe(1);
    const specs = pairs.map(({ card, program }) => {
      const s = tokenizer.encodeSequence(card, program);
      return { tokens: s.tokens.slice(0, 24), programStart: s.programStart };
    });
    const want = worldModelScores(model, makeSequenceBatch(specs));
    expect(maxAbsDiff(got.scores, want)).toBeLessThan(1e-5);
    expect(Math.max(...want) - Math.min(...want)).toBeGreaterThan(1e-3);
    await runner.release();

    const chunked = await WorldModelRunner.create(exportWorldModel(model), tokenizer, { contextLength: 24, nHeads: config.nHeads }, { prefer: 'wasm', maxAttentionElements: 2 * 2 * 24 * 24 });
    const again = await chunked.score(pairs);
    expect(again.forwards).toBeGreaterThan(1);
    expect(maxAbsDiff(again.scores, want)).toBeLessThan(1e-5);
    await chunked.release();
  });

  it('"auto" falls back to wasm where there is no WebGPU, and says why', async () => {
    const tokenizer = new Tokenizer([]);
    const config = namedConfig('tiny', { vocabSize: tokenizer.vocabSize });
    const runner = await WorldModelRunner.create(exportWorldModel(createModel(config, testRng(1))), tokenizer, config);
    expect(runner.backend).toBe('wasm');
    expect(runner.reason).toMatch(/WebGPU unavailable \(no-webgpu\).*; wasm \(\d+ threads\)/);
    await runner.release();
  });
});
