// The policy's reading of a frame from the gripper's point of view: where the gripper is, then every
// cell that is not bare table or cabinet as (dx, dy, patch) with its offset from the gripper:
//
//   [bos] word ... word [sep] gx gy patch(gripper) (dx dy patch) (dx dy patch) ... [action]
//
// An action depends on where its target lies relative to the gripper (the expert moves vertically
// until level with it, then across), which the sparse encoding leaves the model to work out by
// comparing two absolute coordinates; here the offset's sign is written out. The gripper's own
// column and row stay, since the cabinet and the table's edges are fixed in absolute terms. Still
// read from pixels only: the gripper's cell is the one whose four corner pixels carry a gripper colour.
// New tokens follow the frame tokenizer's vocabulary, so its ids do not move.

import { UNKNOWN_PATCH, type FrameTokenizer } from './frame-tokens.ts';
import { CELL_PX, PALETTE, type Frame } from './renderer.ts';
import { GRID } from './scene.ts';
import { bareCell } from './sparse-frame-tokens.ts';

const OFFSETS = 2 * GRID - 1;

function pixelIs(frame: Frame, x: number, y: number, c: readonly number[]): boolean {
  const o = (y * frame.width + x) * 3;
  return frame.rgb[o] === c[0] && frame.rgb[o + 1] === c[1] && frame.rgb[o + 2] === c[2];
}

/** The gripper's cell: the one cell whose four corner pixels all show the open or the holding gripper. */
export function gripperCell(frame: Frame): { x: number; y: number } {
  const found: { x: number; y: number }[] = [];
  for (let cy = 0; cy < GRID; cy++) {
    for (let cx = 0; cx < GRID; cx++) {
      const corners = [[0, 0], [CELL_PX - 1, 0], [0, CELL_PX - 1], [CELL_PX - 1, CELL_PX - 1]].map(([dx, dy]) => [cx * CELL_PX + dx, cy * CELL_PX + dy]);
      for (const colour of [PALETTE.gripperOpen, PALETTE.gripperHolding]) {
        if (corners.every(([x, y]) => pixelIs(frame, x, y, colour))) found.push({ x: cx, y: cy });
      }
    }
  }
  if (found.length !== 1) throw new RangeError(`egocentric frame tokens: a frame must show exactly one gripper, found ${found.length}`);
  return found[0];
}

/**
 * What leads each listed cell's sided patch token (octants only): nothing; its plain patch token, the
 * same for a thing on every side; or the colour of the cell's centre, where a block shows, so a red
 * block is one token whether it rests on the table, in the bowl or under the gripper.
 */
export type CellLead = 'none' | 'patch' | 'centre';
export const CELL_LEADS: readonly CellLead[] = ['none', 'patch', 'centre'];

/** The colours a cell's centre can show (the renderer's palette), in a fixed order: their tokens. */
const CENTRE_COLOURS: readonly (readonly number[])[] = [
  PALETTE.table, PALETTE.cabinet, PALETTE.drawer, PALETTE.handle, PALETTE.stoveOn, PALETTE.gripperOpen, PALETTE.gripperHolding,
  ...Object.values(PALETTE.block), ...Object.values(PALETTE.place),
];

export class EgocentricFrameTokens {
  /**
   * With `octants`, a cell's patch token also says on which side of the gripper the cell lies. With a
   * `lead` (octants only), each cell's sided token follows a token for what the cell shows whatever its
   * side (see CellLead): what a block looks like is then learned once and the instruction's words can
   * find it, while the sided token after it carries the direction.
   */
  constructor(readonly base: FrameTokenizer, readonly octants = false, readonly lead: CellLead = 'none') {
    if (!CELL_LEADS.includes(lead)) throw new Error(`egocentric frame tokens: unknown cell lead ${JSON.stringify(lead)}`);
    if (lead !== 'none' && !octants) throw new Error('egocentric frame tokens: a cell lead needs octants');
  }

  private get sidedStart(): number {
    return this.base.vocabSize + 2 * OFFSETS + 2 * GRID;
  }

  /** Patch tokens a side has: the unknown patch and every patch of the codebook. */
  private get patchesPerSide(): number {
    return this.base.patches.length + 1;
  }

  private get centreStart(): number {
    return this.sidedStart + (this.octants ? 9 * this.patchesPerSide : 0);
  }

  get vocabSize(): number {
    return this.centreStart + (this.lead === 'centre' ? CENTRE_COLOURS.length + 1 : 0);
  }

  /** The token of the colour at the centre of cell (x, y); one more for a colour off the palette. */
  centreToken(frame: Frame, x: number, y: number): number {
    const i = CENTRE_COLOURS.findIndex((c) => pixelIs(frame, x * CELL_PX + CELL_PX / 2, y * CELL_PX + CELL_PX / 2, c));
    return this.centreStart + (i < 0 ? CENTRE_COLOURS.length : i);
  }

  /**
   * The patch token, or with octants its copy for the side (sign dx, sign dy) the cell lies on: the
   * model then finds where a thing is from the thing's own token, without pairing it with the offset
   * tokens before it (which it learned slowly; see docs/embodied.md).
   */
  sidedPatch(patch: number, dx: number, dy: number): number {
    if (!this.octants) return patch;
    const side = (Math.sign(dx) + 1) * 3 + Math.sign(dy) + 1;
    const firstPatch = this.base.vocabSize - this.base.patches.length;
    const index = patch === UNKNOWN_PATCH ? 0 : patch - firstPatch + 1;
    return this.sidedStart + side * this.patchesPerSide + index;
  }

  dxToken(dx: number): number {
    return this.base.vocabSize + dx + GRID - 1;
  }
  dyToken(dy: number): number {
    return this.base.vocabSize + OFFSETS + dy + GRID - 1;
  }
  columnToken(x: number): number {
    return this.base.vocabSize + 2 * OFFSETS + x;
  }
  rowToken(y: number): number {
    return this.base.vocabSize + 2 * OFFSETS + GRID + y;
  }

  /** [bos] words [sep] gx gy patch (dx dy patch)* (with a lead: (dx dy lead sidedPatch)*); `frameStart` is the index of the gripper's column token. */
  encode(instruction: string, frame: Frame): { tokens: number[]; frameStart: number } {
    const dense = this.base.encode(instruction, frame);
    const g = gripperCell(frame);
    const patch = (x: number, y: number) => dense.tokens[dense.frameStart + y * GRID + x];
    const tokens = [...dense.tokens.slice(0, dense.frameStart), this.columnToken(g.x), this.rowToken(g.y), patch(g.x, g.y)];
    for (let cy = 0; cy < GRID; cy++) {
      for (let cx = 0; cx < GRID; cx++) {
        if ((cx === g.x && cy === g.y) || bareCell(frame, cx, cy)) continue;
        tokens.push(this.dxToken(cx - g.x), this.dyToken(cy - g.y));
        if (this.lead === 'patch') tokens.push(patch(cx, cy));
        if (this.lead === 'centre') tokens.push(this.centreToken(frame, cx, cy));
        tokens.push(this.sidedPatch(patch(cx, cy), cx - g.x, cy - g.y));
      }
    }
    return { tokens, frameStart: dense.frameStart };
  }
}
