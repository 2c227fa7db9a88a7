// Episodes for the progress model: demonstrations at several noise levels (high noise gives the failed
// rollouts the model must also score low), each with the 8 frames the method scores and their
// progress labels. A pure function of its arguments, so the training set and the held-out set are
// named by (tasks, split, states per task, noise levels), not stored.

import { deriveSeed } from '../primitives/random.ts';
import { initialScene, type StateSplit } from './layout.ts';
import { progressLabeller } from './progress-label.ts';
import { demonstrate, type Episode } from './rollout.ts';
import type { SceneState } from './scene.ts';
import { frameIndices } from './shaping.ts';
import { ALL_TASKS, type RobotTask } from './tasks.ts';

export interface ProgressEpisode {
  task: RobotTask;
  split: StateSplit;
  index: number;
  noise: number;
  episode: Episode;
  /** The 8 scored frames (frameIndices) and their progress labels. */
  frames: SceneState[];
  labels: number[];
}

const DATA_SALT = 0x9d06;

export function progressEpisodes(tasks: readonly RobotTask[], split: StateSplit, statesPerTask: number, noises: readonly number[]): ProgressEpisode[] {
  const out: ProgressEpisode[] = [];
  for (const task of tasks) {
    const t = ALL_TASKS.findIndex((x) => x.id === task.id);
    for (let index = 0; index < statesPerTask; index++) {
      const start = initialScene(task, split, index);
      const label = progressLabeller(task, start);
      noises.forEach((noise, k) => {
        const episode = demonstrate(task, start, noise, deriveSeed(DATA_SALT, split === 'train' ? 0 : 1, t, index, k));
        const frames = frameIndices(episode.states.length).map((i) => episode.states[i]);
        out.push({ task, split, index, noise, episode, frames, labels: frames.map(label) });
      });
    }
  }
  return out;
}
