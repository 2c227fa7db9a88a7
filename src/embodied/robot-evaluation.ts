// Held-out evaluation of a robot policy: success over a fixed set of initial states, the same for
// every row and seed, so rows differ only by their policy.
//
//   training tasks, held-out initial states   states 0..k-1 of layout.ts's held-out stream, every training task
//   held-out tasks, held-out initial states   the same indices, every held-out composition
//
// Greedy (temperature 0) by default: one outcome per initial state, a pure function of the weights
// (the behaviour-cloning reports measure the committed policy this way: 7 of 60 and 0 of 15 at k = 3).

import type { PolicyEngine } from '../engine/policy-engine.ts';
import { initialScene } from './layout.ts';
import { modelPolicy, type PolicyFrameTokens } from './policy-model.ts';
import { HORIZON, runEpisodes } from './rollout.ts';
import { HELDOUT_TASKS, TRAIN_TASKS, type RobotTask } from './tasks.ts';

export interface RobotEvalOptions {
  /** Held-out initial states per task (indices 0..k-1). */
  statesPerTask: number;
  /** 0: greedy (default). */
  temperature?: number;
  /** Seed of the sampler when temperature > 0. */
  seed?: number;
  horizon?: number;
}

export interface RobotEvalSet {
  episodes: number;
  successes: number;
  rate: number;
  /** 'successes/episodes' per task */
  byTask: Record<string, string>;
}

export interface RobotEvaluation {
  statesPerTask: number;
  temperature: number;
  trainTasksHeldoutStates: RobotEvalSet;
  heldoutTasksHeldoutStates: RobotEvalSet;
  ms: number;
}

export async function evaluateRobotPolicy(engine: PolicyEngine, frames: PolicyFrameTokens, options: RobotEvalOptions): Promise<RobotEvaluation> {
  const k = options.statesPerTask;
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`statesPerTask must be a positive integer, got ${k}`);
  const temperature = options.temperature ?? 0;
  const t0 = performance.now();
  const sets = [TRAIN_TASKS, HELDOUT_TASKS];
  const starts = sets.flatMap((tasks) => tasks.flatMap((task) => Array.from({ length: k }, (_, i) => ({ task, initial: initialScene(task, 'heldout', i) }))));
  // Both sets in one batch: each episode's action depends on its own prompt only (greedy), or on its own generator.
  const eps = await runEpisodes(starts, modelPolicy(engine, frames, { temperature, seed: options.seed ?? 0 }), options.horizon ?? HORIZON);
  let offset = 0;
  const summarise = (tasks: readonly RobotTask[]): RobotEvalSet => {
    const mine = eps.slice(offset, offset + tasks.length * k);
    offset += tasks.length * k;
    const byTask: Record<string, string> = {};
    tasks.forEach((task, j) => {
      const of = mine.slice(j * k, (j + 1) * k);
      byTask[task.id] = `${of.filter((e) => e.success).length}/${k}`;
    });
    const successes = mine.filter((e) => e.success).length;
    return { episodes: mine.length, successes, rate: successes / mine.length, byTask };
  };
  const trainTasksHeldoutStates = summarise(TRAIN_TASKS);
  const heldoutTasksHeldoutStates = summarise(HELDOUT_TASKS);
  return { statesPerTask: k, temperature, trainTasksHeldoutStates, heldoutTasksHeldoutStates, ms: performance.now() - t0 };
}
