// Validation figures of the world model: Spearman rank correlation (average ranks for ties),
// pairwise ordering accuracy within a task, mean absolute error.

/** Average ranks (1-based), ties share the mean of their positions. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1]] === values[order[i]]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]] = r;
    i = j + 1;
  }
  return ranks;
}

/** Pearson correlation; 0 when either side is constant. */
export function pearson(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return saa === 0 || sbb === 0 ? 0 : sab / Math.sqrt(saa * sbb);
}

export function spearman(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error('spearman: lengths differ');
  if (a.length < 2) return 0;
  return pearson(averageRanks(a), averageRanks(b));
}

/**
 * Over pairs in the same group whose truths differ: the share the prediction orders the same way
 * (a tied prediction counts half).
 */
export function pairwiseAccuracy(truth: readonly number[], pred: readonly number[], group: readonly string[]): { accuracy: number; pairs: number } {
  let agree = 0;
  let pairs = 0;
  for (let i = 0; i < truth.length; i++) {
    for (let j = i + 1; j < truth.length; j++) {
      if (group[i] !== group[j] || truth[i] === truth[j]) continue;
      pairs++;
      const t = truth[i] - truth[j];
      const p = pred[i] - pred[j];
      if (p === 0) agree += 0.5;
      else if (Math.sign(p) === Math.sign(t)) agree += 1;
    }
  }
  return { accuracy: pairs === 0 ? Number.NaN : agree / pairs, pairs };
}

export function meanAbsoluteError(truth: readonly number[], pred: readonly number[]): number {
  if (truth.length === 0) return Number.NaN;
  return truth.reduce((s, t, i) => s + Math.abs(t - pred[i]), 0) / truth.length;
}

/**
 * Area under the ROC curve of scores for positives against negatives (Mann-Whitney U with average
 * ranks, so a tie counts half); NaN when either class is empty.
 */
export function rocAuc(scores: readonly number[], positive: readonly boolean[]): number {
  if (scores.length !== positive.length) throw new Error('rocAuc: lengths differ');
  const nPos = positive.filter(Boolean).length;
  const nNeg = positive.length - nPos;
  if (nPos === 0 || nNeg === 0) return Number.NaN;
  const ranks = averageRanks(scores);
  const rankSum = ranks.reduce((s, r, i) => (positive[i] ? s + r : s), 0);
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

export interface ReliabilityBin {
  /** predictions in [lo, hi) (the last bin includes 1) */
  lo: number;
  hi: number;
  n: number;
  meanPredicted: number;
  meanTrue: number;
}

/** Calibration: predictions cut into equal-width bins, with the mean truth of each. */
export function reliabilityTable(truth: readonly number[], pred: readonly number[], bins = 5): ReliabilityBin[] {
  const out: ReliabilityBin[] = Array.from({ length: bins }, (_, b) => ({ lo: b / bins, hi: (b + 1) / bins, n: 0, meanPredicted: 0, meanTrue: 0 }));
  pred.forEach((p, i) => {
    const b = out[Math.min(bins - 1, Math.max(0, Math.floor(p * bins)))];
    b.n++;
    b.meanPredicted += p;
    b.meanTrue += truth[i];
  });
  for (const b of out) {
    b.meanPredicted = b.n ? b.meanPredicted / b.n : Number.NaN;
    b.meanTrue = b.n ? b.meanTrue / b.n : Number.NaN;
  }
  return out;
}
