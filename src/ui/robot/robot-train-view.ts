// What the robot train panel draws of its steps, as pure functions: per step the training success of
// the step's rollouts, the mean dense reward s and (with debiasing) the mean calibrated reward g(s);
// the method's numbers of a step; and the step's rollouts grouped by initial state.
import type { RobotRollout, RobotStepRecord } from '../../embodied/robot-trainer.ts';
import { meanOrNull as mean } from '../../primitives/mean.ts';

export interface RobotStepPoint {
  /** 1 for the run's first step (records count from 0). */
  step: number;
  success: number;
  /** Mean dense reward s over the step's rollouts; null when the progress model was not called. */
  dense: number | null;
  /** Mean g(s) (calibrated by the anchors' pairs) when the run debiases; null otherwise. */
  calibrated: number | null;
  /** The anchor groups' success rate (the y the method saw); null on a step without anchors. */
  anchorSuccess: number | null;
  /** Mean g(s) over the anchor groups' rollouts when the run debiases: beside anchorSuccess, how well calibrated it is. */
  anchorCalibrated: number | null;
}

export function stepPoint(record: RobotStepRecord, debias: boolean): RobotStepPoint {
  const s = record.groups.flatMap((g) => g.wmScores ?? []);
  const g = record.groups.flatMap((x) => x.wmRewards ?? []);
  const anchors = record.groups.filter((x) => x.anchor);
  const y = anchors.flatMap((x) => x.success.map((ok) => (ok ? 1 : 0)));
  const ga = anchors.flatMap((x) => x.wmRewards ?? []);
  return { step: record.step + 1, success: record.successRate, dense: mean(s), calibrated: debias ? mean(g) : null, anchorSuccess: mean(y), anchorCalibrated: debias ? mean(ga) : null };
}

/** Points of one quantity, those that exist. */
export function seriesOf(points: readonly RobotStepPoint[], key: 'success' | 'dense' | 'calibrated' | 'anchorSuccess' | 'anchorCalibrated'): [number, number][] {
  return points.flatMap((p) => (p[key] === null ? [] : [[p.step, p[key]] as [number, number]]));
}

export interface MethodNumbers {
  anchorGroups: number;
  groups: number;
  fusion: string;
  calibrationPairs: number;
  sequences: number;
  /** The rows the engine ran once identical sequences were merged (null in runs from before the merge). */
  distinct: number | null;
  loss: number;
  gradNorm: number;
}

export function methodNumbers(record: RobotStepRecord): MethodNumbers {
  const f = record.fusion;
  const fusion = f.mode === 'none' ? 'none (every group weighs the same)' : `${f.mode}: w_A ${f.wA.toFixed(3)}, w_W ${f.wW.toFixed(3)}`;
  return {
    anchorGroups: record.anchorGroups,
    groups: record.groups.length,
    fusion,
    calibrationPairs: record.calibration.pairs,
    sequences: record.batch.sequences,
    distinct: record.batch.distinct ?? null,
    loss: record.update.loss,
    gradNorm: record.update.gradNorm,
  };
}

export interface RolloutGroup {
  group: number;
  taskId: string;
  initialIndex: number;
  anchor: boolean;
  rollouts: RobotRollout[];
}

/** The step's rollouts by group, in group order and rollout order within each. */
export function rolloutGroups(rollouts: readonly RobotRollout[]): RolloutGroup[] {
  const by = new Map<number, RolloutGroup>();
  for (const r of rollouts) {
    let g = by.get(r.group);
    if (!g) by.set(r.group, (g = { group: r.group, taskId: r.taskId, initialIndex: r.initialIndex, anchor: r.anchor, rollouts: [] }));
    g.rollouts.push(r);
  }
  return [...by.values()].sort((a, b) => a.group - b.group).map((g) => ({ ...g, rollouts: [...g.rollouts].sort((a, b) => a.index - b.index) }));
}
