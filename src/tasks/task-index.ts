// The suite's index (public/tasks/index.json): one line per task, enough to list tasks and show
// cards without fetching any data.

import type { CardFeatures, Direction, MetricName, TaskMeta, TaskRole, TaskSplit, TaskType } from './task-types.ts';

export interface TaskIndexEntry {
  id: string;
  split: TaskSplit;
  role: TaskRole;
  type: TaskType;
  metric: MetricName;
  direction: Direction;
  nTrain: number;
  nTest: number;
  card: string;
  cardFeatures: CardFeatures;
}

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
