// The world model's table beside its baselines (issue 21): every predictor scored on the same
// programs with the same figures, each with a task-bootstrap interval. Ours: AUC valid vs failed,
// and among programs that ran the mean within-task Spearman and the pairwise accuracy. The authors':
// status accuracy at 1 and 2 on their ladder, and the mean absolute error against the ladder reward
// (through each predictor's ladder reading, fitted on training tasks: ladder-reading.ts).

import { groupAuc, meanWithinSpearmanValid, pairwiseValid, type GroupItem } from './group-metrics.ts';
import type { LadderGuess } from './ladder-reading.ts';
import type { LadderStatus } from './status-ladder.ts';
import { taskBootstrap, type BootstrapInterval, type BootstrapOptions } from './task-bootstrap.ts';

export interface EvalProgram {
  taskId: string;
  valid: boolean;
  /** leaderboard percentile, 0 for a failure */
  y: number;
  status: LadderStatus;
  /** the ladder reward it really earned */
  reward: number;
}

export interface PredictorRow {
  name: string;
  auc: BootstrapInterval;
  spearmanWithin: BootstrapInterval;
  pairwise: BootstrapInterval;
  statusAt1: BootstrapInterval;
  statusAt2: BootstrapInterval;
  ladderMae: BootstrapInterval;
}

export interface PopulationCounts {
  programs: number;
  failed: number;
  tasks: number;
  /** tasks that enter the within-task Spearman (>= 3 valid programs with differing scores) */
  tasksWithin: number;
  pairs: number;
  statuses: Partial<Record<LadderStatus, number>>;
}

interface Item extends GroupItem {
  hit1: number;
  hit2: number;
  absError: number;
}

function byTask<T extends { taskId: string }>(programs: readonly T[], f: (p: T, i: number) => Item): Item[][] {
  const tasks = [...new Set(programs.map((p) => p.taskId))].sort();
  const idx = new Map(tasks.map((t, k) => [t, k]));
  const groups: Item[][] = tasks.map(() => []);
  programs.forEach((p, i) => groups[idx.get(p.taskId)!].push(f(p, i)));
  return groups;
}

const mean = (groups: readonly (readonly Item[])[], key: 'hit1' | 'hit2' | 'absError'): number => {
  const all = groups.flat();
  return all.length ? all.reduce((a, i) => a + i[key], 0) / all.length : Number.NaN;
};

export function predictorRow(name: string, programs: readonly EvalProgram[], scores: readonly number[], guesses: readonly Pick<LadderGuess, 'statuses' | 'reward'>[], options: BootstrapOptions): PredictorRow {
  if (scores.length !== programs.length || guesses.length !== programs.length) throw new Error(`predictor ${name}: ${scores.length} scores and ${guesses.length} ladder guesses for ${programs.length} programs`);
  const groups = byTask(programs, (p, i) => ({
    valid: p.valid,
    y: p.y,
    predicted: scores[i],
    hit1: Number(guesses[i].statuses[0] === p.status),
    hit2: Number(guesses[i].statuses.includes(p.status)),
    absError: Math.abs(guesses[i].reward - p.reward),
  }));
  const boot = (f: (g: readonly (readonly Item[])[]) => number): BootstrapInterval => taskBootstrap(groups, f, options);
  return {
    name,
    auc: boot(groupAuc),
    spearmanWithin: boot(meanWithinSpearmanValid),
    pairwise: boot((g) => pairwiseValid(g).accuracy),
    statusAt1: boot((g) => mean(g, 'hit1')),
    statusAt2: boot((g) => mean(g, 'hit2')),
    ladderMae: boot((g) => mean(g, 'absError')),
  };
}

export function populationCounts(programs: readonly EvalProgram[]): PopulationCounts {
  const groups = byTask(programs, (p) => ({ valid: p.valid, y: p.y, predicted: 0, hit1: 0, hit2: 0, absError: 0 }));
  const statuses: Partial<Record<LadderStatus, number>> = {};
  for (const p of programs) statuses[p.status] = (statuses[p.status] ?? 0) + 1;
  return {
    programs: programs.length,
    failed: programs.filter((p) => !p.valid).length,
    tasks: groups.length,
    tasksWithin: groups.map((g) => g.filter((i) => i.valid)).filter((g) => g.length >= 3 && new Set(g.map((i) => i.y)).size > 1).length,
    pairs: pairwiseValid(groups).pairs,
    statuses,
  };
}

const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '–');
/** A figure with its interval, or a dash where it is undefined (e.g. AUC with no failure). */
export function withInterval(b: BootstrapInterval): string {
  if (!Number.isFinite(b.value)) return '–';
  return `${b.value.toFixed(3)} [${f2(b.low)}, ${f2(b.high)}]`;
}

export function baselineTableMarkdown(title: string, counts: PopulationCounts, rows: readonly PredictorRow[]): string {
  const st = Object.entries(counts.statuses).map(([k, v]) => `${k} ${v}`).join(', ');
  const head =
    `**${title}**: ${counts.programs} distinct programs (${counts.failed} failed; ${st}) on ${counts.tasks} tasks; ` +
    `${counts.programs - counts.failed} ran (${counts.pairs} within-task pairs with different scores; ${counts.tasksWithin} tasks enter the within-task Spearman). ` +
    `Intervals: 95% task bootstrap.\n\n` +
    '| predictor | AUC valid vs failed | within-task Spearman (ran) | pairwise acc. (ran) | status acc. @1 | status acc. @2 | ladder-reward MAE |\n|---|---|---|---|---|---|---|\n';
  return head + rows.map((r) => `| ${r.name} | ${withInterval(r.auc)} | ${withInterval(r.spearmanWithin)} | ${withInterval(r.pairwise)} | ${withInterval(r.statusAt1)} | ${withInterval(r.statusAt2)} | ${withInterval(r.ladderMae)} |`).join('\n') + '\n';
}
