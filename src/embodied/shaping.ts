// Dense reward from a progress model (the paper's embodied track, the authors' `embodied/`): the
// progress model scores 8 frames spread over a rollout, and the 8 scores collapse to one number, the
// world-model score s of the rollout.
//
//   'delta' (the authors' default)  mean of the last 3 scores minus mean of the first 3. Potential-based
//            shaping: it is a fixed positive combination of the frame-to-frame differences, so it
//            rewards progress made during the rollout, not where it started, and lies in [-1, 1].
//   'final'  the last frame's score, in [0, 1].
//   'max'    the highest score of any frame, in [0, 1]: the easiest to game (one good-looking frame).
//
// The choice is where reward hacking enters, so it is a setting, not a constant.

import { meanOf } from '../primitives/mean.ts';

export type DenseRewardMode = 'delta' | 'final' | 'max';
export const DENSE_REWARD_MODES: readonly DenseRewardMode[] = ['delta', 'final', 'max'];

/** Frames the progress model scores per rollout, and the window of the 'delta' means. */
export const PROGRESS_FRAMES = 8;
export const DELTA_WINDOW = 3;

/**
 * Which of a rollout's `observations` frames (initial scene included) are scored: `count` indices
 * spread evenly from the first to the last, floor(i (n - 1) / (count - 1)) in integers (numpy's
 * linspace cast to int). A rollout shorter than `count` frames repeats some.
 */
export function frameIndices(observations: number, count = PROGRESS_FRAMES): number[] {
  if (!Number.isInteger(observations) || observations < 1) throw new RangeError(`a rollout has at least one observation, got ${observations}`);
  if (!Number.isInteger(count) || count < 2) throw new RangeError(`score at least 2 frames, got ${count}`);
  return Array.from({ length: count }, (_, i) => Math.floor((i * (observations - 1)) / (count - 1)));
}

/** One rollout's dense reward from its frames' progress scores (each in [0, 1], in time order). */
export function denseReward(progress: readonly number[], mode: DenseRewardMode = 'delta'): number {
  if (progress.length !== PROGRESS_FRAMES) throw new RangeError(`dense reward needs ${PROGRESS_FRAMES} progress scores, got ${progress.length}`);
  progress.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`progress score ${i} is ${p}, outside [0, 1]`);
  });
  switch (mode) {
    case 'delta':
      return meanOf(progress.slice(-DELTA_WINDOW)) - meanOf(progress.slice(0, DELTA_WINDOW));
    case 'final':
      return progress[progress.length - 1];
    case 'max':
      return Math.max(...progress);
    default:
      throw new RangeError(`unknown dense reward mode "${String(mode)}" (known: ${DENSE_REWARD_MODES.join(', ')})`);
  }
}
