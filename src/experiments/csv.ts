// One CSV row per run (RFC 4180 quoting), with the table metrics in the tables' units.
import { METRICS, runMetrics } from './aggregate.ts';
import type { RunResult } from './run-result.ts';

/** Quotes a field when it holds a comma, quote, or line break; doubles inner quotes. */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const s = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function csvLine(fields: readonly (string | number | boolean | null | undefined)[]): string {
  return fields.map(csvField).join(',');
}

const BASE_COLUMNS = ['kind', 'preset', 'seed', 'status', 'error', 'steps', 'B', 'n', 'rho', 'debias', 'fusion', 'max_new_tokens', 'temperature', 'eval_k', 'eval_tasks', 'run_wall_s', 'startup_s', 'policy_backend', 'world_model_backend', 'pool_size', 'models'] as const;

export function runsCsv(runs: readonly RunResult[]): string {
  const header = [...BASE_COLUMNS, ...METRICS.map((m) => m.key)];
  const lines = [csvLine(header)];
  for (const r of runs) {
    const c = r.request.config;
    const m = runMetrics(r);
    const evalTasks = r.evaluation ? r.evaluation.tasks.map((t) => t.taskId).join(' ') : (r.request.evalTaskIds?.join(' ') ?? 'all');
    lines.push(csvLine([
      r.kind, r.preset, r.seed, r.status, r.error,
      r.kind === 'train' ? c.steps : 0, c.groupsPerStep, c.groupSize, c.rho, c.debias, c.fusion, c.sampling.maxNewTokens, c.sampling.temperature,
      r.request.evalK, evalTasks, r.wallMs / 1000, r.startupMs / 1000,
      r.environment?.policy.backend, r.environment?.worldModel.backend, r.environment?.poolSize, r.environment?.modelsLabel,
      ...METRICS.map((spec) => m[spec.key]),
    ]));
  }
  return lines.join('\n') + '\n';
}

/** Parses CSV text written by runsCsv (quoted fields, doubled quotes, line breaks inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
