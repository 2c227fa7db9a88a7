// The robot's discrete actions and what one does to a scene. Six action tokens:
//
//   up, down, left, right   move the gripper one cell; a held block moves with it. A move onto the
//                           cabinet, the drawer's body or off the table does nothing, except a move
//                           left from the cell in front of an open drawer, which pushes it in a cell.
//   grasp                   with an empty gripper: pick up the block resting here; with none here,
//                           on the stove, switch it on or off. Otherwise nothing.
//   release                 put the held block down here, unless another block rests here.
//
// An action that cannot apply leaves the scene unchanged: a policy cannot put the scene in a state
// the invariants of scene.ts forbid.

import { cloneScene, passable, placeAt, restingBlockAt, type SceneState } from './scene.ts';

export const ACTIONS = ['up', 'down', 'left', 'right', 'grasp', 'release'] as const;
export type Action = (typeof ACTIONS)[number];

/** Action token id (0..5) <-> action. */
export function actionId(a: Action): number {
  return ACTIONS.indexOf(a);
}
export function actionOf(id: number): Action {
  const a = ACTIONS[id];
  if (!Number.isInteger(id) || a === undefined) throw new RangeError(`action token ${id} is not in 0..${ACTIONS.length - 1}`);
  return a;
}

/** The four moves' steps on the grid (y grows downwards); other actions are not moves. */
export const MOVES: Partial<Record<Action, { dx: number; dy: number }>> = {
  up: { dx: 0, dy: -1 },
  down: { dx: 0, dy: 1 },
  left: { dx: -1, dy: 0 },
  right: { dx: 1, dy: 0 },
};

/** The scene after one action; the input is not changed. */
export function applyAction(state: SceneState, action: Action): SceneState {
  const s = cloneScene(state);
  const move = MOVES[action];
  if (move) {
    const target = { x: s.gripper.x + move.dx, y: s.gripper.y + move.dy };
    const d = s.drawer;
    if (action === 'left' && d.open > 0 && s.gripper.y === d.row && s.gripper.x === d.open + 1) {
      // Pushing the drawer's front: it slides in one cell and the gripper follows it.
      d.open -= 1;
    } else if (!passable(s, target)) {
      return s;
    }
    s.gripper = target;
    if (s.held !== null) s.blocks[s.held] = { ...s.blocks[s.held], x: target.x, y: target.y };
    return s;
  }
  if (action === 'grasp') {
    if (s.held !== null) return s;
    const here = restingBlockAt(s, s.gripper);
    if (here >= 0) s.held = here;
    else if (placeAt(s, s.gripper) === 'stove') s.stoveOn = !s.stoveOn;
    return s;
  }
  if (action === 'release') {
    if (s.held !== null && restingBlockAt(s, s.gripper) < 0) s.held = null;
    return s;
  }
  throw new RangeError(`unknown action ${String(action)}`);
}
