import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { preTokenize } from '../../../src/model/pre-tokenize.ts';
import { BASE_VOCAB, SPECIAL_TOKENS, Tokenizer, completeUtf8Length } from '../../../src/model/tokenizer.ts';
import { trainTokenizer } from '../../../src/model/tokenizer-training.ts';
import { syntheticCorpus } from './corpus.ts';

const corpus = syntheticCorpus(600, 1);
const tok = trainTokenizer(corpus, { vocabSize: 512 });

describe('byte-level BPE tokenizer', () => {
  it('learns the requested number of merges and compresses the kind of text it was trained on', () => {
    expect(tok.vocabSize).toBe(512);
    const text = corpus[1];
    const ids = tok.encode(text);
    expect(ids.length).toBeLessThan(new TextEncoder().encode(text).length / 3);
    expect(tok.decode(ids)).toBe(text);
  });

  it('round-trips every byte string', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const ids = tok.encode(bytes);
        expect(Array.from(tok.decodeBytes(ids))).toEqual(Array.from(bytes));
        for (const id of ids) expect(tok.isSpecial(id)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips unicode text and pre-tokens tile the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (s) => {
        expect(tok.decode(tok.encode(s))).toBe(s);
        const bytes = new TextEncoder().encode(s);
        let at = 0;
        for (const [a, b] of preTokenize(bytes)) {
          expect(a).toBe(at);
          expect(b).toBeGreaterThan(a);
          at = b;
        }
        expect(at).toBe(bytes.length);
      }),
      { numRuns: 200 },
    );
  });

  it('is deterministic: same corpus, same merges, whatever the input order of equal-count pairs', () => {
    const again = trainTokenizer(corpus, { vocabSize: 512 });
    expect(again.toJSON()).toEqual(tok.toJSON());
    const reversed = trainTokenizer([...corpus].reverse(), { vocabSize: 512 });
    expect(reversed.toJSON()).toEqual(tok.toJSON());
  });

  it('merges the most frequent pair first', () => {
    const t = trainTokenizer(['abab abab abab xy'], { vocabSize: BASE_VOCAB + 1 });
    const [a, b] = t.merges[0];
    expect(t.decode([a, b])).toBe('ab');
  });

  it('stops early when no pair repeats', () => {
    const t = trainTokenizer(['abcdef'], { vocabSize: 1000 });
    expect(t.vocabSize).toBe(BASE_VOCAB);
  });

  it('frames sequences with special tokens that text can never produce', () => {
    const { tokens, programStart } = tok.encodeSequence('card text', 'print(1)');
    expect(tokens[0]).toBe(SPECIAL_TOKENS.bos);
    expect(tokens[programStart - 1]).toBe(SPECIAL_TOKENS.sep);
    expect(tokens[tokens.length - 1]).toBe(SPECIAL_TOKENS.eos);
    expect(tok.decode(tokens.slice(programStart, -1))).toBe('print(1)');
    // The literal names of special tokens are ordinary text.
    expect(tok.encode('<eos><pad>').some((id) => tok.isSpecial(id))).toBe(false);
    const prompt = tok.encodeSequence('card text');
    expect(prompt.tokens[prompt.tokens.length - 1]).toBe(SPECIAL_TOKENS.sep);
    expect(prompt.programStart).toBe(prompt.tokens.length);
  });

  it('saves and loads as JSON with identical encodings', () => {
    const loaded = Tokenizer.fromJSON(JSON.parse(JSON.stringify(tok)));
    expect(loaded.vocabSize).toBe(tok.vocabSize);
    for (const text of corpus.slice(0, 20)) expect(loaded.encode(text)).toEqual(tok.encode(text));
  });

  it('rejects malformed JSON clearly', () => {
    const good = tok.toJSON();
    expect(() => Tokenizer.fromJSON({ ...good, version: 99 })).toThrow(/version/);
    expect(() => Tokenizer.fromJSON({ ...good, format: 'other' })).toThrow(/format/);
    expect(() => Tokenizer.fromJSON({ ...good, merges: [[BASE_VOCAB + 5, 4]] })).toThrow(/not yet defined/);
    expect(() => Tokenizer.fromJSON({ ...good, merges: [[4, 5], [4, 5]] })).toThrow(/duplicate/);
    expect(() => tok.decode([tok.vocabSize])).toThrow(/outside the vocabulary/);
  });
});

describe('tokenizers trained on random small-alphabet corpora (many overlapping repeats)', () => {
  it('round-trip any text and learn only valid merges', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '_', '1'), maxLength: 40 });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 12 }), text, fc.integer({ min: 260, max: 300 }), (corpus, probe, V) => {
        const t = trainTokenizer(corpus, { vocabSize: V });
        expect(t.vocabSize).toBeLessThanOrEqual(V);
        const reloaded = Tokenizer.fromJSON(t.toJSON());
        for (const s of [...corpus, probe]) {
          expect(t.decode(t.encode(s))).toBe(s);
          expect(reloaded.encode(s)).toEqual(t.encode(s));
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('decodeWritten: the text of a sample still being written', () => {
  it('is a prefix of the finished text at every cut, whatever bytes the tokens hold', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: tok.vocabSize - 1 }), { maxLength: 40 }), (ids) => {
      const full = tok.decode(ids);
      for (let k = 0; k <= ids.length; k++) expect(full.startsWith(tok.decodeWritten(ids.slice(0, k)))).toBe(true);
    }));
  });

  it('leaves out only a character whose bytes have not all arrived', () => {
    const bytes = new TextEncoder().encode('a€'); // 61 e2 82 ac
    expect(completeUtf8Length(bytes)).toBe(4);
    expect(completeUtf8Length(bytes.subarray(0, 3))).toBe(1);
    expect(completeUtf8Length(bytes.subarray(0, 2))).toBe(1);
    expect(completeUtf8Length(new Uint8Array([0x80, 0x80]))).toBe(2);
  });
});
