// Seeded mini-batches of sequence indices, grouped by similar length: the engine pads a batch to its
// longest row, so mixing 60- and 290-token sequences would waste most of a step on padding.

import type { Rng } from '../primitives/random.ts';
import { shuffleInPlace } from '../primitives/random.ts';

/**
 * One epoch of batches: shuffle, cut into windows of `window` batches, sort each window by length,
 * split it into batches of `batchSize`, then shuffle the batch order. Every index appears once.
 */
export function lengthGroupedBatches(lengths: readonly number[], batchSize: number, rng: Rng, window = 8): number[][] {
  if (!(batchSize >= 1)) throw new Error(`batch size ${batchSize}`);
  const order = shuffleInPlace(rng, lengths.map((_, i) => i));
  const batches: number[][] = [];
  const span = batchSize * window;
  for (let s = 0; s < order.length; s += span) {
    const w = order.slice(s, s + span).sort((a, b) => lengths[a] - lengths[b] || a - b);
    for (let b = 0; b < w.length; b += batchSize) batches.push(w.slice(b, b + batchSize));
  }
  return shuffleInPlace(rng, batches);
}

/**
 * One epoch of batches that hold same-group pairs (for the pairwise world-model loss, whose pairs
 * never cross a task): each batch is batchSize / perGroup runs of perGroup rows of one group. A
 * group's rows are shuffled and, window by window, sorted by length before they are cut into runs;
 * the runs of all groups are shuffled, sorted by their longest row window by window and put
 * together in that order, and the batch order is shuffled, as in lengthGroupedBatches. Two runs of
 * one group may share a batch. Every index appears once; a group's last run may be shorter.
 */
export function groupedPairBatches(groups: readonly string[], lengths: readonly number[], batchSize: number, perGroup: number, rng: Rng, window = 8): number[][] {
  if (groups.length !== lengths.length) throw new Error(`grouped batches: ${groups.length} groups for ${lengths.length} rows`);
  if (!(Number.isInteger(perGroup) && perGroup >= 2 && perGroup <= batchSize)) throw new Error(`grouped batches: rows per group ${perGroup} must be a whole number in 2..${batchSize} (the batch size)`);
  const byGroup = new Map<string, number[]>();
  groups.forEach((g, i) => byGroup.set(g, [...(byGroup.get(g) ?? []), i]));
  const longest = (run: readonly number[]): number => Math.max(...run.map((i) => lengths[i]));
  const runs: number[][] = [];
  for (const g of [...byGroup.keys()].sort()) {
    const order = shuffleInPlace(rng, byGroup.get(g)!);
    for (let s = 0; s < order.length; s += perGroup * window) {
      const w = order.slice(s, s + perGroup * window).sort((a, b) => lengths[a] - lengths[b] || a - b);
      for (let r = 0; r < w.length; r += perGroup) runs.push(w.slice(r, r + perGroup));
    }
  }
  shuffleInPlace(rng, runs);
  const runsPerBatch = Math.max(1, Math.floor(batchSize / perGroup));
  const batches: number[][] = [];
  for (let s = 0; s < runs.length; s += runsPerBatch * window) {
    const w = runs.slice(s, s + runsPerBatch * window).sort((a, b) => longest(a) - longest(b) || a[0] - b[0]);
    for (let b = 0; b < w.length; b += runsPerBatch) batches.push(w.slice(b, b + runsPerBatch).flat());
  }
  return shuffleInPlace(rng, batches);
}

/** Learning rate with linear warm-up then cosine decay to `floor` x peak. */
export function learningRate(step: number, total: number, peak: number, warmup: number, floor = 0.1): number {
  if (step < warmup) return (peak * (step + 1)) / warmup;
  const p = Math.min(1, (step - warmup) / Math.max(1, total - warmup));
  return peak * (floor + (1 - floor) * 0.5 * (1 + Math.cos(Math.PI * p)));
}
