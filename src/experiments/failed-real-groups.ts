// Real-executed groups in which no program ran. Such a group can only move the policy along the reward
// ladder's steps among failures (a crash 0.1 above a SyntaxError 0), never towards a program that works,
// and the world model keeps scoring the other groups as if nothing happened: a run that ends in a streak of
// them has collapsed into failures its own real executions cannot pull it out of.
import type { TrimmedStepRecord } from './run-result.ts';

export interface FailedRealGroups {
  /** Groups whose programs were executed for real, over the run. */
  executed: number;
  /** Of those, the groups where no program ran ('ok'). */
  noneRan: number;
  /** How many of the run's last steps had every executed group fail (0: the last step had one that ran). */
  endStreak: number;
}

export function failedRealGroups(records: readonly Pick<TrimmedStepRecord, 'groups'>[]): FailedRealGroups {
  let executed = 0;
  let noneRan = 0;
  let endStreak = 0;
  for (const step of records) {
    // run files from before the statuses were recorded have none: they count as not executed
    const real = step.groups.filter((g) => Array.isArray(g.statuses));
    const failed = real.filter((g) => !g.statuses!.includes('ok')).length;
    executed += real.length;
    noneRan += failed;
    endStreak = real.length > 0 && failed === real.length ? endStreak + 1 : 0;
  }
  return { executed, noneRan, endStreak };
}
