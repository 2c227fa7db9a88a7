// A rollout as the method sees it: the progress scores of its PROGRESS_FRAMES frames and the
// simulator's sparse success. Nothing else of the trajectory goes further.

import type { Episode } from './rollout.ts';
import type { SceneState } from './scene.ts';
import { PROGRESS_FRAMES, frameIndices } from './shaping.ts';

export interface ScoredRollout {
  /** Progress scores, in [0, 1], of the frames picked by frameIndices, in time order. */
  progress: number[];
  /** Whether the task succeeded: the real outcome, passed to the method on anchor groups only. */
  success: boolean;
}

/** Scores an episode's evenly spread frames with a progress scorer (a frozen model, or the expert's labels). */
export function scoreEpisode(episode: Episode, scorer: (state: SceneState) => number): ScoredRollout {
  const progress = frameIndices(episode.states.length, PROGRESS_FRAMES).map((i) => scorer(episode.states[i]));
  return { progress, success: episode.success };
}
