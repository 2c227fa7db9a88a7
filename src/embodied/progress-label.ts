// The progress a scene stands for, measured by the scripted expert: the share of the expert's work
// from the episode's start that is done, 1 - (expert steps to go from here) / (from the start),
// clamped to [0, 1] (a slip can leave more to do than at the start).
//
// These are the labels a progress model learns from frames (the Robometer analogue of the issue);
// until one is trained they are the only progress score there is, and they read the scene's state,
// which a learned model must not. They are a target, never a stand-in for the world model.

import { expertStepsToGo } from './expert.ts';
import { HORIZON } from './rollout.ts';
import type { SceneState } from './scene.ts';
import type { RobotTask } from './tasks.ts';

/** Expert steps beyond which a scene counts as no progress (far more than any scene needs). */
const LIMIT = 4 * HORIZON;

/** The labeller of one episode: progress of any scene relative to the episode's initial scene. */
export function progressLabeller(task: RobotTask, initial: SceneState): (state: SceneState) => number {
  const total = expertStepsToGo(task, initial, LIMIT);
  if (total === null) throw new Error(`the expert does not solve ${task.id} from this initial scene`);
  return (state) => {
    if (total === 0) return 1;
    const left = expertStepsToGo(task, state, LIMIT);
    if (left === null) return 0;
    return Math.min(1, Math.max(0, 1 - left / total));
  };
}

export function progressLabel(task: RobotTask, initial: SceneState, state: SceneState): number {
  return progressLabeller(task, initial)(state);
}
