// Rewards (method.md 3.4): anchor groups are scored by real execution (y); world-model groups by the
// calibrated world-model score g(s), or the raw score s when debiasing is off.

import type { Calibrator } from './isotonic.ts';

/** World-model rewards of one group: g(s) with debiasing on, s with it off. */
export function worldModelRewards(s: readonly number[], calibrator: Calibrator, debias: boolean): number[] {
  for (const v of s) if (!Number.isFinite(v)) throw new RangeError(`world-model score ${v} is not finite`);
  return debias ? s.map((v) => calibrator.predict(v)) : [...s];
}

/** The reward the policy is trained on: y for an anchor group, the world-model reward otherwise. */
export function trainingRewards(wmRewards: readonly number[], y: readonly number[] | null): number[] {
  if (y === null) return [...wmRewards];
  if (y.length !== wmRewards.length) throw new RangeError(`anchor group has ${y.length} real scores for ${wmRewards.length} programs`);
  for (const v of y) if (!Number.isFinite(v)) throw new RangeError(`real score ${v} is not finite`);
  return [...y];
}
