// The world model's validation table on executed programs (issue: validate on the population it
// serves): does it tell running programs from failing ones (AUC), does it order programs by their
// true score (Spearman, overall and within each task), does it order the running programs of one
// task (pairwise accuracy), and is its number a probability-like score (reliability table).

import { meanAbsoluteError, pairwiseAccuracy, reliabilityTable, rocAuc, spearman, type ReliabilityBin } from './rank-metrics.ts';

export interface ScoredProgram {
  taskId: string;
  /** the program ran and wrote gradable predictions */
  valid: boolean;
  /** true score in [0, 1] (leaderboard percentile; 0 for a failure) */
  y: number;
  /** the world model's predicted score */
  predicted: number;
}

export interface WmReport {
  programs: number;
  tasks: number;
  valid: number;
  failed: number;
  aucValidVsFailed: number;
  spearman: number;
  /** mean over tasks (with at least 3 programs and some spread of y) of the within-task Spearman */
  spearmanWithinTask: number;
  tasksWithinTask: number;
  /** among valid programs of one task, pairs with different true scores ordered the same way */
  pairwiseValid: { accuracy: number; pairs: number };
  mae: number;
  reliability: ReliabilityBin[];
}

export function worldModelReport(items: readonly ScoredProgram[]): WmReport {
  const y = items.map((i) => i.y);
  const p = items.map((i) => i.predicted);
  const tasks = [...new Set(items.map((i) => i.taskId))].sort();
  const within = tasks
    .map((t) => items.filter((i) => i.taskId === t))
    .filter((g) => g.length >= 3 && new Set(g.map((i) => i.y)).size > 1)
    .map((g) => spearman(g.map((i) => i.y), g.map((i) => i.predicted)));
  const valid = items.filter((i) => i.valid);
  return {
    programs: items.length,
    tasks: tasks.length,
    valid: valid.length,
    failed: items.length - valid.length,
    aucValidVsFailed: rocAuc(p, items.map((i) => i.valid)),
    spearman: spearman(y, p),
    spearmanWithinTask: within.length ? within.reduce((a, b) => a + b, 0) / within.length : Number.NaN,
    tasksWithinTask: within.length,
    pairwiseValid: pairwiseAccuracy(valid.map((i) => i.y), valid.map((i) => i.predicted), valid.map((i) => i.taskId)),
    mae: meanAbsoluteError(y, p),
    reliability: reliabilityTable(y, p),
  };
}

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '–');

/** The report as Markdown (docs/models.md and the CLI print it). */
export function reportMarkdown(name: string, r: WmReport): string {
  const head = `| population | programs (valid / failed) | tasks | AUC valid vs failed | Spearman | within-task Spearman (tasks) | pairwise acc. among valid (pairs) | MAE |\n|---|---|---|---|---|---|---|---|\n`;
  const row = `| ${name} | ${r.programs} (${r.valid} / ${r.failed}) | ${r.tasks} | ${f3(r.aucValidVsFailed)} | ${f3(r.spearman)} | ${f3(r.spearmanWithinTask)} (${r.tasksWithinTask}) | ${f3(r.pairwiseValid.accuracy)} (${r.pairwiseValid.pairs}) | ${f3(r.mae)} |\n`;
  const rel =
    `\nReliability (${name}):\n\n| predicted | programs | mean predicted | mean true |\n|---|---|---|---|\n` +
    r.reliability.map((b) => `| ${b.lo.toFixed(1)}–${b.hi.toFixed(1)} | ${b.n} | ${f3(b.meanPredicted)} | ${f3(b.meanTrue)} |`).join('\n') +
    '\n';
  return head + row + rel;
}
