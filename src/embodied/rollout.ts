// Episodes: a policy acts from an initial scene until the task succeeds or the horizon runs out.
// The sparse success (the anchor's real outcome y) is whether the task's goals all held at the end.
// Demonstrations are episodes of the scripted expert with seeded action noise.

import { mulberry32, randomInt, type Rng } from '../primitives/random.ts';
import { expertAction } from './expert.ts';
import { ACTIONS, applyAction, type Action } from './kinematics.ts';
import type { SceneState } from './scene.ts';
import { succeeded, type RobotTask } from './tasks.ts';

/**
 * Actions an episode may take. The noise-free expert needed 30 on average and at most 63 over 5,000
 * initial states (every task, 100 training and 100 held-out states each); this leaves room to
 * recover from slips. tests/unit/embodied/expert.test.ts checks that it always fits.
 */
export const HORIZON = 96;

/** Chooses the next action from the scene and the step number. */
export type RobotPolicy = (state: SceneState, t: number) => Action;

export interface Episode {
  taskId: string;
  /** Scenes before each action and after the last: states.length = actions.length + 1. */
  states: SceneState[];
  actions: Action[];
  success: boolean;
}

export function runEpisode(task: RobotTask, initial: SceneState, policy: RobotPolicy, horizon = HORIZON): Episode {
  if (!Number.isInteger(horizon) || horizon < 0) throw new RangeError(`horizon must be a non-negative integer, got ${horizon}`);
  const states = [initial];
  const actions: Action[] = [];
  let s = initial;
  while (!succeeded(task, s) && actions.length < horizon) {
    const a = policy(s, actions.length);
    s = applyAction(s, a);
    actions.push(a);
    states.push(s);
  }
  return { taskId: task.id, states, actions, success: succeeded(task, s) };
}

/** The scripted expert that, with probability `noise` per step, takes a uniformly random action instead. */
export function noisyExpert(task: RobotTask, noise: number, rng: Rng): RobotPolicy {
  if (!(noise >= 0 && noise <= 1)) throw new RangeError(`noise must lie in [0, 1], got ${noise}`);
  return (state) => {
    // Two draws a step whatever the outcome, so the stream stays aligned across noise levels.
    const slip = rng() < noise;
    const random = ACTIONS[randomInt(rng, ACTIONS.length)];
    return slip ? random : expertAction(task, state);
  };
}

/** A demonstration: the noisy expert's episode, a pure function of its arguments. */
export function demonstrate(task: RobotTask, initial: SceneState, noise: number, seed: number, horizon = HORIZON): Episode {
  return runEpisode(task, initial, noisyExpert(task, noise, mulberry32(seed)), horizon);
}

/** Replays actions from an initial scene (episodes store both; this recomputes the scenes). */
export function replay(initial: SceneState, actions: readonly Action[]): SceneState[] {
  const states = [initial];
  for (const a of actions) states.push(applyAction(states[states.length - 1], a));
  return states;
}

/** Chooses the next action of several episodes at once (a model samples a batch in one call). */
/** `episode`: the index of the item's episode among runEpisodes' starts, so a sampler can key its draws by (episode, t). */
export type BatchPolicy = (items: readonly { task: RobotTask; state: SceneState; t: number; episode?: number }[]) => Promise<readonly Action[]>;

/**
 * Runs episodes side by side, asking the policy for one action of every unfinished episode per call,
 * so a model scores them in one batch. Each episode ends as in runEpisode.
 */
export async function runEpisodes(starts: readonly { task: RobotTask; initial: SceneState }[], policy: BatchPolicy, horizon = HORIZON): Promise<Episode[]> {
  const episodes: Episode[] = starts.map(({ task, initial }) => ({ taskId: task.id, states: [initial], actions: [], success: succeeded(task, initial) }));
  for (let t = 0; t < horizon; t++) {
    const open = starts.map((_, i) => i).filter((i) => !episodes[i].success);
    if (open.length === 0) break;
    const actions = await policy(open.map((i) => ({ task: starts[i].task, state: episodes[i].states[t], t, episode: i })));
    if (actions.length !== open.length) throw new RangeError(`the policy answered ${actions.length} actions for ${open.length} episodes`);
    open.forEach((i, k) => {
      const e = episodes[i];
      const next = applyAction(e.states[t], actions[k]);
      e.actions.push(actions[k]);
      e.states.push(next);
      e.success = succeeded(starts[i].task, next);
    });
  }
  return episodes;
}
