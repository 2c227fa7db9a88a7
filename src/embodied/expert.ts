// The scripted expert: from any scene, the next action towards the first goal of the task that does
// not hold yet. It reads the whole state (it is the demonstrator, not a policy under test) and recovers
// from any state noise puts it in: a block in its way is set aside, a goal undone is redone.
//
// Navigation is a breadth-first search over the cells the gripper may enter, ties broken in the
// fixed order up, down, left, right, so the expert is a pure function of the scene.

import { applyAction, type Action } from './kinematics.ts';
import { GRID, blockIndex, passable, placeAt, restingBlockAt, sameCell, type Cell, type SceneState } from './scene.ts';
import { goalHolds, succeeded, type RobotTask } from './tasks.ts';

const STEPS: readonly { action: Action; dx: number; dy: number }[] = [
  { action: 'up', dx: 0, dy: -1 },
  { action: 'down', dx: 0, dy: 1 },
  { action: 'left', dx: -1, dy: 0 },
  { action: 'right', dx: 1, dy: 0 },
];

/** Moves (ignoring pushes) from every cell to `from`, or -1 where it cannot be reached. */
function distances(state: SceneState, from: Cell): Int16Array {
  const d = new Int16Array(GRID * GRID).fill(-1);
  d[from.y * GRID + from.x] = 0;
  const queue: Cell[] = [from];
  for (let q = 0; q < queue.length; q++) {
    const c = queue[q];
    for (const s of STEPS) {
      const n = { x: c.x + s.dx, y: c.y + s.dy };
      if (!passable(state, n) || d[n.y * GRID + n.x] >= 0) continue;
      d[n.y * GRID + n.x] = d[c.y * GRID + c.x] + 1;
      queue.push(n);
    }
  }
  return d;
}

/** One move along a shortest path to `target`. */
function stepToward(state: SceneState, target: Cell): Action {
  const d = distances(state, target);
  const here = d[state.gripper.y * GRID + state.gripper.x];
  if (here <= 0) throw new Error(`expert: no path from ${state.gripper.x},${state.gripper.y} to ${target.x},${target.y}`);
  for (const s of STEPS) {
    const n = { x: state.gripper.x + s.dx, y: state.gripper.y + s.dy };
    if (passable(state, n) && d[n.y * GRID + n.x] === here - 1) return s.action;
  }
  throw new Error('expert: a reachable cell has no neighbour closer to the target');
}

/** Puts the held block down on the nearest cell that is neither a place nor taken by a block. */
function setAside(state: SceneState): Action {
  const d = distances(state, state.gripper);
  let best: Cell | null = null;
  let bestD = Infinity;
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const c = { x, y };
      const k = d[y * GRID + x];
      if (k < 0 || k >= bestD || placeAt(state, c) !== null || restingBlockAt(state, c) >= 0) continue;
      best = c;
      bestD = k;
    }
  }
  if (best === null) throw new Error('expert: no free cell to put a block down');
  return bestD === 0 ? 'release' : stepToward(state, best);
}

/**
 * The expert's next action. After success there is nothing left to do and it answers 'release'
 * (episodes end at success, so that answer is never acted on in a rollout).
 */
export function expertAction(task: RobotTask, state: SceneState): Action {
  const goal = task.goals.find((g) => !goalHolds(state, g));
  if (goal === undefined) return 'release';
  const heldColor = state.held === null ? null : state.blocks[state.held].color;
  switch (goal.kind) {
    case 'drawer-closed': {
      // A held block may ride along; pushing works either way.
      const front = { x: state.drawer.open + 1, y: state.drawer.row };
      return sameCell(state.gripper, front) ? 'left' : stepToward(state, front);
    }
    case 'stove-on': {
      if (heldColor !== null) return setAside(state);
      // At the stove, grasp switches it on, or first lifts a block resting on it (then set aside).
      return sameCell(state.gripper, state.places.stove) ? 'grasp' : stepToward(state, state.places.stove);
    }
    case 'in': {
      const place = state.places[goal.place];
      const occupied = restingBlockAt(state, place) >= 0;
      if (heldColor === goal.block) {
        if (occupied) return setAside(state);
        return sameCell(state.gripper, place) ? 'release' : stepToward(state, place);
      }
      if (heldColor !== null) return setAside(state);
      // Clear the place of another block first, then fetch the named one.
      const target = occupied ? place : state.blocks[blockIndex(state, goal.block)];
      return sameCell(state.gripper, target) ? 'grasp' : stepToward(state, target);
    }
  }
}

/**
 * How many actions the noise-free expert needs from `state` to succeed, or null if it does not
 * within `limit` actions.
 */
export function expertStepsToGo(task: RobotTask, state: SceneState, limit: number): number | null {
  let s = state;
  for (let t = 0; t <= limit; t++) {
    if (succeeded(task, s)) return t;
    if (t === limit) break;
    s = applyAction(s, expertAction(task, s));
  }
  return null;
}
