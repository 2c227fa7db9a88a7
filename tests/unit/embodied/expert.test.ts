import { describe, expect, it } from 'vitest';
import { expertAction, expertStepsToGo } from '../../../src/embodied/expert.ts';
import { applyAction } from '../../../src/embodied/kinematics.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { HORIZON, demonstrate, replay } from '../../../src/embodied/rollout.ts';
import { sceneKey, type SceneState } from '../../../src/embodied/scene.ts';
import { ALL_TASKS, succeeded, taskById } from '../../../src/embodied/tasks.ts';

describe('scripted expert', () => {
  it('without noise solves every task from training and held-out initial states within the horizon', () => {
    for (const t of ALL_TASKS) {
      for (const split of ['train', 'heldout'] as const) {
        for (let i = 0; i < 12; i++) {
          const e = demonstrate(t, initialScene(t, split, i), 0, 1);
          expect(e.success, `${t.id} ${split} ${i}`).toBe(true);
          expect(e.actions.length).toBeLessThanOrEqual(HORIZON);
          expect(expertStepsToGo(t, e.states[0], HORIZON)).toBe(e.actions.length);
        }
      }
    }
  });

  it('solves a hand-checked episode with exactly the expected actions', () => {
    // stove at (5,4), red block at (9,5), gripper at (8,7): 3 up and 3 left to the stove, switch on,
    // 1 down and 4 right to the red block, lift it, 1 up and 4 left back, put it down.
    const t = taskById('stove-then-block:red');
    const s: SceneState = {
      gripper: { x: 8, y: 7 },
      held: null,
      blocks: [{ color: 'blue', x: 11, y: 2 }, { color: 'green', x: 4, y: 4 }, { color: 'red', x: 9, y: 5 }],
      places: { bowl: { x: 2, y: 10 }, plate: { x: 8, y: 0 }, stove: { x: 5, y: 4 } },
      stoveOn: false,
      drawer: { row: 8, open: 3 },
    };
    const e = demonstrate(t, s, 0, 1);
    expect(e.actions.join(' ')).toBe('up up up left left left grasp down right right right right grasp up left left left left release');
    expect(e.success).toBe(true);
  });

  it('recovers when a stage is undone or a place is taken by another block', () => {
    const t = taskById('bowl-and-plate:red+blue');
    const start = initialScene(t, 'train', 7);
    // Put the green block in the bowl first (a wrong block where the red one must go).
    const bowl = start.places.bowl;
    const g = start.blocks.findIndex((b) => b.color === 'green');
    const blocked: SceneState = { ...start, blocks: start.blocks.map((b, i) => (i === g ? { ...b, x: bowl.x, y: bowl.y } : b)) };
    const e = demonstrate(t, blocked, 0, 1);
    expect(e.success).toBe(true);
    // Mid-way through a clean episode, pull the finished first stage apart again: the expert redoes it.
    const clean = demonstrate(t, start, 0, 1);
    const k = clean.states.findIndex((s, i) => i > 0 && s.held === null && clean.states[i - 1].held !== null);
    let s = clean.states[k];
    s = applyAction(s, 'grasp'); // lifts the red block out of the bowl
    expect(s.held).not.toBeNull();
    expect(demonstrate(t, s, 0, 1).success).toBe(true);
  });

  it('with noise is seeded: the same seed writes the same demonstration, another seed another one', () => {
    const t = taskById('bowl-then-drawer:blue');
    const s = initialScene(t, 'train', 2);
    const a = demonstrate(t, s, 0.3, 11);
    expect(demonstrate(t, s, 0.3, 11).actions).toEqual(a.actions);
    expect(demonstrate(t, s, 0.3, 12).actions).not.toEqual(a.actions);
    expect(replay(s, a.actions).map(sceneKey)).toEqual(a.states.map(sceneKey));
    // Noise costs steps: across 20 states, the noisy demonstrations are longer in total.
    let clean = 0;
    let noisy = 0;
    for (let i = 0; i < 20; i++) {
      clean += demonstrate(t, initialScene(t, 'train', i), 0, i).actions.length;
      noisy += demonstrate(t, initialScene(t, 'train', i), 0.3, i).actions.length;
    }
    expect(noisy).toBeGreaterThan(clean);
  });

  it('noise at 1 is a random policy that rarely succeeds', () => {
    let wins = 0;
    for (const t of ALL_TASKS) wins += +demonstrate(t, initialScene(t, 'train', 0), 1, 5).success;
    expect(wins).toBeLessThan(3);
  });

  it('after success it acts harmlessly and needs no further steps', () => {
    const t = taskById('drawer-and-stove');
    const e = demonstrate(t, initialScene(t, 'train', 0), 0, 1);
    const last = e.states[e.states.length - 1];
    expect(succeeded(t, last)).toBe(true);
    expect(expertStepsToGo(t, last, 0)).toBe(0);
    expect(expertAction(t, last)).toBe('release');
  });
});
