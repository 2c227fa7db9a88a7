// Which feature columns a task keeps. Constant columns carry nothing and are always dropped. Data
// sets too wide for pure-Python programs keep the columns with the most information in their own
// values (entropy on the training rows, no target involved), so the choice is unsupervised and
// leaks nothing from the test rows.

import { columnEntropy, distinctNonMissing } from './column-kinds.ts';

export interface FeatureSelection {
  keep: number[];
  droppedConstant: number[];
  droppedForWidth: number[];
}

/**
 * @param candidates column indices of the features, in source order
 * @param allRows every usable row (constant-ness is judged on all of them)
 * @param trainRows the training rows (entropy is judged on them)
 * @param maxWidth most features to keep
 */
export function selectFeatures(
  candidates: readonly number[],
  allRows: readonly (readonly string[])[],
  trainRows: readonly (readonly string[])[],
  maxWidth: number,
): FeatureSelection {
  const droppedConstant = candidates.filter((c) => distinctNonMissing(allRows, c) <= 1);
  const live = candidates.filter((c) => !droppedConstant.includes(c));
  if (live.length <= maxWidth) return { keep: live, droppedConstant, droppedForWidth: [] };
  const ranked = live
    .map((c, order) => ({ c, order, h: columnEntropy(trainRows, c) }))
    .sort((a, b) => b.h - a.h || a.order - b.order);
  const kept = new Set(ranked.slice(0, maxWidth).map((r) => r.c));
  return {
    keep: live.filter((c) => kept.has(c)),
    droppedConstant,
    droppedForWidth: live.filter((c) => !kept.has(c)),
  };
}
