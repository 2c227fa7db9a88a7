// Group-relative advantages (method.md 3.5): each program is compared with the other programs drawn
// for the same task in the same step.

export type AdvantageMode = 'mean' | 'std' | 'std-population' | 'rloo';

/** Added to the sample std in 'std' mode so a near-flat group does not blow up (verl's GRPO: 1e-6). */
export const STD_EPSILON = 1e-6;

/** Added to the population std in 'std-population' mode (the authors' library, wmrl/advantage.py: 1e-4). */
export const POPULATION_STD_EPSILON = 1e-4;

/** Default tolerance under which a group's reward spread counts as zero. */
export const ZERO_SPREAD_TOLERANCE = 1e-9;

function assertFinite(values: readonly number[], what: string): void {
  for (const v of values) {
    if (!Number.isFinite(v)) throw new RangeError(`${what} must be finite numbers, got ${v}`);
  }
}

/**
 * Advantages of one group.
 * - 'mean' (default of the method): A_i = r_i - mean(r).
 * - 'std' (original GRPO, and verl's, which the authors train with): (r_i - mean) / (sample std + 1e-6);
 *   with n = 2 this is +-0.71 whatever the gap.
 * - 'std-population' (the authors' own library): (r_i - mean) / (population std + 1e-4).
 * - 'rloo': n/(n-1) * (r_i - mean), which equals r_i minus the mean of the other n-1 rewards.
 * A group of one has no comparison and gets advantage 0 in every mode.
 */
export function groupAdvantages(rewards: readonly number[], mode: AdvantageMode): number[] {
  assertFinite(rewards, 'rewards');
  const n = rewards.length;
  if (n === 0) return [];
  if (n === 1) return [0];
  let sum = 0;
  for (const r of rewards) sum += r;
  const mean = sum / n;
  const centred = rewards.map((r) => r - mean);
  switch (mode) {
    case 'mean':
      return centred;
    case 'rloo': {
      const scale = n / (n - 1);
      return centred.map((c) => scale * c);
    }
    case 'std': {
      let ss = 0;
      for (const c of centred) ss += c * c;
      const std = Math.sqrt(ss / (n - 1));
      return centred.map((c) => c / (std + STD_EPSILON));
    }
    case 'std-population': {
      let ss = 0;
      for (const c of centred) ss += c * c;
      const std = Math.sqrt(ss / n);
      return centred.map((c) => c / (std + POPULATION_STD_EPSILON));
    }
  }
}

/** The spread (max - min) of one group's rewards. */
export function rewardSpread(rewards: readonly number[]): number {
  if (rewards.length === 0) return 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rewards) {
    if (r < lo) lo = r;
    if (r > hi) hi = r;
  }
  return hi - lo;
}

/**
 * Fraction of groups whose rewards all agree within `tol`: such groups have zero advantage and give no
 * gradient. 0 when there are no groups.
 */
export function zeroSpreadFraction(groups: readonly (readonly number[])[], tol = ZERO_SPREAD_TOLERANCE): number {
  if (groups.length === 0) return 0;
  let flat = 0;
  for (const g of groups) if (rewardSpread(g) <= tol) flat++;
  return flat / groups.length;
}

/**
 * Advantages of a group some of whose programs have no grade (null: the run gave no verdict). The
 * graded ones are compared among themselves; an ungraded one gets advantage 0, so it adds nothing to
 * the update. With fewer than 2 graded there is no comparison and every advantage is 0 (as in the
 * authors' library: an ungraded rollout is excluded, never scored 0).
 */
export function gradedAdvantages(rewards: readonly (number | null)[], mode: AdvantageMode): number[] {
  const graded = rewards.flatMap((r, i) => (r === null ? [] : [i]));
  const out = new Array<number>(rewards.length).fill(0);
  if (graded.length < 2) return out;
  const adv = groupAdvantages(graded.map((i) => rewards[i] as number), mode);
  graded.forEach((i, j) => (out[i] = adv[j]));
  return out;
}
