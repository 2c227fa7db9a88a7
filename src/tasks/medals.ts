// MLE-bench medals, which follow Kaggle's progression system: the number of leaderboard places that
// earn gold, silver and bronze depends on the leaderboard's size N. A score earns a medal when it is
// at least as good as the score at that place (so ties with the threshold count).
//   N < 100:        gold top 10%,            silver top 20%,  bronze top 40%
//   100 <= N < 250: gold top 10 places,      silver top 20%,  bronze top 40%
//   250 <= N < 1000: gold top 10 + 0.2% N,   silver top 50,   bronze top 100
//   N >= 1000:      gold top 10 + 0.2% N,    silver top 5%,   bronze top 10%
// Percentages are floored and at least one place (as in MLE-bench's grade_helpers.rank_score).

import { assertFiniteBoard, isBetter, sortBestFirst } from './percentile.ts';
import type { Direction } from './task-types.ts';

export type Medal = 'gold' | 'silver' | 'bronze';

export interface MedalPlaces {
  gold: number;
  silver: number;
  bronze: number;
}

const atLeastOne = (x: number): number => Math.max(1, Math.floor(x));

/** Leaderboard places (1-based, counted from the best) that still earn each medal. */
export function medalPlaces(n: number): MedalPlaces {
  if (!Number.isInteger(n) || n < 1) throw new Error(`medalPlaces: leaderboard size must be a positive integer, got ${n}`);
  if (n < 100) return { gold: atLeastOne(0.1 * n), silver: atLeastOne(0.2 * n), bronze: atLeastOne(0.4 * n) };
  if (n < 250) return { gold: 10, silver: atLeastOne(0.2 * n), bronze: atLeastOne(0.4 * n) };
  if (n < 1000) return { gold: 10 + Math.floor(0.002 * n), silver: 50, bronze: 100 };
  return { gold: 10 + Math.floor(0.002 * n), silver: atLeastOne(0.05 * n), bronze: atLeastOne(0.1 * n) };
}

export interface MedalThresholds {
  gold: number;
  silver: number;
  bronze: number;
}

/** Metric values at the medal places of a leaderboard. */
export function medalThresholds(leaderboard: readonly number[], direction: Direction): MedalThresholds {
  assertFiniteBoard(leaderboard);
  const sorted = sortBestFirst(leaderboard, direction);
  const places = medalPlaces(sorted.length);
  return { gold: sorted[places.gold - 1], silver: sorted[places.silver - 1], bronze: sorted[places.bronze - 1] };
}

/** The medal `value` earns; never one for a value that is not finite (NaN, ±Infinity). */
export function medalFor(value: number, leaderboard: readonly number[], direction: Direction): Medal | null {
  if (!Number.isFinite(value) || leaderboard.length === 0) return null;
  const t = medalThresholds(leaderboard, direction);
  const reaches = (threshold: number): boolean => !isBetter(threshold, value, direction);
  if (reaches(t.gold)) return 'gold';
  if (reaches(t.silver)) return 'silver';
  if (reaches(t.bronze)) return 'bronze';
  return null;
}
