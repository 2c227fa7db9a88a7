// The tabletop scene of the robot domain: a 12 x 12 grid of cells seen from above. Everything is an
// integer cell coordinate, so a step is exact and identical in Node and the browser.
//
//   x = 0       the cabinet (a wall the gripper cannot enter); its drawer slides out along one row
//   x = 1..11   the table: a bowl, a plate and a stove (fixed), three coloured blocks, the gripper
//
// The drawer on row `row` is `open` cells out (0 = shut): its body covers cells x = 1..open of that
// row, so the gripper cannot enter them; pushing left from the cell in front of it closes it a cell.
// y grows downwards, as in the rendered image.

export const GRID = 12;

export const BLOCK_COLORS = ['red', 'green', 'blue', 'yellow'] as const;
export type BlockColor = (typeof BLOCK_COLORS)[number];

/** Fixed places a block can be put in or on. */
export const PLACES = ['bowl', 'plate', 'stove'] as const;
export type Place = (typeof PLACES)[number];

/** The furthest the drawer slides out. */
export const DRAWER_MAX_OPEN = 3;

export interface Cell {
  x: number;
  y: number;
}

export interface Block extends Cell {
  color: BlockColor;
}

export interface SceneState {
  gripper: Cell;
  /** Index into `blocks` of the block in the gripper (it then sits at the gripper's cell), or null. */
  held: number | null;
  blocks: Block[];
  places: Record<Place, Cell>;
  stoveOn: boolean;
  drawer: { row: number; open: number };
}

export function sameCell(a: Cell, b: Cell): boolean {
  return a.x === b.x && a.y === b.y;
}

/** True for a cell the gripper may occupy: on the grid, not the cabinet, not the drawer's body. */
export function passable(state: SceneState, c: Cell): boolean {
  if (c.x < 1 || c.x >= GRID || c.y < 0 || c.y >= GRID) return false;
  return !(c.y === state.drawer.row && c.x <= state.drawer.open);
}

/** Index of the block resting (not held) at a cell, or -1. */
export function restingBlockAt(state: SceneState, c: Cell): number {
  return state.blocks.findIndex((b, i) => i !== state.held && sameCell(b, c));
}

/** The place at a cell, or null. */
export function placeAt(state: SceneState, c: Cell): Place | null {
  return PLACES.find((p) => sameCell(state.places[p], c)) ?? null;
}

export function blockIndex(state: SceneState, color: BlockColor): number {
  const i = state.blocks.findIndex((b) => b.color === color);
  if (i < 0) throw new RangeError(`the scene has no ${color} block`);
  return i;
}

/** A copy that shares nothing with the original (states are values). */
export function cloneScene(s: SceneState): SceneState {
  return {
    gripper: { ...s.gripper },
    held: s.held,
    blocks: s.blocks.map((b) => ({ ...b })),
    places: { bowl: { ...s.places.bowl }, plate: { ...s.places.plate }, stove: { ...s.places.stove } },
    stoveOn: s.stoveOn,
    drawer: { ...s.drawer },
  };
}

/** A canonical string of a state: equal strings, equal states. */
export function sceneKey(s: SceneState): string {
  const b = s.blocks.map((k) => `${k.color}@${k.x},${k.y}`).join(';');
  const p = PLACES.map((k) => `${k}@${s.places[k].x},${s.places[k].y}`).join(';');
  return `g${s.gripper.x},${s.gripper.y}h${s.held ?? '-'}|${b}|${p}|stove${s.stoveOn ? 1 : 0}|drawer${s.drawer.row},${s.drawer.open}`;
}

/** Checks the invariants every reachable state keeps; throws naming the first one broken. */
export function checkScene(s: SceneState): void {
  const onGrid = (c: Cell) => Number.isInteger(c.x) && Number.isInteger(c.y) && c.x >= 0 && c.x < GRID && c.y >= 0 && c.y < GRID;
  if (!onGrid(s.gripper) || !passable(s, s.gripper)) throw new RangeError(`gripper at ${s.gripper.x},${s.gripper.y} is not on a free cell`);
  if (!Number.isInteger(s.drawer.row) || s.drawer.row < 0 || s.drawer.row >= GRID) throw new RangeError(`drawer row ${s.drawer.row} is off the grid`);
  if (!Number.isInteger(s.drawer.open) || s.drawer.open < 0 || s.drawer.open > DRAWER_MAX_OPEN) throw new RangeError(`drawer open ${s.drawer.open} is not in 0..${DRAWER_MAX_OPEN}`);
  if (s.held !== null && (!Number.isInteger(s.held) || s.held < 0 || s.held >= s.blocks.length)) throw new RangeError(`held index ${s.held} names no block`);
  const seen = new Set<string>();
  s.blocks.forEach((b, i) => {
    if (!onGrid(b) || !passable(s, b)) throw new RangeError(`${b.color} block at ${b.x},${b.y} is not on a free cell`);
    if (i === s.held && !sameCell(b, s.gripper)) throw new RangeError(`the held ${b.color} block is not at the gripper`);
    if (i !== s.held) {
      const k = `${b.x},${b.y}`;
      if (seen.has(k)) throw new RangeError(`two blocks rest on cell ${k}`);
      seen.add(k);
    }
  });
  if (new Set(s.blocks.map((b) => b.color)).size !== s.blocks.length) throw new RangeError('two blocks share a colour');
  const placeCells = new Set(PLACES.map((p) => `${s.places[p].x},${s.places[p].y}`));
  if (placeCells.size !== PLACES.length) throw new RangeError('two places share a cell');
  for (const p of PLACES) if (!onGrid(s.places[p]) || !passable(s, s.places[p])) throw new RangeError(`the ${p} is not on a free cell`);
}
