// The world model's figures over task groups (one group per task), in the form the task bootstrap
// resamples: AUC of valid against failed over all programs, and among the programs that ran, the
// mean within-task Spearman and the within-task pairwise accuracy. Built on rank-metrics.ts.

import { pairwiseAccuracy, rocAuc, spearman } from './rank-metrics.ts';

export interface GroupItem {
  /** the program ran and wrote a gradable submission */
  valid: boolean;
  /** true score in [0, 1] (leaderboard percentile; 0 for a failure) */
  y: number;
  /** the predictor's score (higher = better) */
  predicted: number;
}

type Groups = readonly (readonly GroupItem[])[];

/** AUC of the score for valid against failed programs, all groups pooled; NaN without both kinds. */
export function groupAuc(groups: Groups): number {
  const all = groups.flat();
  return rocAuc(all.map((i) => i.predicted), all.map((i) => i.valid));
}

/**
 * Mean over groups of the Spearman correlation between score and true score among the group's valid
 * programs; a group counts when it has at least 3 of them and their true scores differ. NaN when no group counts.
 */
export function meanWithinSpearmanValid(groups: Groups): number {
  const per = groups
    .map((g) => g.filter((i) => i.valid))
    .filter((g) => g.length >= 3 && new Set(g.map((i) => i.y)).size > 1)
    .map((g) => spearman(g.map((i) => i.y), g.map((i) => i.predicted)));
  return per.length ? per.reduce((a, b) => a + b, 0) / per.length : Number.NaN;
}

/** Pairs of valid programs of one group with different true scores, and the share the score orders the same way (ties half). */
export function pairwiseValid(groups: Groups): { accuracy: number; pairs: number } {
  let agree = 0;
  let pairs = 0;
  for (const g of groups) {
    const v = g.filter((i) => i.valid);
    const r = pairwiseAccuracy(v.map((i) => i.y), v.map((i) => i.predicted), v.map(() => ''));
    if (r.pairs === 0) continue;
    agree += r.accuracy * r.pairs;
    pairs += r.pairs;
  }
  return { accuracy: pairs ? agree / pairs : Number.NaN, pairs };
}
