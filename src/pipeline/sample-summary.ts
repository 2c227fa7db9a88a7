// Figures of a set of executed policy samples: valid-run rate, statuses, avg@k, and how often the
// program's model is of the wrong task type (a classifier on a regression card, or the reverse).

import type { TaskType } from '../tasks/task-types.ts';
import type { GradedRun } from './graded-runs.ts';
import { programTaskKind } from './program-kind.ts';
import { meanOf } from '../primitives/mean.ts';

export interface SummarisedSample {
  taskId: string;
  card: string;
  program: string;
  stopped: boolean;
  run?: GradedRun;
}

/** The task type a card states (its first sentence). */
export function cardTaskType(card: string): TaskType | null {
  if (card.startsWith('Regression.')) return 'regression';
  if (card.startsWith('Binary classification.')) return 'binary';
  if (card.startsWith('Multiclass classification.')) return 'multiclass';
  return null;
}

export function sampleSummary(rs: readonly SummarisedSample[]): Record<string, unknown> {
  const ran = rs.filter((r) => r.run);
  const valid = ran.filter((r) => r.run!.status === 'ok');
  const scored = ran.filter((r) => !Number.isNaN(r.run!.y));
  // avg@k: mean over tasks of the mean true score of the task's k samples (failed = 0)
  const byTask = new Map<string, number[]>();
  for (const r of scored) byTask.set(r.taskId, [...(byTask.get(r.taskId) ?? []), r.run!.y]);
  const kinds = rs.map((r) => ({ want: cardTaskType(r.card), got: programTaskKind(r.program) }));
  const typed = kinds.filter((k) => k.got !== null && k.want !== null);
  const wrong = typed.filter((k) => (k.want === 'regression') !== (k.got === 'regression'));
  return {
    programs: rs.length,
    unique: new Set(rs.map((r) => `${r.taskId}\u0000${r.program}`)).size,
    closedWithEos: rs.filter((r) => r.stopped).length / Math.max(1, rs.length),
    executed: ran.length,
    validRunRate: ran.length ? valid.length / ran.length : null,
    wrongTaskTypeRate: typed.length ? wrong.length / typed.length : null,
    tasksWithLeaderboard: byTask.size,
    avgAtK: byTask.size ? meanOf([...byTask.values()].map(meanOf)) : null,
    statuses: Object.fromEntries([...new Set(ran.map((r) => r.run!.status))].map((st) => [st, ran.filter((r) => r.run!.status === st).length])),
  };
}
