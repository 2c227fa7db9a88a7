// Real-executed groups in which no program ran. Such a group can only move the policy along the reward
// ladder's steps among failures (a crash 0.1 above a SyntaxError 0), never towards a program that works,
// and the world model keeps scoring the other groups as if nothing happened: a run that ends in a streak of
// them has collapsed into failures its own real executions cannot pull it out of.
import type { GroupRecord } from './trainer.ts';

/** What the count reads of a step: its groups' statuses (a live record or a run file's trimmed one). */
export type StepStatuses = { groups: readonly Pick<GroupRecord, 'statuses'>[] };

export interface FailedRealGroups {
  /** Groups whose programs were executed for real, over the run. */
  executed: number;
  /** Of those, the groups where no program ran ('ok'). */
  noneRan: number;
  /**
   * How many of the run's last steps with executions had every executed group fail (0: the last such step had a
   * program that ran). A step that executed nothing says nothing either way and is passed over.
   */
  endStreak: number;
  /** The index of the record where that streak begins (records.length when there is none). */
  endStreakStart: number;
}

export function failedRealGroups(records: readonly StepStatuses[]): FailedRealGroups {
  let executed = 0;
  let noneRan = 0;
  let endStreak = 0;
  let endStreakStart = records.length;
  records.forEach((step, i) => {
    // run files from before the statuses were recorded have none: they count as not executed
    const real = step.groups.filter((g) => Array.isArray(g.statuses));
    if (real.length === 0) return;
    const failed = real.filter((g) => !g.statuses!.includes('ok')).length;
    executed += real.length;
    noneRan += failed;
    if (failed < real.length) {
      endStreak = 0;
      endStreakStart = records.length;
    } else if (endStreak++ === 0) endStreakStart = i;
  });
  return { executed, noneRan, endStreak, endStreakStart };
}
