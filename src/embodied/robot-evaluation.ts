// Held-out evaluation of a robot policy: success over a fixed set of initial states, the same for
// every row and seed, so rows differ only by their policy.
//
//   training tasks, held-out initial states   states 0..k-1 of layout.ts's held-out stream, every training task
//   held-out tasks, held-out initial states   the same indices, every held-out composition
//
// Two ways, both kept:
//   greedy (temperature 0, this function's default): one outcome per initial state, a pure function of
//     the weights (the behaviour-cloning reports measure the committed policy this way: 7 of 60 and
//     0 of 15 at k = 3). For this policy greedy decoding loops on actions that leave the scene unchanged
//     (about half of its steps), so it measures the argmax's loops more than what training improves.
//   sampled (temperature > 0, `trials` rollouts per initial state): the success rate over all trials,
//     as the authors evaluate (8 sampled rollouts per initial state, the mean over them). Draws are
//     keyed by (seed, episode, step) (modelPolicy's drawsByEpisode), so two policies evaluated at the
//     same seed use the same uniforms: rows at a seed are compared on common random numbers.

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
  /** Rollouts per initial state when sampling (default 1); greedy takes 1 (its rollouts would repeat). */
  trials?: number;
  /** Seed of the sampler when temperature > 0. */
  seed?: number;
  horizon?: number;
}

export interface RobotEvalSet {
  /** Rollouts: tasks x statesPerTask x trials. */
  episodes: number;
  successes: number;
  rate: number;
  /** 'successes/episodes' per task (episodes = statesPerTask x trials) */
  byTask: Record<string, string>;
}

export interface RobotEvaluation {
  statesPerTask: number;
  temperature: number;
  /** Rollouts per initial state (1 for greedy and for records written before sampling had trials). */
  trials: number;
  trainTasksHeldoutStates: RobotEvalSet;
  heldoutTasksHeldoutStates: RobotEvalSet;
  ms: number;
}

export async function evaluateRobotPolicy(engine: PolicyEngine, frames: PolicyFrameTokens, options: RobotEvalOptions): Promise<RobotEvaluation> {
  const k = options.statesPerTask;
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`statesPerTask must be a positive integer, got ${k}`);
  const temperature = options.temperature ?? 0;
  if (!(Number.isFinite(temperature) && temperature >= 0)) throw new RangeError(`temperature must be >= 0, got ${temperature}`);
  const trials = options.trials ?? 1;
  if (!(Number.isInteger(trials) && trials >= 1)) throw new RangeError(`trials must be a positive integer, got ${trials}`);
  if (temperature === 0 && trials > 1) throw new RangeError(`greedy evaluation repeats itself: trials must be 1 at temperature 0, got ${trials}`);
  const t0 = performance.now();
  const sets = [TRAIN_TASKS, HELDOUT_TASKS];
  const perTask = k * trials;
  // Episode order: set, task, initial state, trial (the trials of a state side by side).
  const starts = sets.flatMap((tasks) => tasks.flatMap((task) => Array.from({ length: perTask }, (_, j) => ({ task, initial: initialScene(task, 'heldout', Math.floor(j / trials)) }))));
  // Both sets in one batch: each episode's action depends on its own prompt only (greedy), or on its own draws.
  const policy = modelPolicy(engine, frames, { temperature, seed: options.seed ?? 0, drawsByEpisode: temperature > 0 });
  const eps = await runEpisodes(starts, policy, options.horizon ?? HORIZON);
  let offset = 0;
  const summarise = (tasks: readonly RobotTask[]): RobotEvalSet => {
    const mine = eps.slice(offset, offset + tasks.length * perTask);
    offset += tasks.length * perTask;
    const byTask: Record<string, string> = {};
    tasks.forEach((task, j) => {
      const of = mine.slice(j * perTask, (j + 1) * perTask);
      byTask[task.id] = `${of.filter((e) => e.success).length}/${perTask}`;
    });
    const successes = mine.filter((e) => e.success).length;
    return { episodes: mine.length, successes, rate: successes / mine.length, byTask };
  };
  const trainTasksHeldoutStates = summarise(TRAIN_TASKS);
  const heldoutTasksHeldoutStates = summarise(HELDOUT_TASKS);
  return { statesPerTask: k, temperature, trials, trainTasksHeldoutStates, heldoutTasksHeldoutStates, ms: performance.now() - t0 };
}
