// What the frozen progress model reads of one rollout, in one place for Node and the page: the 8
// frames frameIndices picks, each as `[bos] instruction [sep] 144 patch tokens`, and how a score
// becomes a progress in [0, 1] (the score head ends in a sigmoid; the clamp guards the dense reward's
// [0, 1] check against rounding and refuses NaN, a broken model; src/cli/robot-progress.ts validated
// the model through the same clamp).

import type { FrameTokenizer } from './frame-tokens.ts';
import { renderScene } from './renderer.ts';
import type { SceneState } from './scene.ts';
import { frameIndices } from './shaping.ts';
import type { RobotTask } from './tasks.ts';

/** The token sequences of a rollout's scored frames, in time order. */
export function progressFrameSequences(tokenizer: FrameTokenizer, task: RobotTask, states: readonly SceneState[]): number[][] {
  return frameIndices(states.length).map((i) => tokenizer.encode(task.instruction, renderScene(states[i])).tokens);
}

/** A raw score of the progress model as a progress in [0, 1] (NaN is refused: it means a broken model). */
export function clampProgress(score: number): number {
  if (Number.isNaN(score)) throw new RangeError('the progress model scored NaN');
  return Math.min(1, Math.max(0, score));
}
