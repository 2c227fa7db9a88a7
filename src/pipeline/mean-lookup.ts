// A lookup baseline: the mean outcome of the fitting programs that share a key, with fallbacks from
// the most specific key to the least, and the overall mean last. Fitted on training tasks' programs
// only, it says what a program's family (and its task's type) alone predicts, with no card or code read.

export interface MeanLookup {
  predict(keys: readonly string[]): number;
  /** fitting programs behind each key */
  counts: ReadonlyMap<string, number>;
  /** the mean outcome behind each key */
  means: ReadonlyMap<string, number>;
  overall: number;
  minCount: number;
}

/** A lookup from its means and counts: what a fit makes, and what a stored table is read back into. */
export function meanLookupOf(means: ReadonlyMap<string, number>, counts: ReadonlyMap<string, number>, overall: number, minCount = 1): MeanLookup {
  return {
    predict(keys) {
      for (const k of keys) {
        const m = means.get(k);
        if (m !== undefined && (counts.get(k) ?? 0) >= minCount) return m;
      }
      return overall;
    },
    counts, means, overall, minCount,
  };
}

/**
 * rows: each fitting program's keys (most specific first) and its outcome. A key predicts when it
 * was seen at least `minCount` times; otherwise the next key, then the overall mean.
 */
export function fitMeanLookup(rows: readonly { keys: readonly string[]; y: number }[], minCount = 1): MeanLookup {
  if (rows.length === 0) throw new Error('mean lookup: no fitting programs');
  const sums = new Map<string, { sum: number; n: number }>();
  for (const r of rows) {
    for (const k of r.keys) {
      const s = sums.get(k) ?? { sum: 0, n: 0 };
      s.sum += r.y;
      s.n++;
      sums.set(k, s);
    }
  }
  const overall = rows.reduce((a, r) => a + r.y, 0) / rows.length;
  return meanLookupOf(new Map([...sums].map(([k, s]) => [k, s.sum / s.n])), new Map([...sums].map(([k, s]) => [k, s.n])), overall, minCount);
}
