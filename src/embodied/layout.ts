// Initial states: a seeded layout per (task, split, index). Training and held-out initial states come
// from separate seed streams, so a held-out state is one the policy never started from (the paper's
// widest margin was on such states).
//
// The drawer's row is kept clear of places, blocks and the gripper: it is the lane the drawer closes
// along, so no layout can jam it.

import { deriveSeed, mulberry32, sampleIndices, shuffleInPlace, randomInt } from '../primitives/random.ts';
import { BLOCK_COLORS, DRAWER_MAX_OPEN, GRID, PLACES, checkScene, type BlockColor, type Cell, type Place, type SceneState } from './scene.ts';
import { ALL_TASKS, type RobotTask } from './tasks.ts';

export type StateSplit = 'train' | 'heldout';

/** Blocks on the table in every scene: the ones the task names, then distractors. */
export const BLOCKS_PER_SCENE = 3;

const LAYOUT_SALT = 0x10b07;

/** The initial scene of episode `index` of a task on a split; a pure function of its arguments. */
export function initialScene(task: RobotTask, split: StateSplit, index: number): SceneState {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`initial-state index must be a non-negative integer, got ${index}`);
  const taskIndex = ALL_TASKS.findIndex((t) => t.id === task.id);
  if (taskIndex < 0) throw new RangeError(`unknown robot task "${task.id}"`);
  const rng = mulberry32(deriveSeed(LAYOUT_SALT, split === 'train' ? 0 : 1, taskIndex, index));

  const row = 1 + randomInt(rng, GRID - 2);
  const usesDrawer = task.goals.some((g) => g.kind === 'drawer-closed');
  // A task that asks for the drawer shut starts with it at least two cells out.
  const open = usesDrawer ? 2 + randomInt(rng, DRAWER_MAX_OPEN - 1) : randomInt(rng, DRAWER_MAX_OPEN + 1);
  const usesStove = task.goals.some((g) => g.kind === 'stove-on');
  const stoveOn = usesStove ? false : rng() < 0.5;

  const free: Cell[] = [];
  for (let y = 0; y < GRID; y++) for (let x = 1; x < GRID; x++) if (y !== row) free.push({ x, y });
  // Places, blocks and the gripper take distinct cells.
  const cells = shuffleInPlace(rng, sampleIndices(rng, free.length, PLACES.length + BLOCKS_PER_SCENE + 1).map((i) => free[i]));
  const places = {} as Record<Place, Cell>;
  PLACES.forEach((p, i) => (places[p] = cells[i]));
  const others = BLOCK_COLORS.filter((c) => !task.blocks.includes(c));
  shuffleInPlace(rng, others);
  // Shuffled so that no block index stands for "the named block".
  const colors: BlockColor[] = shuffleInPlace(rng, [...task.blocks, ...others].slice(0, BLOCKS_PER_SCENE));
  const blocks = colors.map((color, i) => ({ color, ...cells[PLACES.length + i] }));
  const gripper = cells[PLACES.length + BLOCKS_PER_SCENE];

  const scene: SceneState = { gripper, held: null, blocks, places, stoveOn, drawer: { row, open } };
  checkScene(scene);
  return scene;
}
