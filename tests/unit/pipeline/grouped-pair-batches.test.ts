// Batches for the pairwise world-model loss (src/pipeline/batches.ts, groupedPairBatches): runs of
// one task's programs, so a batch holds same-task pairs; seeded; every example once per epoch.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/primitives/random.ts';
import { groupedPairBatches, lengthGroupedBatches } from '../../../src/pipeline/batches.ts';

const dataArb = fc.record({
  rows: fc.array(fc.record({ g: fc.constantFrom('t1', 't2', 't3', 't4', 't5', 't6'), len: fc.integer({ min: 10, max: 300 }) }), { minLength: 1, maxLength: 120 }),
  batchSize: fc.integer({ min: 2, max: 16 }),
  seed: fc.integer(),
}).chain((d) => fc.record({ d: fc.constant(d), perGroup: fc.integer({ min: 2, max: d.batchSize }) }));

/** Same-group pairs inside the batches. */
const samePairs = (batches: number[][], groups: string[]): number =>
  batches.reduce((n, b) => n + b.reduce((m, i, k) => m + b.slice(k + 1).filter((j) => groups[j] === groups[i]).length, 0), 0);

describe('groupedPairBatches', () => {
  it('every index once per epoch, no batch above the batch size, each batch made of runs of perGroup rows of one group', () => {
    fc.assert(
      fc.property(dataArb, ({ d, perGroup }) => {
        const groups = d.rows.map((r) => r.g);
        const lengths = d.rows.map((r) => r.len);
        const batches = groupedPairBatches(groups, lengths, d.batchSize, perGroup, mulberry32(d.seed));
        expect(batches.flat().sort((a, b) => a - b)).toEqual(d.rows.map((_, i) => i));
        for (const b of batches) {
          expect(b.length).toBeLessThanOrEqual(d.batchSize);
          // a group's rows sit together: the batch's group sequence changes at most once per run
          const runs = Math.floor(d.batchSize / perGroup);
          let changes = 0;
          for (let k = 1; k < b.length; k++) if (groups[b[k]] !== groups[b[k - 1]]) changes++;
          expect(changes).toBeLessThan(runs);
        }
      }),
    );
  });

  it('is seeded: the same seed gives the same epoch, another seed another', () => {
    const groups = Array.from({ length: 200 }, (_, i) => `t${i % 7}`);
    const lengths = Array.from({ length: 200 }, (_, i) => 50 + ((i * 37) % 200));
    const a = groupedPairBatches(groups, lengths, 16, 4, mulberry32(3));
    expect(groupedPairBatches(groups, lengths, 16, 4, mulberry32(3))).toEqual(a);
    expect(groupedPairBatches(groups, lengths, 16, 4, mulberry32(4))).not.toEqual(a);
  });

  it('holds many more same-task pairs than length-grouped batches of 16 from 16 tasks', () => {
    const groups = Array.from({ length: 1600 }, (_, i) => `t${i % 16}`);
    const lengths = Array.from({ length: 1600 }, (_, i) => 60 + ((i * 53) % 230));
    const grouped = samePairs(groupedPairBatches(groups, lengths, 16, 4, mulberry32(1)), groups);
    const mixed = samePairs(lengthGroupedBatches(lengths, 16, mulberry32(1)), groups);
    // 100 batches of 4 tasks x 4 programs: at least 6 same-task pairs in each of its 4 runs
    expect(grouped).toBeGreaterThanOrEqual(100 * 4 * 6);
    expect(grouped).toBeGreaterThan(3 * mixed);
  });

  it('names bad input', () => {
    expect(() => groupedPairBatches(['a'], [1, 2], 16, 4, mulberry32(1))).toThrow(/1 groups for 2 rows/);
    expect(() => groupedPairBatches(['a', 'a'], [1, 2], 16, 1, mulberry32(1))).toThrow(/rows per group 1 must be a whole number in 2..16/);
    expect(() => groupedPairBatches(['a', 'a'], [1, 2], 4, 8, mulberry32(1))).toThrow(/rows per group 8/);
  });
});
