// The robot section's figures: the paper's embodied result (its Table 3 and the authors' README), and
// ours read from the reports shipped in public/models/robot (copies of results/robot-progress/report.json
// and the committed BC policy's report). Only reads and selects: every number of ours comes from a file.

import { ROBOT_TABLE_V2, type PaperRobotRow, type RobotTableSummary } from '../../experiments/robot-table.ts';
import { loadResultsIndex } from './our-results.ts';

/** The paper's embodied rows (one source: src/experiments/robot-table.ts, which the table's report reads too). */
export { PAPER_TABLE_3 as PAPER_ROBOT_ROWS, type PaperRobotRow } from '../../experiments/robot-table.ts';

/** A robot table the build published (results/<name>/summary.json, listed in the results index); null when there is none. */
export async function loadRobotTable(name: string, base = 'results/'): Promise<RobotTableSummary | null> {
  const index = await loadResultsIndex(base);
  const entry = index?.robot?.find((e) => e.name === name);
  if (!entry) return null;
  const res = await fetch(`${base}${entry.file}`);
  if (!res.ok) throw new Error(`results/${entry.file}: HTTP ${res.status}`);
  const summary = (await res.json()) as RobotTableSummary;
  if (summary.format !== 'wmrl-robot-table-summary') throw new Error(`results/${entry.file} is not a robot table summary`);
  return summary;
}

/** The row of robot table v2 its plan puts beside one of the paper's rows (null: none; v2 quotes three). */
export function v2RowBeside(paper: PaperRobotRow): string | null {
  return Object.entries(ROBOT_TABLE_V2.paper).find(([, row]) => row === paper)?.[0] ?? null;
}

/**
 * What robot table v2 says about why WMRL ends where it does, once its verdicts are final; null while any is
 * provisional or when they fall otherwise. The pattern it names: WMRL below GRPO (primary fails), the progress
 * reward alone below GRPO too (R6 fails), and no measurable difference between the two anchor regimes (R5
 * undecided): the deficit comes with the dense reward, not with which rollouts calibrate it.
 */
export function v2Reading(t: RobotTableSummary): string | null {
  const test = (id: string) => t.tests.find((x) => x.id === id);
  const [primary, r5, r6] = [test('primary'), test('R5'), test('R6')];
  if (!primary || !r5 || !r6 || [primary, r5, r6].some((x) => x.awaits.length > 0)) return null;
  if (primary.verdict !== 'fails' || r6.verdict !== 'fails' || r5.verdict !== 'undecided') return null;
  return "WMRL's deficit comes with the progress reward itself: used alone it ends below GRPO too, and which rollouts calibrate it (every rollout's success, or the anchor group's alone) makes no measurable difference.";
}

export interface ProgressSet {
  rollouts: number;
  successes: number;
  frames: number;
  framePearson: number;
  denseAuc: number;
  labelAuc: number;
}

export interface ProgressFigures {
  parameters: string;
  trainingFrames: number;
  steps: number;
  heldoutStates: ProgressSet;
  heldoutTasks: ProgressSet;
}

export interface PolicySet {
  episodes: number;
  successes: number;
  teacherForced: number;
}

export interface PolicyFigures {
  /** Behaviour-cloning examples of its last run (the chain's runs are in docs/embodied.md). */
  examples: number;
  trainStates: PolicySet;
  heldoutStates: PolicySet;
  heldoutTasks: PolicySet;
}

function at(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

function num(report: unknown, path: string, name: string): number {
  const v = at(report, path);
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${name}: ${path} is not a number`);
  return v;
}

/** The progress model's held-out validation from its report (src/cli/robot-progress.ts). */
export function progressFigures(report: unknown, name = 'progress-report.json'): ProgressFigures {
  const set = (key: string): ProgressSet => ({
    rollouts: num(report, `${key}.episodes`, name),
    successes: num(report, `${key}.successes`, name),
    frames: num(report, `${key}.frames`, name),
    framePearson: num(report, `${key}.framePearson`, name),
    denseAuc: num(report, `${key}.denseAucForSuccess`, name),
    labelAuc: num(report, `${key}.labelDenseAucForSuccess`, name),
  });
  return {
    parameters: `d ${num(report, 'config.dModel', name)}, ${num(report, 'config.nLayers', name)} layers, context ${num(report, 'config.contextLength', name)}`,
    trainingFrames: num(report, 'training.frames', name),
    steps: num(report, 'training.steps', name),
    heldoutStates: set('heldoutStates'),
    heldoutTasks: set('heldoutTasks'),
  };
}

/** The committed BC policy's rollouts and teacher-forced accuracy from its report (src/cli/robot-bc.ts). */
export function policyFigures(report: unknown, name = 'policy-report.json'): PolicyFigures {
  const set = (key: string): PolicySet => ({
    episodes: num(report, `${key}.episodes`, name),
    successes: num(report, `${key}.successes`, name),
    teacherForced: num(report, `teacherForced.${key}.accuracy`, name),
  });
  return {
    examples: num(report, 'training.examples', name),
    trainStates: set('trainTasksTrainStates'),
    heldoutStates: set('trainTasksHeldoutStates'),
    heldoutTasks: set('heldoutTasksHeldoutStates'),
  };
}
