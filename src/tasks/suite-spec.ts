// The suite's per-data-set choices on top of the shared manifest, with the reason for each (from
// the task-suite study: small or saturated sets rank programs poorly; low-signal RMSE on counts).

import { isMetricName } from './metrics.ts';
import type { TaskSpec } from './task-builder.ts';
import type { MetricName, TaskSplit, TaskType } from './task-types.ts';

/** One entry of the shared data sets' manifest.json (fields this project reads). */
export interface ManifestEntry {
  id: string;
  file: string;
  split: string;
  target: string;
  task: string;
  metric: string;
  positive?: string;
  rows: number;
  features: number;
  license?: string;
  attribution?: string;
}

export const SMOKE_TASKS: Readonly<Record<string, string>> = {
  sklearn_wine: 'tiny (178 rows) and saturated: about 3 in 10 programs reach accuracy 1.0 in the study',
  vega_penguins: 'small (344 rows) and saturated: top accuracy 1.0 in the study',
  sklearn_breast_cancer: 'saturated: AUC reaches 0.997, so rankings near the top are noise',
};

export const METRIC_OVERRIDES: Readonly<Record<string, { to: MetricName; why: string }>> = {
  sm_randhie: { to: 'rmsle', why: 'count target; under RMSE the best program beat the constant by only 4% in the study' },
  AER_NMES1988: { to: 'rmsle', why: 'count target; under RMSE the best program beat the constant by only 7% in the study' },
  stdlib_berndt_cps_wages: { to: 'rmsle', why: 'right-skewed wage; under RMSE the best program beat the constant by 21% in the study' },
};

function asTaskType(task: string, id: string): TaskType {
  if (task === 'regression' || task === 'binary' || task === 'multiclass') return task;
  throw new Error(`manifest entry ${id}: unknown task type ${task}`);
}

function asSplit(split: string, id: string): TaskSplit {
  if (split === 'train' || split === 'heldout') return split;
  throw new Error(`manifest entry ${id}: unknown split ${split}`);
}

export function suiteSpec(entry: ManifestEntry): TaskSpec {
  if (!isMetricName(entry.metric)) throw new Error(`manifest entry ${entry.id}: unknown metric ${entry.metric}`);
  const spec: TaskSpec = {
    id: entry.id,
    split: asSplit(entry.split, entry.id),
    target: entry.target,
    type: asTaskType(entry.task, entry.id),
    metric: entry.metric,
    attribution: entry.attribution,
    license: entry.license,
  };
  if (entry.positive !== undefined) spec.positive = entry.positive;
  const override = METRIC_OVERRIDES[entry.id];
  if (override) {
    spec.metricOverride = { from: entry.metric, why: override.why };
    spec.metric = override.to;
  }
  const smoke = SMOKE_TASKS[entry.id];
  if (smoke) {
    spec.role = 'smoke';
    spec.roleWhy = smoke;
  }
  return spec;
}
