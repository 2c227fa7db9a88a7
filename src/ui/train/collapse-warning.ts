// A live run that has fallen into one failure: for the last few steps no program it executed for real
// has run. A group whose programs all fail gives GRPO nothing to move towards (at most the ladder's step
// from a SyntaxError to a crash), and the world model goes on scoring the other groups as before; three
// collapses of the 40-step controls runs went this way (docs/results.md). The page says so while it
// happens, with the error most of those programs ended in.
import { failedRealGroups } from '../../training/failed-real-groups.ts';
import type { GroupRecord } from '../../training/trainer.ts';

/** Steps in a row without a running program before the page warns: one-anchor-group runs have an odd such step; the collapsed ones had 11, 14 and 19. */
export const COLLAPSE_STEPS = 3;

export interface CollapseWarning {
  /** The last steps in which every real-executed group failed. */
  steps: number;
  /** Programs executed in those steps. */
  programs: number;
  /** The commonest error among them, and how many ended in it. */
  error: string;
  count: number;
}

/** The error a failed program's message names ("AttributeError: module 'toolkit' has no attribute 'fit'"), else its status. */
export function errorLine(message: string | null | undefined, status: string): string {
  if (!message) return status;
  const m = message.match(/([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt))\b(.*)$/);
  return (m ? m[1] + m[2] : message).trim();
}

export function collapseWarning(records: readonly { groups: readonly Pick<GroupRecord, 'statuses' | 'messages'>[] }[], minSteps = COLLAPSE_STEPS): CollapseWarning | null {
  const { endStreak, endStreakStart } = failedRealGroups(records);
  if (endStreak < minSteps) return null;
  const counts = new Map<string, number>();
  let programs = 0;
  for (const step of records.slice(endStreakStart)) {
    for (const g of step.groups) {
      g.statuses?.forEach((status, i) => {
        programs++;
        const e = errorLine(g.messages?.[i], status);
        counts.set(e, (counts.get(e) ?? 0) + 1);
      });
    }
  }
  const [error, count] = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  return { steps: endStreak, programs, error, count };
}
