// The suite's index (public/tasks/index.json): one line per task, enough to list tasks and show
// cards without fetching any data.

import type { TaskMeta } from './task-types.ts';

/** The fields of a task's meta that the index carries. */
export type TaskIndexEntry = Pick<TaskMeta, 'id' | 'split' | 'role' | 'type' | 'metric' | 'direction' | 'nTrain' | 'nTest' | 'card' | 'cardFeatures'>;

export interface TaskIndex {
  version: 1;
  tasks: TaskIndexEntry[];
}

export function toIndexEntry(meta: TaskMeta): TaskIndexEntry {
  return {
    id: meta.id,
    split: meta.split,
    role: meta.role,
    type: meta.type,
    metric: meta.metric,
    direction: meta.direction,
    nTrain: meta.nTrain,
    nTest: meta.nTest,
    card: meta.card,
    cardFeatures: meta.cardFeatures,
  };
}
