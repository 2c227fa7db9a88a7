import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTIONS, actionId, actionOf, applyAction, type Action } from '../../../src/embodied/kinematics.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { replay } from '../../../src/embodied/rollout.ts';
import { checkScene, sceneKey, type SceneState } from '../../../src/embodied/scene.ts';
import { ALL_TASKS } from '../../../src/embodied/tasks.ts';

/** A hand-made scene: the drawer on row 5 two cells out, the stove at (6,2), blocks at (4,3), (9,9), (2,7). */
function scene(over: Partial<SceneState> = {}): SceneState {
  return {
    gripper: { x: 3, y: 3 },
    held: null,
    blocks: [
      { color: 'red', x: 4, y: 3 },
      { color: 'blue', x: 9, y: 9 },
      { color: 'green', x: 2, y: 7 },
    ],
    places: { bowl: { x: 8, y: 1 }, plate: { x: 10, y: 6 }, stove: { x: 6, y: 2 } },
    stoveOn: false,
    drawer: { row: 5, open: 2 },
    ...over,
  };
}

const run = (s: SceneState, actions: Action[]) => actions.reduce(applyAction, s);

describe('robot kinematics', () => {
  it('action tokens are 0..5 and round-trip; other ids are refused with a message', () => {
    ACTIONS.forEach((a, i) => {
      expect(actionId(a)).toBe(i);
      expect(actionOf(i)).toBe(a);
    });
    expect(() => actionOf(6)).toThrow(/action token 6/);
    expect(() => actionOf(1.5)).toThrow(/action token/);
  });

  it('moves one cell, and a move onto the cabinet, the drawer body or off the table does nothing', () => {
    expect(applyAction(scene(), 'up').gripper).toEqual({ x: 3, y: 2 });
    expect(applyAction(scene(), 'down').gripper).toEqual({ x: 3, y: 4 });
    expect(applyAction(scene(), 'right').gripper).toEqual({ x: 4, y: 3 });
    expect(applyAction(scene({ gripper: { x: 1, y: 0 } }), 'left').gripper).toEqual({ x: 1, y: 0 }); // cabinet
    expect(applyAction(scene({ gripper: { x: 1, y: 0 } }), 'up').gripper).toEqual({ x: 1, y: 0 }); // edge
    expect(applyAction(scene({ gripper: { x: 11, y: 11 } }), 'right').gripper).toEqual({ x: 11, y: 11 });
    expect(applyAction(scene({ gripper: { x: 11, y: 11 } }), 'down').gripper).toEqual({ x: 11, y: 11 });
    // Drawer body covers x = 1..2 of row 5: entering it from above or below is blocked.
    expect(applyAction(scene({ gripper: { x: 2, y: 4 } }), 'down').gripper).toEqual({ x: 2, y: 4 });
    expect(applyAction(scene({ gripper: { x: 1, y: 6 } }), 'up').gripper).toEqual({ x: 1, y: 6 });
  });

  it('pushing left from in front of the drawer closes it a cell at a time, then the cabinet stops the gripper', () => {
    let s = scene({ gripper: { x: 3, y: 5 } });
    s = applyAction(s, 'left');
    expect(s.drawer.open).toBe(1);
    expect(s.gripper).toEqual({ x: 2, y: 5 });
    s = applyAction(s, 'left');
    expect(s.drawer.open).toBe(0);
    expect(s.gripper).toEqual({ x: 1, y: 5 });
    s = applyAction(s, 'left');
    expect(s.drawer.open).toBe(0);
    expect(s.gripper).toEqual({ x: 1, y: 5 });
    // Right does not pull it open; left from elsewhere on the row does not push.
    expect(applyAction(s, 'right').drawer.open).toBe(0);
    expect(applyAction(scene({ gripper: { x: 5, y: 5 } }), 'left').drawer.open).toBe(2);
  });

  it('grasp picks up a block here and it travels with the gripper; release puts it down', () => {
    let s = run(scene(), ['right', 'grasp']);
    expect(s.held).toBe(0);
    s = run(s, ['down', 'down']);
    expect(s.blocks[0]).toMatchObject({ x: 4, y: 5 });
    s = applyAction(s, 'release');
    expect(s.held).toBeNull();
    s = applyAction(s, 'up');
    expect(s.blocks[0]).toMatchObject({ x: 4, y: 5 });
    // Grasp on an empty table cell and release with nothing held do nothing.
    expect(sceneKey(applyAction(scene(), 'grasp'))).toBe(sceneKey(scene()));
    expect(sceneKey(applyAction(scene(), 'release'))).toBe(sceneKey(scene()));
  });

  it('a block cannot be released onto another block, and a full gripper grasps nothing', () => {
    const holding = run(scene({ gripper: { x: 4, y: 3 } }), ['grasp']);
    const over = run(holding, ['right', 'right', 'right', 'right', 'right', 'down', 'down', 'down', 'down', 'down', 'down']);
    expect(over.gripper).toEqual({ x: 9, y: 9 });
    const tried = applyAction(over, 'release');
    expect(tried.held).toBe(0);
    expect(applyAction(over, 'grasp').held).toBe(0);
  });

  it('grasp on a bare stove switches it on and off; on a stove with a block it lifts the block instead', () => {
    const at = scene({ gripper: { x: 6, y: 2 } });
    expect(applyAction(at, 'grasp').stoveOn).toBe(true);
    expect(run(at, ['grasp', 'grasp']).stoveOn).toBe(false);
    const withBlock = scene({ gripper: { x: 6, y: 2 }, blocks: [{ color: 'red', x: 6, y: 2 }, { color: 'blue', x: 9, y: 9 }, { color: 'green', x: 2, y: 7 }] });
    const lifted = applyAction(withBlock, 'grasp');
    expect(lifted.held).toBe(0);
    expect(lifted.stoveOn).toBe(false);
  });

  it('never changes its input', () => {
    const s = scene({ gripper: { x: 3, y: 5 } });
    const before = sceneKey(s);
    for (const a of ACTIONS) applyAction(s, a);
    expect(sceneKey(s)).toBe(before);
  });

  it('property: any action sequence from any initial scene keeps the invariants and replays identically', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: ALL_TASKS.length - 1 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.array(fc.integer({ min: 0, max: ACTIONS.length - 1 }), { maxLength: 120 }),
        (t, index, ids) => {
          const start = initialScene(ALL_TASKS[t], 'train', index);
          const actions = ids.map(actionOf);
          const states = replay(start, actions);
          for (const s of states) checkScene(s);
          // Blocks keep their colours; the drawer only ever closes.
          for (let i = 1; i < states.length; i++) {
            expect(states[i].blocks.map((b) => b.color)).toEqual(start.blocks.map((b) => b.color));
            expect(states[i].drawer.open).toBeLessThanOrEqual(states[i - 1].drawer.open);
            const dx = Math.abs(states[i].gripper.x - states[i - 1].gripper.x) + Math.abs(states[i].gripper.y - states[i - 1].gripper.y);
            expect(dx).toBeLessThanOrEqual(1);
          }
          expect(replay(start, actions).map(sceneKey)).toEqual(states.map(sceneKey));
        },
      ),
      { numRuns: 200 },
    );
  });
});
