import { describe, expect, it } from 'vitest';
import { expertAction } from '../../../src/embodied/expert.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { behaviourCloningExamples } from '../../../src/embodied/policy-data.ts';
import { demonstrate, runEpisodes } from '../../../src/embodied/rollout.ts';
import { sceneKey } from '../../../src/embodied/scene.ts';
import { TRAIN_TASKS, succeeded } from '../../../src/embodied/tasks.ts';

describe('batched episodes', () => {
  it('give each episode exactly what runEpisode gives, asking only for unfinished ones', async () => {
    const starts = TRAIN_TASKS.slice(0, 6).map((task, i) => ({ task, initial: initialScene(task, 'train', i) }));
    const asked: number[] = [];
    const eps = await runEpisodes(starts, async (items) => {
      asked.push(items.length);
      for (const it of items) expect(succeeded(it.task, it.state)).toBe(false);
      return items.map((it) => expertAction(it.task, it.state));
    });
    eps.forEach((e, i) => {
      const one = demonstrate(starts[i].task, starts[i].initial, 0, 1);
      expect(e.actions).toEqual(one.actions);
      expect(e.states.map(sceneKey)).toEqual(one.states.map(sceneKey));
      expect(e.success).toBe(true);
    });
    expect(asked[0]).toBe(6);
    expect(asked[asked.length - 1]).toBeLessThan(6);
  });

  it('refuses a policy that answers for the wrong number of episodes', async () => {
    const task = TRAIN_TASKS[0];
    await expect(runEpisodes([{ task, initial: initialScene(task, 'train', 0) }], async () => [])).rejects.toThrow(/answered 0 actions for 1 episodes/);
  });
});

describe('behaviour-cloning examples', () => {
  it('label every visited scene before the end with the noise-free expert action', () => {
    const ex = behaviourCloningExamples(TRAIN_TASKS.slice(0, 2), 'train', 2, [0, 0.5]);
    expect(ex.length).toBeGreaterThan(40);
    for (const e of ex) {
      expect(e.action).toBe(expertAction(e.task, e.state));
      expect(succeeded(e.task, e.state)).toBe(false);
    }
    const again = behaviourCloningExamples(TRAIN_TASKS.slice(0, 2), 'train', 2, [0, 0.5]);
    expect(again.map((e) => sceneKey(e.state) + e.action)).toEqual(ex.map((e) => sceneKey(e.state) + e.action));
  });
});
