// Stage 4: world-model examples (card, program, y), y the program's true score in [0, 1]:
//  (a) every reference program on its training task: its percentile on that task's leaderboard,
//      computed from the leaderboard entries (ties half, src/tasks/percentile.ts); failed = 0;
//  (b) SFT-policy samples on training tasks, executed in the browser sandbox and graded.

import { referencePrograms } from '../sandbox-pyodide/reference-programs.ts';
import type { Leaderboard } from '../tasks/leaderboard.ts';
import { leaderboardValues } from '../tasks/leaderboard.ts';
import { percentileOf } from '../tasks/percentile.ts';
import type { CorpusTask } from './corpus.ts';

export interface WmExample {
  taskId: string;
  card: string;
  program: string;
  y: number;
  origin: 'reference' | 'sample' | 'mutant' | 'composed';
  programId?: string;
  /** the program ran and wrote gradable predictions (absent on older data: read y > 0) */
  valid?: boolean;
}

/** Percentile of each reference program on its own task's leaderboard; programs absent from it are skipped. */
export function referenceExamples(task: CorpusTask, leaderboard: Pick<Leaderboard, 'entries' | 'failed' | 'direction'>): WmExample[] {
  const values = leaderboardValues(leaderboard);
  const valueOf = new Map<string, number>();
  for (const e of leaderboard.entries) for (const id of e.programIds) valueOf.set(id, e.value);
  const failed = new Set(leaderboard.failed.map((f) => f.programId));
  const out: WmExample[] = [];
  for (const p of referencePrograms(task.type, task.metric)) {
    const v = valueOf.get(p.id);
    let y: number;
    if (v !== undefined) y = percentileOf(v, values, leaderboard.direction);
    else if (failed.has(p.id)) y = 0;
    else continue;
    out.push({ taskId: task.id, card: task.card, program: p.source, y, origin: 'reference', programId: p.id, valid: v !== undefined });
  }
  return out;
}

/** Tasks the world model learns from: training split, scored (smoke tasks are saturated, not evaluated). */
export function worldModelTasks<T extends CorpusTask>(tasks: readonly T[]): T[] {
  return tasks.filter((t) => t.split === 'train' && t.role === 'scored').sort((a, b) => (a.id < b.id ? -1 : 1));
}
