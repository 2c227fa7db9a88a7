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

/** Learning rate with linear warm-up then cosine decay to `floor` x peak. */
export function learningRate(step: number, total: number, peak: number, warmup: number, floor = 0.1): number {
  if (step < warmup) return (peak * (step + 1)) / warmup;
  const p = Math.min(1, (step - warmup) / Math.max(1, total - warmup));
  return peak * (floor + (1 - floor) * 0.5 * (1 + Math.cos(Math.PI * p)));
}
