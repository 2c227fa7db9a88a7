// Learns BPE merges from a list of texts. Fast because (1) texts are cut into pre-tokens and only
// distinct pre-tokens are kept, with counts; (2) pair counts are updated incrementally, touching
// only the words that contain the merged pair (found through a pair -> words index); (3) the next
// best pair comes from a lazy max-heap instead of a scan over all pairs.
// Ties (equal counts) go to the smallest (left id, right id), which makes training deterministic.

import { preTokenize } from './pre-tokenize.ts';
import { BASE_VOCAB, BYTE_OFFSET, mergePair, Tokenizer, tokenPairKey } from './tokenizer.ts';

export interface TokenizerTrainingOptions {
  /** Target vocabulary size including the 4 special tokens and 256 bytes (>= 260). */
  vocabSize: number;
  /** A pair must occur at least this often to be merged (default 2); training may stop early. */
  minPairCount?: number;
}

interface Word {
  ids: number[];
  count: number;
}

/** Max-heap of (count, key) with smaller key first among equal counts; stale entries are skipped on pop. */
class PairHeap {
  private counts: number[] = [];
  private keys: number[] = [];

  get size(): number {
    return this.counts.length;
  }

  private above(i: number, j: number): boolean {
    const ci = this.counts[i];
    const cj = this.counts[j];
    return ci > cj || (ci === cj && this.keys[i] < this.keys[j]);
  }

  private swap(i: number, j: number): void {
    const c = this.counts[i];
    this.counts[i] = this.counts[j];
    this.counts[j] = c;
    const k = this.keys[i];
    this.keys[i] = this.keys[j];
    this.keys[j] = k;
  }

  push(count: number, key: number): void {
    this.counts.push(count);
    this.keys.push(key);
    let i = this.counts.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.above(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  pop(): { count: number; key: number } | undefined {
    const n = this.counts.length;
    if (n === 0) return undefined;
    const top = { count: this.counts[0], key: this.keys[0] };
    const lastC = this.counts.pop() as number;
    const lastK = this.keys.pop() as number;
    if (n > 1) {
      this.counts[0] = lastC;
      this.keys[0] = lastK;
      let i = 0;
      const m = n - 1;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < m && this.above(l, best)) best = l;
        if (r < m && this.above(r, best)) best = r;
        if (best === i) break;
        this.swap(i, best);
        i = best;
      }
    }
    return top;
  }
}

const PAIR_BASE = 2097152;

export function trainTokenizer(texts: Iterable<string | Uint8Array>, options: TokenizerTrainingOptions): Tokenizer {
  const { vocabSize } = options;
  const minPairCount = options.minPairCount ?? 2;
  if (!Number.isInteger(vocabSize) || vocabSize < BASE_VOCAB) {
    throw new Error(`trainTokenizer: vocabSize must be an integer >= ${BASE_VOCAB}, got ${vocabSize}`);
  }
  const encoder = new TextEncoder();

  // Distinct pre-tokens with their counts.
  const chunkCounts = new Map<string, number>();
  for (const t of texts) {
    const bytes = typeof t === 'string' ? encoder.encode(t) : t;
    for (const [s, e] of preTokenize(bytes)) {
      if (e - s < 2) continue; // a single byte can never take part in a merge
      let key = '';
      for (let i = s; i < e; i++) key += String.fromCharCode(bytes[i]);
      chunkCounts.set(key, (chunkCounts.get(key) ?? 0) + 1);
    }
  }
  // Sorted so that word indices (and thus everything after) do not depend on Map insertion order.
  const words: Word[] = [...chunkCounts.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([key, count]) => {
      const ids = new Array<number>(key.length);
      for (let i = 0; i < key.length; i++) ids[i] = BYTE_OFFSET + key.charCodeAt(i);
      return { ids, count };
    });

  const pairCounts = new Map<number, number>();
  const pairWords = new Map<number, Set<number>>();
  const addPairs = (w: number, sign: 1 | -1, changed: Set<number>): void => {
    const { ids, count } = words[w];
    for (let i = 0; i + 1 < ids.length; i++) {
      const key = tokenPairKey(ids[i], ids[i + 1]);
      pairCounts.set(key, (pairCounts.get(key) ?? 0) + sign * count);
      changed.add(key);
      if (sign > 0) {
        let set = pairWords.get(key);
        if (!set) pairWords.set(key, (set = new Set()));
        set.add(w);
      }
    }
  };
  const initial = new Set<number>();
  for (let w = 0; w < words.length; w++) addPairs(w, 1, initial);
  const heap = new PairHeap();
  for (const [key, c] of pairCounts) heap.push(c, key);

  const merges: [number, number][] = [];
  const target = vocabSize - BASE_VOCAB;
  while (merges.length < target && heap.size > 0) {
    const top = heap.pop() as { count: number; key: number };
    const current = pairCounts.get(top.key) ?? 0;
    if (current !== top.count) continue; // stale entry; the current count was pushed separately
    if (current < minPairCount) break;
    const a = Math.floor(top.key / PAIR_BASE);
    const b = top.key - a * PAIR_BASE;
    const newId = BASE_VOCAB + merges.length;
    merges.push([a, b]);

    const changed = new Set<number>();
    const touched = pairWords.get(top.key);
    pairWords.delete(top.key);
    if (touched) {
      for (const w of touched) {
        const ids = words[w].ids;
        let has = false;
        for (let i = 0; i + 1 < ids.length; i++) {
          if (ids[i] === a && ids[i + 1] === b) {
            has = true;
            break;
          }
        }
        if (!has) continue; // the index may hold words that lost this pair to an earlier merge
        addPairs(w, -1, changed);
        words[w].ids = mergePair(ids, a, b, newId);
        addPairs(w, 1, changed);
      }
    }
    for (const key of changed) {
      const c = pairCounts.get(key) ?? 0;
      if (c <= 0) {
        pairCounts.delete(key);
        continue;
      }
      if (key !== top.key) heap.push(c, key);
    }
    pairCounts.delete(top.key);
  }
  return new Tokenizer(merges);
}
