// Task-bootstrap intervals for figures measured on a few tasks: resample whole tasks with
// replacement (seeded), recompute the figure on each resample, take the percentile interval.
// Tasks, not programs, are the unit: programs of one task share its data and its leaderboard, so
// resampling programs would pretend to far more independent evidence than 9 tasks hold.

import { deriveSeed, mulberry32, randomInt } from '../primitives/random.ts';

export interface BootstrapInterval {
  /** the figure on the groups as given */
  value: number;
  /** percentile bounds over the resamples where the figure is defined; NaN when none is */
  low: number;
  high: number;
  /** resamples on which the figure was defined (e.g. AUC needs a failure in the resample) */
  defined: number;
  resamples: number;
}

export interface BootstrapOptions {
  seed: number;
  resamples?: number;
  /** two-sided level, default 0.95 */
  level?: number;
}

/** The q-quantile of sorted values, linear between order statistics. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * `statistic` receives a list of groups (one per task); a task drawn twice appears as two groups, so
 * within-task figures treat the copies as separate tasks.
 */
export function taskBootstrap<T>(groups: readonly (readonly T[])[], statistic: (groups: readonly (readonly T[])[]) => number, options: BootstrapOptions): BootstrapInterval {
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new RangeError(`taskBootstrap: level must be in (0, 1), got ${level}`);
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`taskBootstrap: resamples must be a positive integer, got ${resamples}`);
  const value = statistic(groups);
  const rng = mulberry32(deriveSeed(options.seed, 21));
  const values: number[] = [];
  for (let b = 0; b < resamples && groups.length > 0; b++) {
    const drawn = Array.from({ length: groups.length }, () => groups[randomInt(rng, groups.length)]);
    const v = statistic(drawn);
    if (Number.isFinite(v)) values.push(v);
  }
  values.sort((a, b) => a - b);
  return { value, low: quantileSorted(values, (1 - level) / 2), high: quantileSorted(values, 1 - (1 - level) / 2), defined: values.length, resamples };
}
