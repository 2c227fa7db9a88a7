// The robot train panel's form as a RobotTrainerConfig: a robot preset (its rho, debiasing and
// fusion), the seed, B, G, lr and the number of steps. Sizes default small (B 4 x G 4 = 16 rollouts
// of up to 96 actions a step) so a step on a CPU in the page takes seconds to a minute, not the
// headless base's B 8. Bad input gets a sentence naming the field, and builds nothing.
import { ROBOT_BASE, ROBOT_PRESETS, robotPresetConfig, type RobotPresetId } from '../../embodied/robot-presets.ts';
import { validateRobotTrainerConfig, type RobotTrainerConfig } from '../../embodied/robot-trainer.ts';
import { readChoice, readNumber, settingsParams } from '../url-state.ts';

/** The presets that train (robot-sft is the starting policy itself: Evaluate shows it before a run starts). */
export const TRAINABLE_ROBOT_PRESETS = ROBOT_PRESETS.filter((p) => p.switchesFrom !== null);

export interface RobotTrainForm {
  preset: RobotPresetId;
  seed: number;
  groupsPerStep: number;
  groupSize: number;
  lr: number;
  steps: number;
}

export const ROBOT_TRAIN_DEFAULTS: RobotTrainForm = { preset: 'robot-wmrl', seed: 1, groupsPerStep: 4, groupSize: 4, lr: ROBOT_BASE.lr, steps: 10 };

/** Upper bounds a page keeps to: past these a step takes minutes and its rollouts fill memory. */
export const ROBOT_TRAIN_LIMITS = { groupsPerStep: 16, groupSize: 8, steps: 200 } as const;

export type RobotTrainConfigResult = { ok: true; config: RobotTrainerConfig } | { ok: false; error: string };

/** The form's run, or why it cannot run. */
export function robotTrainConfig(form: RobotTrainForm): RobotTrainConfigResult {
  const int = (v: number, lo: number, hi: number, what: string): string | null =>
    Number.isInteger(v) && v >= lo && v <= hi ? null : `${what} must be a whole number from ${lo} to ${hi} (got ${String(v)})`;
  if (!TRAINABLE_ROBOT_PRESETS.some((p) => p.id === form.preset)) return { ok: false, error: `choose a preset that trains (got ${JSON.stringify(form.preset)})` };
  const problem =
    int(form.seed, 0, 2 ** 31 - 1, 'the seed') ??
    int(form.groupsPerStep, 1, ROBOT_TRAIN_LIMITS.groupsPerStep, 'B (initial states a step)') ??
    int(form.groupSize, 2, ROBOT_TRAIN_LIMITS.groupSize, 'G (rollouts per state)') ??
    int(form.steps, 1, ROBOT_TRAIN_LIMITS.steps, 'steps') ??
    (typeof form.lr === 'number' && form.lr > 0 && form.lr <= 0.1 ? null : `lr must be a number above 0 and at most 0.1 (got ${String(form.lr)})`);
  if (problem) return { ok: false, error: problem };
  const config = robotPresetConfig(form.preset, { seed: form.seed, groupsPerStep: form.groupsPerStep, groupSize: form.groupSize, lr: form.lr, steps: form.steps });
  try {
    validateRobotTrainerConfig(config);
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  return { ok: true, config };
}

// The form's place in the URL, beside the view's `r.` keys: `rt.` keys, so that a link reopens the
// panel with the same run settings (a run itself is not in the URL: Start reruns it, deterministically).
const TRAIN_KEYS: Record<keyof RobotTrainForm, string> = { preset: 'rt.preset', seed: 'rt.seed', groupsPerStep: 'rt.B', groupSize: 'rt.G', lr: 'rt.lr', steps: 'rt.steps' };

/** The form a URL asks for; a hand-edited value out of range falls back to its default. */
export function robotTrainFormFromParams(params: URLSearchParams): RobotTrainForm {
  const d = ROBOT_TRAIN_DEFAULTS;
  const L = ROBOT_TRAIN_LIMITS;
  return {
    preset: readChoice(params, TRAIN_KEYS.preset, TRAINABLE_ROBOT_PRESETS.map((p) => p.id), d.preset),
    seed: readNumber(params, TRAIN_KEYS.seed, { min: 0, max: 2 ** 31 - 1, integer: true }, d.seed),
    groupsPerStep: readNumber(params, TRAIN_KEYS.groupsPerStep, { min: 1, max: L.groupsPerStep, integer: true }, d.groupsPerStep),
    groupSize: readNumber(params, TRAIN_KEYS.groupSize, { min: 2, max: L.groupSize, integer: true }, d.groupSize),
    lr: readNumber(params, TRAIN_KEYS.lr, { min: Number.MIN_VALUE, max: 0.1 }, d.lr),
    steps: readNumber(params, TRAIN_KEYS.steps, { min: 1, max: L.steps, integer: true }, d.steps),
  };
}

/** The form as URL values with their defaults, for router.set (defaults are left out of the URL). */
export function robotTrainFormParams(form: RobotTrainForm): { values: Record<string, number | string>; defaults: Record<string, number | string> } {
  return settingsParams(form, ROBOT_TRAIN_DEFAULTS, TRAIN_KEYS);
}
