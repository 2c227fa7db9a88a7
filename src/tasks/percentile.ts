// A program's true score: the fraction of the task's reference leaderboard it beats, ties counting
// half, with "beats" read in the metric's direction. Metric values that differ only by floating-point
// noise are treated as ties, so one program's score does not depend on summation order.
// A value that is not finite (NaN, ±Infinity) never ties, never beats and scores 0: a policy that
// finds predictions which overflow the metric must gain nothing by it.

import type { Direction } from './task-types.ts';

const RELATIVE_TIE = 1e-12;

export function metricTies(a: number, b: number): boolean {
  // Without this, |Infinity - x| <= 1e-12 * Infinity holds and Infinity "ties" every entry.
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= RELATIVE_TIE * Math.max(1, Math.abs(a), Math.abs(b));
}

/** True when `a` is strictly better than `b` in the given direction (ties are not better). */
export function isBetter(a: number, b: number, direction: Direction): boolean {
  // -Infinity would otherwise beat everything on a lower-is-better board.
  if (!Number.isFinite(a)) return false;
  if (metricTies(a, b)) return false;
  return direction === 'higher' ? a > b : a < b;
}

/** Throws when a leaderboard holds a value that is not a finite number (a corrupt or hand-made file). */
export function assertFiniteBoard(leaderboard: readonly number[]): void {
  const at = leaderboard.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v));
  if (at >= 0) throw new Error(`leaderboard entry ${at + 1} has value ${String(leaderboard[at])}, not a finite number; rebuild the leaderboard`);
}

/**
 * Fraction of `leaderboard` that `value` beats, ties half; in [0, 1]. Empty leaderboard: 0.5.
 * A non-finite value scores 0 whatever the leaderboard.
 */
export function percentileOf(value: number, leaderboard: readonly number[], direction: Direction): number {
  assertFiniteBoard(leaderboard);
  if (!Number.isFinite(value)) return 0;
  if (leaderboard.length === 0) return 0.5;
  let score = 0;
  for (const other of leaderboard) {
    if (metricTies(value, other)) score += 0.5;
    else if (isBetter(value, other, direction)) score += 1;
  }
  return score / leaderboard.length;
}

/** Sorts metric values best first. */
export function sortBestFirst(values: readonly number[], direction: Direction): number[] {
  return values.slice().sort((a, b) => (direction === 'higher' ? b - a : a - b));
}
