// The Playground's program menu: a few of the trusted reference programs for a task type, from the
// constant baseline to boosting, so a user starts from code that follows the program contract.
import { referencePrograms, type ReferenceProgram } from '../../sandbox-pyodide/reference-programs.ts';
import type { MetricName, TaskType } from '../../tasks/task-types.ts';

export interface StarterProgram {
  id: string;
  label: string;
  source: string;
}

/** Preferred reference ids per menu entry, in menu order; the first that exists for the type is used. */
const MENU: { label: (type: TaskType) => string; ids: string[] }[] = [
  { label: (t) => (t === 'regression' ? 'Ridge regression, standardised (default)' : 'Logistic regression, standardised (default)'), ids: ['ridge_1__std', 'logit_C1__std'] },
  { label: (t) => (t === 'regression' ? 'Constant: training mean' : 'Constant: majority class'), ids: ['mean__std', 'majority__std'] },
  { label: () => 'k nearest neighbours (k = 5)', ids: ['knn_5__std'] },
  { label: () => 'Decision tree (depth 3)', ids: ['tree_d3__raw'] },
  { label: () => 'Random forest (20 trees, depth 4)', ids: ['rf_20_d4__raw'] },
  { label: () => 'Gradient boosting', ids: ['gbm_50_lr0.1_d3__raw', 'gbm_30_lr0.1_d3__raw'] },
  { label: () => 'Model selection on a holdout (linear vs trees)', ids: ['select_linear_vs_trees__std'] },
];

export function starterPrograms(type: TaskType, metric: MetricName): StarterProgram[] {
  const byId = new Map<string, ReferenceProgram>(referencePrograms(type, metric).map((p) => [p.id, p]));
  const out: StarterProgram[] = [];
  for (const entry of MENU) {
    const found = entry.ids.map((id) => byId.get(id)).find((p) => p !== undefined);
    if (found) out.push({ id: found.id, label: entry.label(type), source: found.source });
  }
  return out;
}
