// Section 2 of the companion: one group's advantages in every mode of the real groupAdvantages.

import { groupAdvantages, type AdvantageMode } from '../../wmrl/advantages.ts';

export function advantagesByMode(rewards: readonly number[]): Record<AdvantageMode, number[]> {
  return {
    mean: groupAdvantages(rewards, 'mean'),
    std: groupAdvantages(rewards, 'std'),
    'std-population': groupAdvantages(rewards, 'std-population'),
    rloo: groupAdvantages(rewards, 'rloo'),
  };
}

/**
 * Two programs whose rewards differ by `gap`: the std-normalised advantage of the better one, for
 * each gap. It stays at about 0.71 whatever the gap, which is why the method drops the division.
 */
export function twoProgramStdAdvantage(gaps: readonly number[]): { gap: number; mean: number; std: number }[] {
  return gaps.map((gap) => ({
    gap,
    mean: groupAdvantages([0.5 + gap / 2, 0.5 - gap / 2], 'mean')[0],
    std: groupAdvantages([0.5 + gap / 2, 0.5 - gap / 2], 'std')[0],
  }));
}

/** Default rewards for a group of n, spread evenly so the figure starts readable. */
export function defaultRewards(n: number): number[] {
  return Array.from({ length: n }, (_, i) => Math.round((0.2 + (0.6 * i) / Math.max(1, n - 1)) * 100) / 100);
}
