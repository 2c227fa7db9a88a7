// A shorter reading of a frame for the policy: only the cells that are not bare table or bare
// cabinet, each as three tokens (column, row, patch), row by row after the instruction:
//
//   [bos] word ... word [sep] (col row patch) (col row patch) ... [action]
//
// About 10 cells a frame, so about 30 tokens instead of 144, with where each thing is written out
// rather than left to learned position embeddings. Still read from pixels only: a cell counts as
// bare when every pixel has the table's (or the cabinet's) colour. Coordinate tokens follow the
// frame tokenizer's vocabulary, so its ids (and the models built on it) do not move.

import type { FrameTokenizer } from './frame-tokens.ts';
import { CELL_PX, PALETTE, type Frame } from './renderer.ts';
import { GRID } from './scene.ts';

/** A cell that shows nothing but bare table or bare cabinet. */
export function bareCell(frame: Frame, cx: number, cy: number): boolean {
  const first = ((cy * CELL_PX) * frame.width + cx * CELL_PX) * 3;
  const c = [frame.rgb[first], frame.rgb[first + 1], frame.rgb[first + 2]];
  const isBackground = (p: readonly number[]) => p[0] === c[0] && p[1] === c[1] && p[2] === c[2];
  if (!isBackground(PALETTE.table) && !isBackground(PALETTE.cabinet)) return false;
  for (let y = 0; y < CELL_PX; y++) {
    for (let x = 0; x < CELL_PX; x++) {
      const o = ((cy * CELL_PX + y) * frame.width + cx * CELL_PX + x) * 3;
      if (frame.rgb[o] !== c[0] || frame.rgb[o + 1] !== c[1] || frame.rgb[o + 2] !== c[2]) return false;
    }
  }
  return true;
}

export class SparseFrameTokens {
  constructor(readonly base: FrameTokenizer) {}

  get vocabSize(): number {
    return this.base.vocabSize + 2 * GRID;
  }

  columnToken(x: number): number {
    return this.base.vocabSize + x;
  }

  rowToken(y: number): number {
    return this.base.vocabSize + GRID + y;
  }

  /** [bos] words [sep] (col row patch)*; `frameStart` is the index of the first cell's tokens. */
  encode(instruction: string, frame: Frame): { tokens: number[]; frameStart: number } {
    const dense = this.base.encode(instruction, frame);
    const tokens = dense.tokens.slice(0, dense.frameStart);
    for (let cy = 0; cy < GRID; cy++) {
      for (let cx = 0; cx < GRID; cx++) {
        if (bareCell(frame, cx, cy)) continue;
        tokens.push(this.columnToken(cx), this.rowToken(cy), dense.tokens[dense.frameStart + cy * GRID + cx]);
      }
    }
    return { tokens, frameStart: dense.frameStart };
  }
}
