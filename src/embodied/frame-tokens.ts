// Token sequences for the project's transformer from an instruction and one frame: the instruction's
// words, then the frame as 144 patch tokens (one per 4 x 4 cell, row by row). A policy reads the same
// sequence and emits one action token after it; the progress model scores it with the score head.
//
//   [bos] word ... word [sep] patch(0,0) patch(1,0) ... patch(11,11) [action]
//
// A patch token is the id of the cell's exact 48 bytes in a codebook learned from training frames (a
// vector-quantised tokenizer with no distortion, since the renderer draws a finite set of cell
// looks). A patch never seen in training reads as one `unknown` token rather than failing, so a frame
// from anywhere can be scored. Ids: 0..3 the project's specials, 4 the unknown patch, 5..10 the six
// actions, then the words, then the patches, both in sorted order so the tokenizer is a pure function
// of what it was built on.

import { SPECIAL_TOKENS } from '../model/tokenizer.ts';
import { ACTIONS, type Action } from './kinematics.ts';
import { CELL_PX, type Frame } from './renderer.ts';
import { GRID } from './scene.ts';

export const UNKNOWN_PATCH = 4;
const FIRST_ACTION = 5;
const FIRST_FREE = FIRST_ACTION + ACTIONS.length;

/** The token of an action, and the action of a token (null for a token that is not one). */
export function actionToken(a: Action): number {
  const i = ACTIONS.indexOf(a);
  if (i < 0) throw new RangeError(`unknown action ${String(a)}`);
  return FIRST_ACTION + i;
}
export function actionOfToken(token: number): Action | null {
  return ACTIONS[token - FIRST_ACTION] ?? null;
}
export const PATCHES_PER_FRAME = GRID * GRID;

export interface FrameTokenizerJson {
  format: 'wmrl-robot-frame-tokens';
  version: 1;
  words: string[];
  /** Each patch as 96 hex characters (48 bytes: 4 rows of 4 RGB pixels). */
  patches: string[];
}

/** An instruction's words: lower case, punctuation dropped. */
export function instructionWords(instruction: string): string[] {
  return instruction.toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 0);
}

function patchKey(frame: Frame, cx: number, cy: number): string {
  let hex = '';
  for (let y = 0; y < CELL_PX; y++) {
    const o = ((cy * CELL_PX + y) * frame.width + cx * CELL_PX) * 3;
    for (let i = 0; i < CELL_PX * 3; i++) hex += frame.rgb[o + i].toString(16).padStart(2, '0');
  }
  return hex;
}

function checkFrame(frame: Frame): void {
  const size = GRID * CELL_PX;
  if (frame.width !== size || frame.height !== size || frame.rgb.length !== size * size * 3) {
    throw new RangeError(`frame tokens need a ${size} x ${size} RGB frame, got ${frame.width} x ${frame.height} with ${frame.rgb.length} bytes`);
  }
}

export class FrameTokenizer {
  readonly words: readonly string[];
  readonly patches: readonly string[];
  private readonly wordId: Map<string, number>;
  private readonly patchId: Map<string, number>;

  private constructor(words: string[], patches: string[]) {
    this.words = words;
    this.patches = patches;
    this.wordId = new Map(words.map((w, i) => [w, FIRST_FREE + i]));
    this.patchId = new Map(patches.map((p, i) => [p, FIRST_FREE + words.length + i]));
  }

  /** Learns the words of `instructions` and the distinct patches of `frames`. */
  static build(instructions: readonly string[], frames: readonly Frame[]): FrameTokenizer {
    const words = new Set<string>();
    for (const s of instructions) for (const w of instructionWords(s)) words.add(w);
    const patches = new Set<string>();
    for (const f of frames) {
      checkFrame(f);
      for (let cy = 0; cy < GRID; cy++) for (let cx = 0; cx < GRID; cx++) patches.add(patchKey(f, cx, cy));
    }
    return new FrameTokenizer([...words].sort(), [...patches].sort());
  }

  static fromJSON(json: unknown): FrameTokenizer {
    const j = json as Partial<FrameTokenizerJson> | null;
    if (j === null || typeof j !== 'object' || j.format !== 'wmrl-robot-frame-tokens' || j.version !== 1) {
      throw new Error('not a robot frame tokenizer (format wmrl-robot-frame-tokens, version 1)');
    }
    if (!Array.isArray(j.words) || !j.words.every((w) => typeof w === 'string' && /^[a-z]+$/.test(w))) throw new Error('frame tokenizer: words must be lower-case words');
    if (!Array.isArray(j.patches) || !j.patches.every((p) => typeof p === 'string' && /^[0-9a-f]{96}$/.test(p))) throw new Error('frame tokenizer: patches must be 96 hex characters each');
    if (new Set(j.words).size !== j.words.length || new Set(j.patches).size !== j.patches.length) throw new Error('frame tokenizer: repeated entries');
    return new FrameTokenizer([...j.words], [...j.patches]);
  }

  toJSON(): FrameTokenizerJson {
    return { format: 'wmrl-robot-frame-tokens', version: 1, words: [...this.words], patches: [...this.patches] };
  }

  get vocabSize(): number {
    return FIRST_FREE + this.words.length + this.patches.length;
  }

  /** The 144 patch tokens of a frame. */
  encodeFrame(frame: Frame): number[] {
    checkFrame(frame);
    const out: number[] = [];
    for (let cy = 0; cy < GRID; cy++) for (let cx = 0; cx < GRID; cx++) out.push(this.patchId.get(patchKey(frame, cx, cy)) ?? UNKNOWN_PATCH);
    return out;
  }

  /** [bos] words [sep] patches; `frameStart` is the index of the first patch token. */
  encode(instruction: string, frame: Frame): { tokens: number[]; frameStart: number } {
    const words = instructionWords(instruction).map((w) => {
      const id = this.wordId.get(w);
      if (id === undefined) throw new RangeError(`the instruction word "${w}" is not in the frame tokenizer's vocabulary`);
      return id;
    });
    const tokens = [SPECIAL_TOKENS.bos, ...words, SPECIAL_TOKENS.sep, ...this.encodeFrame(frame)];
    return { tokens, frameStart: words.length + 2 };
  }
}
