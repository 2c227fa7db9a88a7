// The pairwise world-model objective's own math (src/model/pairwise-rank-loss.ts): which rows form
// pairs, and its gradient on the logits against finite differences. The backward through the
// transformer is checked in gradients.test.ts, the engine against the reference in cpu-engine.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WithinGroupRanking } from '../../../src/model/pairwise-rank-loss.ts';
import { pairwiseTerms, rankPairs, softplus, validateRanking } from '../../../src/model/pairwise-rank-loss.ts';

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Rows: a logit, a target on a coarse grid (so ties occur), a group among three, a ran flag. */
const rowsArb = fc.array(
  fc.record({
    z: fc.double({ min: -6, max: 6, noNaN: true }),
    y: fc.integer({ min: 0, max: 8 }).map((k) => k / 8),
    g: fc.constantFrom('a', 'b', 'c'),
    ran: fc.boolean(),
  }),
  { minLength: 1, maxLength: 12 },
);

function split(rows: { z: number; y: number; g: string; ran: boolean }[], weight: number) {
  const z = rows.map((r) => r.z);
  const targets = rows.map((r) => r.y);
  const ranking: WithinGroupRanking = { groups: rows.map((r) => r.g), ran: rows.map((r) => r.ran), weight };
  return { z, targets, ranking };
}

describe('rankPairs', () => {
  it('pairs only rows of one group that both ran, with strictly ordered targets, better first, each pair once', () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const { targets, ranking } = split(rows, 1);
        const pairs = rankPairs(targets, ranking);
        const seen = new Set<string>();
        for (const [hi, lo] of pairs) {
          expect(rows[hi].g).toBe(rows[lo].g);
          expect(rows[hi].ran && rows[lo].ran).toBe(true);
          expect(targets[hi]).toBeGreaterThan(targets[lo]);
          const key = [Math.min(hi, lo), Math.max(hi, lo)].join(',');
          expect(seen.has(key)).toBe(false);
          seen.add(key);
        }
        // and every such pair is there
        let expected = 0;
        for (let i = 0; i < rows.length; i++) for (let j = i + 1; j < rows.length; j++) {
          if (rows[i].ran && rows[j].ran && rows[i].g === rows[j].g && rows[i].y !== rows[j].y) expected++;
        }
        expect(pairs.length).toBe(expected);
      }),
    );
  });

  it('a failed program (ran false) never enters a pair, even with a target above 0', () => {
    expect(rankPairs([0.9, 0.5, 0.1], { groups: ['t', 't', 't'], ran: [false, true, true], weight: 1 })).toEqual([[1, 2]]);
  });
});

describe('pairwiseTerms', () => {
  it('its gradient on the logits matches central finite differences of its loss (scores = sigmoid(logits))', () => {
    fc.assert(
      fc.property(rowsArb, fc.double({ min: 0, max: 3, noNaN: true }), (rows, weight) => {
        const { z, targets, ranking } = split(rows, weight);
        const loss = (zs: number[]) => pairwiseTerms(zs.map(sigmoid), zs, targets, ranking).loss;
        const { dLogits } = pairwiseTerms(z.map(sigmoid), z, targets, ranking);
        const h = 1e-5;
        z.forEach((_, i) => {
          const up = z.slice();
          const down = z.slice();
          up[i] += h;
          down[i] -= h;
          const fd = (loss(up) - loss(down)) / (2 * h);
          expect(Math.abs(dLogits[i] - fd)).toBeLessThan(1e-6 + 1e-4 * Math.abs(fd));
        });
      }),
    );
  });

  it('is the squared error plus weight x the mean softplus over pairs; weight 0 leaves the squared error alone', () => {
    fc.assert(
      fc.property(rowsArb, fc.double({ min: 0, max: 3, noNaN: true }), (rows, weight) => {
        const { z, targets, ranking } = split(rows, weight);
        const s = z.map(sigmoid);
        const t = pairwiseTerms(s, z, targets, ranking);
        const mse = s.reduce((a, v, i) => a + (v - targets[i]) ** 2, 0) / s.length;
        const pairs = rankPairs(targets, ranking);
        const mean = pairs.length ? pairs.reduce((a, [hi, lo]) => a + softplus(z[lo] - z[hi]), 0) / pairs.length : 0;
        expect(t.pointwise).toBeCloseTo(mse, 12);
        expect(t.pairwise).toBeCloseTo(mean, 12);
        expect(t.pairs).toBe(pairs.length);
        expect(t.loss).toBeCloseTo(mse + weight * mean, 12);
        const none = pairwiseTerms(s, z, targets, { ...ranking, weight: 0 });
        expect(none.loss).toBeCloseTo(mse, 12);
      }),
    );
  });

  it('pushes the better program of a pair up and the worse down, by equal amounts', () => {
    const z = [0, 0];
    const t = pairwiseTerms(z.map(sigmoid), z, [0.5, 0.5 - 1e-9], { groups: [1, 1], ran: [true, true], weight: 2 });
    // the targets are almost equal, so the squared error pulls both the same way; the difference is the ranking term
    const rank = t.dLogits[0] - t.dLogits[1];
    expect(rank).toBeCloseTo(-2 * 2 * sigmoid(0), 6);
  });

  it('a pair ranked right by a wide margin costs almost nothing, one ranked wrong costs about the margin', () => {
    const ranking = { groups: ['t', 't'], ran: [true, true], weight: 1 };
    const right = pairwiseTerms([0.5, 0.5], [10, -10], [0.9, 0.1], ranking);
    const wrong = pairwiseTerms([0.5, 0.5], [-10, 10], [0.9, 0.1], ranking);
    expect(right.pairwise).toBeLessThan(1e-8);
    expect(wrong.pairwise).toBeCloseTo(20, 6);
  });

  it('names bad input: a ranking of another length, a negative or infinite weight', () => {
    expect(() => validateRanking({ groups: ['a'], ran: [true, true], weight: 1 }, 2, 'here')).toThrow(/here: ranking needs one group and one ran flag per row/);
    expect(() => validateRanking({ groups: ['a', 'a'], ran: [true, true], weight: -1 }, 2, 'here')).toThrow(/pairwise weight must be a finite number >= 0/);
    expect(() => validateRanking({ groups: ['a', 'a'], ran: [true, true], weight: Infinity }, 2, 'here')).toThrow(/pairwise weight/);
  });
});
