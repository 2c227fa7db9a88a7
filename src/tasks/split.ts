// The fixed train/test split of a task's rows. Seeded, stratified by class for classification (so a
// rare class lands on both sides), with caps on both sides because programs run in pure Python.

import { mulberry32, shuffleInPlace } from '../primitives/random.ts';

export interface SplitOptions {
  seed: number;
  testFraction: number;
  trainCap: number;
  testCap: number;
  /** Class label per row for a stratified split; omit for a plain shuffled split. */
  strata?: readonly string[];
}

export interface RowSplit {
  train: number[];
  test: number[];
}

/** Sizes of both sides for n usable rows. */
export function splitSizes(n: number, testFraction: number, trainCap: number, testCap: number): { nTrain: number; nTest: number } {
  const nTest = Math.min(testCap, Math.max(1, Math.round(testFraction * n)));
  const nTrain = Math.min(trainCap, n - nTest);
  return { nTrain, nTest };
}

/**
 * Splits k items across groups in proportion to their sizes (largest remainder; ties go to the
 * earlier group), never giving a group more than it has, and at least `minEach` to every group
 * of at least `guaranteeFrom` items when k allows.
 */
export function allocate(sizes: readonly number[], k: number, minEach: number, guaranteeFrom: number): number[] {
  const total = sizes.reduce((a, b) => a + b, 0);
  if (k > total) throw new Error(`allocate: ${k} items requested from ${total}`);
  if (total === 0) return sizes.map(() => 0);
  const quota = sizes.map((s) => (k * s) / total);
  const out = quota.map(Math.floor);
  let left = k - out.reduce((a, b) => a + b, 0);
  const byRemainder = sizes.map((_, i) => i).sort((a, b) => quota[b] - out[b] - (quota[a] - out[a]) || a - b);
  for (const i of byRemainder) {
    if (left === 0) break;
    if (out[i] < sizes[i]) {
      out[i]++;
      left--;
    }
  }
  // Guarantee the minimum by taking from the group with the most, when that one can spare it.
  for (let i = 0; i < sizes.length; i++) {
    while (out[i] < minEach && sizes[i] >= guaranteeFrom && out[i] < sizes[i]) {
      let donor = -1;
      for (let j = 0; j < sizes.length; j++) if (out[j] > minEach && (donor < 0 || out[j] > out[donor])) donor = j;
      if (donor < 0) break;
      out[donor]--;
      out[i]++;
    }
  }
  return out;
}

function groupIndices(strata: readonly string[]): { keys: string[]; groups: number[][] } {
  const map = new Map<string, number[]>();
  strata.forEach((s, i) => {
    const g = map.get(s);
    if (g) g.push(i);
    else map.set(s, [i]);
  });
  const keys = [...map.keys()].sort();
  return { keys, groups: keys.map((k) => map.get(k) ?? []) };
}

export function splitRows(n: number, opts: SplitOptions): RowSplit {
  const rng = mulberry32(opts.seed);
  const { nTrain, nTest } = splitSizes(n, opts.testFraction, opts.trainCap, opts.testCap);
  let train: number[];
  let test: number[];
  if (opts.strata) {
    if (opts.strata.length !== n) throw new Error('splitRows: one stratum per row needed');
    const { groups } = groupIndices(opts.strata);
    const pools = groups.map((g) => shuffleInPlace(rng, g.slice()));
    const testCounts = allocate(pools.map((p) => p.length), nTest, 1, 2);
    test = [];
    const rest = pools.map((p, i) => {
      test.push(...p.slice(0, testCounts[i]));
      return p.slice(testCounts[i]);
    });
    const trainCounts = allocate(rest.map((p) => p.length), nTrain, 1, 1);
    train = [];
    rest.forEach((p, i) => train.push(...p.slice(0, trainCounts[i])));
  } else {
    const order = shuffleInPlace(rng, Array.from({ length: n }, (_, i) => i));
    test = order.slice(0, nTest);
    train = order.slice(nTest, nTest + nTrain);
  }
  // Shuffle each side so rows are not grouped by class (a program taking the last rows of train.csv
  // as its validation set must not get one class only).
  return { train: shuffleInPlace(rng, train), test: shuffleInPlace(rng, test) };
}
