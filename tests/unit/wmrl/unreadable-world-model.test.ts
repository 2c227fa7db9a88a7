// The claim-5 control: shuffled scores keep their values and lose their link to the program.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { unreadableScores } from '../../../src/wmrl/unreadable-world-model.ts';
import { pearson } from '../../../src/pipeline/rank-metrics.ts';

describe('unreadableScores', () => {
  it('is a permutation of the scores, fixed by the seed, and leaves its input alone', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }), fc.integer(), (scores, seed) => {
        const before = [...scores];
        const out = unreadableScores(scores, seed);
        expect(scores).toEqual(before);
        expect([...out].sort((a, b) => a - b)).toEqual([...scores].sort((a, b) => a - b));
        expect(unreadableScores(scores, seed)).toEqual(out);
      }),
    );
  });

  it('breaks the link between score and program: over many steps the correlation with the original order vanishes', () => {
    const n = 32;
    const scores = Array.from({ length: n }, (_, i) => i / (n - 1));
    let sumCorr = 0;
    const steps = 400;
    for (let step = 0; step < steps; step++) sumCorr += pearson(unreadableScores(scores, step), scores);
    // The correlation of a random permutation has mean 0 and sd 1/sqrt(n - 1); averaged over 400 draws, |mean| < 0.03.
    expect(Math.abs(sumCorr / steps)).toBeLessThan(0.03);
  });
});
