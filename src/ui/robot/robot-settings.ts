// The robot view's settings and their place in the URL (#/train?domain=robot&r.task=...): every key
// carries the `r.` prefix so that it never collides with the coding Train view's keys (seed, temp).
// A hand-edited value out of range falls back to its default; defaults are left out of the URL.
import { readChoice, readNumber, settingsParams } from '../url-state.ts';
import { DENSE_REWARD_MODES, type DenseRewardMode } from '../../embodied/shaping.ts';
import { ALL_TASKS, taskById } from '../../embodied/tasks.ts';
import { initialScene, type StateSplit } from '../../embodied/layout.ts';
import { demonstrate, type Episode } from '../../embodied/rollout.ts';
import { deriveSeed } from '../../primitives/random.ts';

export type RolloutSource = 'expert' | 'policy';
export const ROLLOUT_SOURCES: readonly RolloutSource[] = ['expert', 'policy'];
export const STATE_SPLITS: readonly StateSplit[] = ['train', 'heldout'];
/** Initial states offered per task and split (the layouts are seeded and exist for any index). */
export const STATES_OFFERED = 100;

export interface RobotSettings {
  task: string;
  split: StateSplit;
  state: number;
  source: RolloutSource;
  /** The expert's chance a step of a uniformly random action instead. */
  noise: number;
  /** The policy's sampling temperature (0: greedy). */
  temperature: number;
  seed: number;
  shaping: DenseRewardMode;
}

export const ROBOT_DEFAULTS: RobotSettings = {
  task: ALL_TASKS[0].id,
  split: 'train',
  state: 0,
  source: 'expert',
  noise: 0,
  temperature: 0,
  seed: 1,
  shaping: 'delta',
};

const KEYS: Record<keyof RobotSettings, string> = {
  task: 'r.task', split: 'r.split', state: 'r.state', source: 'r.source', noise: 'r.noise', temperature: 'r.temp', seed: 'r.seed', shaping: 'r.shaping',
};

export function robotSettingsFromParams(params: URLSearchParams): RobotSettings {
  const d = ROBOT_DEFAULTS;
  return {
    task: readChoice(params, KEYS.task, ALL_TASKS.map((t) => t.id), d.task),
    split: readChoice(params, KEYS.split, STATE_SPLITS, d.split),
    state: readNumber(params, KEYS.state, { min: 0, max: STATES_OFFERED - 1, integer: true }, d.state),
    source: readChoice(params, KEYS.source, ROLLOUT_SOURCES, d.source),
    noise: readNumber(params, KEYS.noise, { min: 0, max: 1 }, d.noise),
    temperature: readNumber(params, KEYS.temperature, { min: 0, max: 2 }, d.temperature),
    seed: readNumber(params, KEYS.seed, { min: 0, max: 2 ** 31 - 1, integer: true }, d.seed),
    shaping: readChoice(params, KEYS.shaping, DENSE_REWARD_MODES, d.shaping),
  };
}

/** The settings as URL values with their defaults, for router.set. */
export function robotSettingsParams(s: RobotSettings): { values: Record<string, number | string>; defaults: Record<string, number | string> } {
  return settingsParams(s, ROBOT_DEFAULTS, KEYS);
}

/**
 * The expert's episode these settings ask for: its noise stream seeded by the view's seed and the
 * start, so that a link replays the same rollout.
 */
export function expertEpisode(s: Pick<RobotSettings, 'task' | 'split' | 'state' | 'noise' | 'seed'>): Episode {
  const task = taskById(s.task);
  return demonstrate(task, initialScene(task, s.split, s.state), s.noise, deriveSeed(s.seed, 0x7ab1, s.state));
}
