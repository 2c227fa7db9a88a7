// One CSV row per run, with the table metrics in the tables' units (written by the task suite's RFC 4180 writer).
import { METRICS, runMetrics } from './aggregate.ts';
import type { RunResult } from './run-result.ts';
import { writeCsv } from '../tasks/csv.ts';

/** A cell's text: numbers as written (non-finite ones empty), null and undefined empty. */
export function csvValue(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
}

const BASE_COLUMNS = ['kind', 'preset', 'seed', 'status', 'error', 'steps', 'B', 'n', 'rho', 'debias', 'fusion', 'max_new_tokens', 'temperature', 'eval_k', 'eval_tasks', 'run_wall_s', 'startup_s', 'policy_backend', 'world_model_backend', 'pool_size', 'models'] as const;

export function runsCsv(runs: readonly RunResult[]): string {
  const header = [...BASE_COLUMNS, ...METRICS.map((m) => m.key)];
  const rows = runs.map((r) => {
    const c = r.request.config;
    const m = runMetrics(r);
    const evalTasks = r.evaluation ? r.evaluation.tasks.map((t) => t.taskId).join(' ') : (r.request.evalTaskIds?.join(' ') ?? 'all');
    return [
      r.kind, r.preset, r.seed, r.status, r.error,
      r.kind === 'train' ? c.steps : 0, c.groupsPerStep, c.groupSize, c.rho, c.debias, c.fusion, c.sampling.maxNewTokens, c.sampling.temperature,
      r.request.evalK, evalTasks, r.wallMs / 1000, r.startupMs / 1000,
      r.environment?.policy.backend, r.environment?.worldModel.backend, r.environment?.poolSize, r.environment?.modelsLabel,
      ...METRICS.map((spec) => m[spec.key]),
    ].map(csvValue);
  });
  return writeCsv(header, rows);
}
