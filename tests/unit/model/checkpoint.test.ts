import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_VERSION, loadCheckpoint, saveCheckpoint } from '../../../src/model/checkpoint.ts';
import { namedConfig } from '../../../src/model/config.ts';
import { createModel } from '../../../src/model/init.ts';
import { trainTokenizer } from '../../../src/model/tokenizer-training.ts';
import { syntheticCorpus } from './corpus.ts';
import { testRng } from './test-models.ts';

const tokenizer = trainTokenizer(syntheticCorpus(200, 3), { vocabSize: 300 });
const model = createModel(namedConfig('tiny', { vocabSize: tokenizer.vocabSize }), testRng(1));

describe('checkpoint format', () => {
  it('round-trips weights, config, tokenizer and meta through one ArrayBuffer', () => {
    const buf = saveCheckpoint(model, tokenizer, { step: 12, note: 'sft' });
    expect(buf).toBeInstanceOf(ArrayBuffer);
    const back = loadCheckpoint(buf);
    expect(back.model.config).toEqual(model.config);
    expect(back.model.params).toEqual(model.params);
    expect(back.model.layout.totalLength).toBe(model.layout.totalLength);
    expect(back.meta).toEqual({ step: 12, note: 'sft' });
    expect(back.tokenizer!.toJSON()).toEqual(tokenizer.toJSON());
    expect(back.tokenizer!.encode('model.fit(X, y)')).toEqual(tokenizer.encode('model.fit(X, y)'));
    // Also from a Uint8Array that is a window into a larger buffer.
    const bytes = new Uint8Array(buf);
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    expect(loadCheckpoint(padded.subarray(3)).model.params).toEqual(model.params);
  });

  it('saves without a tokenizer', () => {
    const back = loadCheckpoint(saveCheckpoint(model));
    expect(back.tokenizer).toBeNull();
  });

  it('rejects a wrong magic, a wrong version, truncation, trailing bytes and corruption', () => {
    const good = new Uint8Array(saveCheckpoint(model, tokenizer));
    const edit = (f: (b: Uint8Array) => void): Uint8Array => {
      const b = good.slice();
      f(b);
      return b;
    };
    expect(() => loadCheckpoint(edit((b) => (b[0] = 0x41)))).toThrow(/magic/);
    expect(() => loadCheckpoint(edit((b) => new DataView(b.buffer).setUint32(8, CHECKPOINT_VERSION + 1, true)))).toThrow(/version 2 is not supported/);
    expect(() => loadCheckpoint(good.slice(0, 10))).toThrow(/truncated/);
    expect(() => loadCheckpoint(good.slice(0, 100))).toThrow(/truncated/);
    expect(() => loadCheckpoint(good.slice(0, good.length - 4))).toThrow(/truncated.*4 bytes of weights missing/);
    const longer = new Uint8Array(good.length + 4);
    longer.set(good);
    expect(() => loadCheckpoint(longer)).toThrow(/unexpected bytes/);
    expect(() => loadCheckpoint(edit((b) => (b[b.length - 5] ^= 0x10)))).toThrow(/corrupted/);
    expect(() => loadCheckpoint(edit((b) => (b[16] = 0x7b + 1)))).toThrow(/not valid JSON/);
  });

  it('refuses a tokenizer whose vocabulary differs from the model', () => {
    const other = createModel(namedConfig('tiny', { vocabSize: 280 }), testRng(1));
    expect(() => saveCheckpoint(other, tokenizer)).toThrow(/vocabulary/);
  });
});

describe('checkpoint properties', () => {
  it('round-trips random configurations and weights exactly; rejects every truncation', () => {
    fc.assert(
      fc.property(
        fc.record({
          heads: fc.integer({ min: 1, max: 3 }),
          headDim: fc.integer({ min: 1, max: 4 }),
          nLayers: fc.integer({ min: 1, max: 2 }),
          vocabSize: fc.integer({ min: 1, max: 40 }),
          contextLength: fc.integer({ min: 1, max: 9 }),
          seed: fc.integer({ min: 0, max: 1 << 30 }),
          cut: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        }),
        (r) => {
          const config = namedConfig('tiny', {
            nHeads: r.heads,
            dModel: r.heads * r.headDim,
            nLayers: r.nLayers,
            vocabSize: r.vocabSize,
            contextLength: r.contextLength,
          });
          const m = createModel(config, testRng(r.seed));
          const buf = new Uint8Array(saveCheckpoint(m, null, { seed: r.seed }));
          const back = loadCheckpoint(buf);
          expect(back.model.config).toEqual(config);
          expect(Array.from(back.model.params)).toEqual(Array.from(m.params));
          expect(() => loadCheckpoint(buf.subarray(0, Math.floor(r.cut * buf.length)))).toThrow(/truncated/);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('checkpoint from a Node Buffer', () => {
  it('reads the weights, not the rest of the Buffer pool the bytes sit in', () => {
    // Like readFileSync's pooled Buffers: the bytes sit inside a larger ArrayBuffer, at an offset.
    const bytes = new Uint8Array(saveCheckpoint(model, tokenizer));
    const pool = Buffer.alloc(bytes.length + 64, 7);
    pool.set(bytes, 16);
    const pooled = pool.subarray(16, 16 + bytes.length);
    expect(loadCheckpoint(pooled).model.params).toEqual(model.params);
  });
});
