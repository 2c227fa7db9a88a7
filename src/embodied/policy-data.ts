// Behaviour-cloning examples for the robot policy: every scene a noisy demonstration visits before
// success, labelled with the action the noise-free expert takes there. The noise only chooses which
// scenes are visited (noise injection in the style of DART), so the policy sees how to recover from
// slips it will make, while its targets stay the expert's.

import { deriveSeed } from '../primitives/random.ts';
import { expertAction, expertStepsToGo } from './expert.ts';
import { applyAction, type Action } from './kinematics.ts';
import { initialScene, type StateSplit } from './layout.ts';
import { demonstrate } from './rollout.ts';
import { sceneKey, type SceneState } from './scene.ts';
import { ALL_TASKS, succeeded, type RobotTask } from './tasks.ts';

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

const MOVES: readonly Action[] = ['up', 'down', 'left', 'right'];

/**
 * Every action at `state` after which the noise-free expert needs exactly one step fewer: the expert's
 * own, and each other move as good (the expert breaks ties between shortest moves by a fixed order, up,
 * down, left, right; measured: 44% of demonstration scenes have such a tie). The expert's action first.
 */
export function shortestPathActions(task: RobotTask, state: SceneState): Action[] {
  const own = expertAction(task, state);
  const base = expertStepsToGo(task, state, 4 * 96);
  if (base === null || base <= 1) return [own];
  return [own, ...MOVES.filter((a) => a !== own && expertStepsToGo(task, applyAction(state, a), base - 1) === base - 1)];
}

/**
 * Behaviour-cloning targets over every shortest-path action: one example per such action at each
 * scene, so the SFT loss pulls towards the uniform distribution over them instead of the expert's
 * tie-break, a rule the model would otherwise have to learn and that success does not need.
 */
export function withShortestPathTargets(examples: readonly PolicyExample[]): PolicyExample[] {
  return examples.flatMap((e) => shortestPathActions(e.task, e.state).map((action) => ({ task: e.task, state: e.state, action })));
}

/**
 * The same scenes under other instructions: for each example, `copies` more with a task drawn from
 * `tasks` (another one, whose blocks the scene shows and which the scene has not already done),
 * labelled with that task's expert action there. In demonstrations a scene comes with one instruction
 * only, and much of the task can be guessed from the scene (its layout, what is already done), so the
 * words can be skimmed; here the same scene asks for different actions under different words.
 */
export function withOtherInstructions(examples: readonly PolicyExample[], tasks: readonly RobotTask[], copies: number, rng: () => number): PolicyExample[] {
  const out: PolicyExample[] = [];
  for (const e of examples) {
    out.push(e);
    const present = new Set(e.state.blocks.map((b) => b.color));
    const others = tasks.filter((t) => t.id !== e.task.id && t.blocks.every((c) => present.has(c)) && !succeeded(t, e.state));
    for (let k = 0; k < copies && others.length > 0; k++) {
      const task = others[Math.floor(rng() * others.length)];
      out.push({ task, state: e.state, action: expertAction(task, e.state) });
    }
  }
  return out;
}
