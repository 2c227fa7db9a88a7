// Behaviour-cloning examples for the robot policy: every scene a noisy demonstration visits before
// success, labelled with the action the noise-free expert takes there. The noise only chooses which
// scenes are visited (noise injection in the style of DART), so the policy sees how to recover from
// slips it will make, while its targets stay the expert's.

import { deriveSeed } from '../primitives/random.ts';
import { expertAction } from './expert.ts';
import type { Action } from './kinematics.ts';
import { initialScene, type StateSplit } from './layout.ts';
import { demonstrate } from './rollout.ts';
import { sceneKey, type SceneState } from './scene.ts';
import { ALL_TASKS, type RobotTask } from './tasks.ts';

export interface PolicyExample {
  task: RobotTask;
  state: SceneState;
  action: Action;
}

const BC_SALT = 0xbc01;

export function behaviourCloningExamples(tasks: readonly RobotTask[], split: StateSplit, statesPerTask: number, noises: readonly number[]): PolicyExample[] {
  const out: PolicyExample[] = [];
  for (const task of tasks) {
    const t = ALL_TASKS.findIndex((x) => x.id === task.id);
    for (let index = 0; index < statesPerTask; index++) {
      const start = initialScene(task, split, index);
      noises.forEach((noise, k) => {
        const e = demonstrate(task, start, noise, deriveSeed(BC_SALT, split === 'train' ? 0 : 1, t, index, k));
        // The last state is the success (or the horizon); the ones before it each need an action.
        for (const state of e.states.slice(0, e.actions.length)) out.push({ task, state, action: expertAction(task, state) });
      });
    }
  }
  return out;
}

/**
 * DAgger's relabelling: the scenes a policy's own episodes visited before they ended, each labelled
 * with the expert's action there (the expert recovers from any scene). A scene counts once per task,
 * and `seen` (keys of scenes already in the data) skips those, so an episode stuck in one scene for
 * the whole horizon adds one example, not ninety.
 */
export function expertRelabelled(episodes: readonly { task: RobotTask; states: readonly SceneState[]; actions: readonly Action[] }[], seen: Set<string>): PolicyExample[] {
  const out: PolicyExample[] = [];
  for (const { task, states, actions } of episodes) {
    for (const state of states.slice(0, actions.length)) {
      const key = exampleKey({ task, state });
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ task, state, action: expertAction(task, state) });
    }
  }
  return out;
}

/** The key `expertRelabelled` counts a scene by. */
export function exampleKey(e: { task: RobotTask; state: SceneState }): string {
  return `${e.task.id}|${sceneKey(e.state)}`;
}
