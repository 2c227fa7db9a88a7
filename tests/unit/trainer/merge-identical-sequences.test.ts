// Merging identical RL sequences (src/training/merge-identical-sequences.ts): for any loss of the form
// sum_b w_b * f(sequence b), linear in each weight with f a function of the tokens and the masked-in
// span, the merged batch gives the same sum; rows keep the order of first occurrence and no sequence is
// lost. The robot trainer's use of it on a real step is checked in tests/unit/embodied/robot-trainer.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeSequenceBatch, type SequenceSpec } from '../../../src/model/sequence-batch.ts';
import { mergeIdenticalSequences } from '../../../src/training/merge-identical-sequences.ts';

const TOKENS = 4;
const LENGTH = 4;

// A few distinct-or-not sequences, then a batch that picks from them (so duplicates are common), with
// dyadic weights (k / 8), whose sums are exact in floating point.
const batchArb = fc
  .array(fc.record({ tokens: fc.array(fc.integer({ min: 0, max: TOKENS - 1 }), { minLength: 1, maxLength: LENGTH }), programStart: fc.integer({ min: 0, max: LENGTH }) }), { minLength: 1, maxLength: 5 })
  .chain((pool) => fc.array(fc.record({ pick: fc.nat({ max: pool.length - 1 }), w: fc.integer({ min: -64, max: 64 }).map((k) => k / 8) }), { minLength: 0, maxLength: 24 })
    .map((picks) => ({ sequences: picks.map((p) => ({ ...pool[p.pick] })), weights: picks.map((p) => p.w) })));

// A stand-in for a sequence's masked log-prob sum: a table value per (token, position), summed over the
// positions makeSequenceBatch masks in, so it sees exactly what the loss sees.
const tableArb = fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: TOKENS * LENGTH, maxLength: TOKENS * LENGTH });
function maskedSum(s: SequenceSpec, table: readonly number[]): number {
  const b = makeSequenceBatch([s]);
  let sum = 0;
  for (let t = 0; t < b.T; t++) if (b.lossMask[t] === 1) sum += table[b.tokens[t] * LENGTH + t];
  return sum;
}
const sameContent = (a: SequenceSpec, b: SequenceSpec) => {
  const x = makeSequenceBatch([a]);
  const y = makeSequenceBatch([b]);
  return x.T === y.T && x.tokens.every((v, i) => v === y.tokens[i]) && x.lossMask.every((v, i) => v === y.lossMask[i]);
};

describe('mergeIdenticalSequences', () => {
  it("keeps the weighted sum of any linear per-sequence function, the first occurrences' order, and every sequence (property)", () => {
    fc.assert(
      fc.property(batchArb, tableArb, ({ sequences, weights }, table) => {
        const m = mergeIdenticalSequences(sequences, weights);
        const original = sequences.reduce((a, s, i) => a + weights[i] * maskedSum(s, table), 0);
        const mergedSum = m.sequences.reduce((a, s, j) => a + m.coefficients[j] * maskedSum(s, table), 0);
        expect(mergedSum).toBe(original);
        // every input has its row, with its content; rows differ from each other
        expect(m.slot).toHaveLength(sequences.length);
        sequences.forEach((s, i) => expect(sameContent(m.sequences[m.slot[i]], s)).toBe(true));
        m.sequences.forEach((a, j) => m.sequences.slice(j + 1).forEach((b) => expect(sameContent(a, b)).toBe(false)));
        // rows are the first occurrences, in input order, and each row's weight is its inputs' sum
        const firsts = sequences.filter((s, i) => sequences.findIndex((x) => sameContent(x, s)) === i);
        expect(m.sequences).toEqual(firsts);
        m.sequences.forEach((s, j) => expect(m.sequences[j]).toBe(sequences[m.slot.indexOf(j)]));
        m.coefficients.forEach((c, j) => expect(c).toBe(weights.reduce((a, w, i) => a + (m.slot[i] === j ? w : 0), 0)));
      }),
      { numRuns: 500 },
    );
  });

  it('tells apart sequences that differ only in the target token or the masked-in span; spans that mask alike are one', () => {
    const m = mergeIdenticalSequences(
      [
        { tokens: [1, 2, 3], programStart: 2 }, { tokens: [1, 2, 4], programStart: 2 }, { tokens: [1, 2, 3], programStart: 1 }, { tokens: [1, 2, 3], programStart: 2 },
        { tokens: [5, 6], programStart: 0 }, { tokens: [5, 6], programStart: 1 }, // position 0 is never masked in
        { tokens: [7], programStart: 3 }, { tokens: [7], programStart: 1 }, // nothing masked in
      ],
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    expect(m.coefficients).toEqual([5, 2, 3, 11, 15]);
    expect(m.slot).toEqual([0, 1, 2, 0, 3, 3, 4, 4]);
  });

  it('refuses weights that do not match the sequences', () => {
    expect(() => mergeIdenticalSequences([{ tokens: [1, 2], programStart: 1 }], [1, 2])).toThrow(/2 coefficients for 1 sequences/);
  });
});
