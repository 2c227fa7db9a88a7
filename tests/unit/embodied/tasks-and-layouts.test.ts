import { describe, expect, it } from 'vitest';
import { BLOCKS_PER_SCENE, initialScene } from '../../../src/embodied/layout.ts';
import { checkScene, sceneKey } from '../../../src/embodied/scene.ts';
import { ALL_TASKS, HELDOUT_TASKS, HELDOUT_TASK_IDS, TRAIN_TASKS, goalHolds, succeeded, taskById } from '../../../src/embodied/tasks.ts';

describe('robot task family', () => {
  it('has 25 two-stage tasks with distinct ids and instructions', () => {
    expect(ALL_TASKS.length).toBe(25);
    expect(new Set(ALL_TASKS.map((t) => t.id)).size).toBe(25);
    expect(new Set(ALL_TASKS.map((t) => t.instruction)).size).toBe(25);
    for (const t of ALL_TASKS) expect(t.goals.length).toBe(2);
    expect(taskById('bowl-and-plate:red+blue').instruction).toBe('put the red block in the bowl and the blue block on the plate');
    expect(() => taskById('fly')).toThrow(/unknown robot task "fly"/);
  });

  it('holds out 5 compositions, each stage of which is a stage of a training task', () => {
    expect(new Set(HELDOUT_TASKS.map((t) => t.id))).toEqual(new Set(HELDOUT_TASK_IDS));
    expect(HELDOUT_TASKS.length).toBe(5);
    expect(TRAIN_TASKS.length + HELDOUT_TASKS.length).toBe(ALL_TASKS.length);
    const trainStages = new Set(TRAIN_TASKS.flatMap((t) => t.goals.map((g) => JSON.stringify(g))));
    const trainPairs = new Set(TRAIN_TASKS.map((t) => t.goals.map((g) => JSON.stringify(g)).sort().join('&')));
    for (const h of HELDOUT_TASKS) {
      for (const g of h.goals) expect(trainStages.has(JSON.stringify(g)), `${h.id}: ${JSON.stringify(g)}`).toBe(true);
      expect(trainPairs.has(h.goals.map((g) => JSON.stringify(g)).sort().join('&'))).toBe(false);
    }
  });
});

describe('initial scenes', () => {
  it('are valid, deterministic, start unsolved, and have the named blocks among three', () => {
    for (const t of ALL_TASKS) {
      for (const split of ['train', 'heldout'] as const) {
        for (let i = 0; i < 20; i++) {
          const s = initialScene(t, split, i);
          checkScene(s);
          expect(sceneKey(initialScene(t, split, i))).toBe(sceneKey(s));
          expect(s.blocks.length).toBe(BLOCKS_PER_SCENE);
          for (const c of t.blocks) expect(s.blocks.some((b) => b.color === c)).toBe(true);
          expect(succeeded(t, s)).toBe(false);
          // A stage starts undone: the drawer to close is out by 2 or more, the stove to switch on is off.
          for (const g of t.goals) expect(goalHolds(s, g)).toBe(false);
          if (t.goals.some((g) => g.kind === 'drawer-closed')) expect(s.drawer.open).toBeGreaterThanOrEqual(2);
          // Nothing but the drawer lies on the drawer's row.
          expect([...s.blocks, s.gripper, ...Object.values(s.places)].every((c) => c.y !== s.drawer.row)).toBe(true);
        }
      }
    }
  });

  it('training and held-out states are different streams', () => {
    const t = ALL_TASKS[0];
    const train = new Set(Array.from({ length: 300 }, (_, i) => sceneKey(initialScene(t, 'train', i))));
    expect(train.size).toBe(300);
    const held = Array.from({ length: 100 }, (_, i) => sceneKey(initialScene(t, 'heldout', i)));
    expect(held.filter((k) => train.has(k))).toEqual([]);
  });

  it('refuses a bad index with a message', () => {
    expect(() => initialScene(ALL_TASKS[0], 'train', -1)).toThrow(/non-negative integer/);
    expect(() => initialScene(ALL_TASKS[0], 'train', 0.5)).toThrow(/non-negative integer/);
  });
});
