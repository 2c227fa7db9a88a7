// Section 1 of the companion: which steps get anchor groups, from the project's real AnchorSchedule.

import { AnchorSchedule } from '../../wmrl/anchors.ts';

export interface AnchorTimelineStep {
  step: number;
  /** Indices of this step's anchor groups (ascending). */
  anchors: number[];
  cumulativeGroups: number;
  cumulativeAnchors: number;
  /** round(rho * cumulative groups): what the schedule promises after this step. */
  target: number;
}

export interface AnchorTimeline {
  rho: number;
  groups: number;
  steps: AnchorTimelineStep[];
  /** Steps that executed no group for real. */
  stepsWithoutAnchors: number;
}

/** Runs the real AnchorSchedule for `steps` steps of `groups` groups each. */
export function anchorTimeline(rho: number, groups: number, steps: number, seed: number): AnchorTimeline {
  const schedule = new AnchorSchedule(rho, seed);
  const out: AnchorTimelineStep[] = [];
  let without = 0;
  for (let t = 0; t < steps; t++) {
    const plan = schedule.next(groups);
    if (plan.anchors.length === 0) without++;
    out.push({
      step: plan.step,
      anchors: plan.anchors,
      cumulativeGroups: schedule.groupsSoFar,
      cumulativeAnchors: schedule.anchorsSoFar,
      target: Math.round(rho * schedule.groupsSoFar),
    });
  }
  return { rho, groups, steps: out, stepsWithoutAnchors: without };
}
