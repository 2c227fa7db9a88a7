// The camera: a scene drawn from above into a small RGB frame, 4 x 4 pixels a cell (48 x 48 for the
// 12 x 12 grid). Integer fills only, so a frame is byte-identical wherever it is drawn; the golden
// tests pin its bytes.
//
// In a cell, the 2 x 2 centre shows a block; the ring around it shows what the cell is (bowl: a
// white ring, plate: a grey square, stove: dark, with a red ring when on). The gripper marks the
// cell's four corners: black when open, magenta when it holds a block.

import { GRID, PLACES, type BlockColor, type Cell, type Place, type SceneState } from './scene.ts';

export const CELL_PX = 4;
export const FRAME_SIZE = GRID * CELL_PX;

type Rgb = readonly [number, number, number];

export const PALETTE: {
  table: Rgb; cabinet: Rgb; drawer: Rgb; handle: Rgb; stoveOn: Rgb; gripperOpen: Rgb; gripperHolding: Rgb;
  block: Record<BlockColor, Rgb>; place: Record<Place, Rgb>;
} = {
  table: [205, 175, 125],
  cabinet: [95, 60, 30],
  drawer: [150, 100, 55],
  handle: [235, 235, 235],
  stoveOn: [255, 80, 0],
  gripperOpen: [20, 20, 20],
  gripperHolding: [230, 0, 230],
  block: { red: [215, 35, 35], green: [40, 170, 60], blue: [40, 80, 220], yellow: [245, 215, 30] },
  place: { bowl: [245, 245, 245], plate: [170, 170, 190], stove: [55, 55, 55] },
};

/** An RGB frame, row-major, 3 bytes a pixel. */
export interface Frame {
  width: number;
  height: number;
  rgb: Uint8Array;
}

function fill(f: Frame, x0: number, y0: number, w: number, h: number, c: Rgb): void {
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      const o = (y * f.width + x) * 3;
      f.rgb[o] = c[0];
      f.rgb[o + 1] = c[1];
      f.rgb[o + 2] = c[2];
    }
  }
}

const cellPx = (c: Cell): [number, number] => [c.x * CELL_PX, c.y * CELL_PX];

export function renderScene(state: SceneState): Frame {
  const f: Frame = { width: FRAME_SIZE, height: FRAME_SIZE, rgb: new Uint8Array(FRAME_SIZE * FRAME_SIZE * 3) };
  fill(f, 0, 0, FRAME_SIZE, FRAME_SIZE, PALETTE.table);
  fill(f, 0, 0, CELL_PX, FRAME_SIZE, PALETTE.cabinet);

  // The drawer: its body from the cabinet out to its front, a handle on the front's right edge.
  const { row, open } = state.drawer;
  const y0 = row * CELL_PX;
  fill(f, 0, y0, (open + 1) * CELL_PX, CELL_PX, PALETTE.drawer);
  fill(f, (open + 1) * CELL_PX - 1, y0 + 1, 1, CELL_PX - 2, PALETTE.handle);

  for (const p of PLACES) {
    const [x, y] = cellPx(state.places[p]);
    fill(f, x, y, CELL_PX, CELL_PX, PALETTE.place[p]);
    if (p === 'bowl') fill(f, x + 1, y + 1, 2, 2, PALETTE.table);
    if (p === 'stove' && state.stoveOn) {
      fill(f, x, y, CELL_PX, CELL_PX, PALETTE.stoveOn);
      fill(f, x + 1, y + 1, 2, 2, PALETTE.place.stove);
    }
  }

  // The held block last: it is above any block resting in the cell it passes over.
  const order = state.blocks.map((_, i) => i).filter((i) => i !== state.held);
  if (state.held !== null) order.push(state.held);
  for (const i of order) {
    const [x, y] = cellPx(state.blocks[i]);
    fill(f, x + 1, y + 1, 2, 2, PALETTE.block[state.blocks[i].color]);
  }

  const [gx, gy] = cellPx(state.gripper);
  const g = state.held === null ? PALETTE.gripperOpen : PALETTE.gripperHolding;
  for (const [dx, dy] of [[0, 0], [CELL_PX - 1, 0], [0, CELL_PX - 1], [CELL_PX - 1, CELL_PX - 1]]) fill(f, gx + dx, gy + dy, 1, 1, g);
  return f;
}
