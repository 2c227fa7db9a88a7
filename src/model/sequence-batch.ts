// The batch format shared by every loss and engine.
//
// tokens   [B, T] int32, row-major; positions at or after lengths[b] hold the pad id.
// lossMask [B, T] float32; lossMask[b, t] = 1 when token t is a PROGRAM token whose log-probability
//          (predicted from position t-1) counts: the program's tokens and its closing eos. The card,
//          bos and sep are context (0). lossMask[b, 0] is always 0 (nothing predicts it).
// lengths  [B] int32, number of real tokens in each row (1..T).

import { SPECIAL_TOKENS } from './tokenizer.ts';

export interface SequenceBatch {
  B: number;
  T: number;
  tokens: Int32Array;
  lossMask: Float32Array;
  lengths: Int32Array;
}

/** One sequence: its tokens and the index of its first program token. */
export interface SequenceSpec {
  tokens: readonly number[];
  /** Tokens at index >= programStart are masked in (the program and its eos). */
  programStart: number;
}

/** Pads sequences to a common length T (default: the longest) and builds the mask. */
export function makeSequenceBatch(sequences: readonly SequenceSpec[], T?: number, pad: number = SPECIAL_TOKENS.pad): SequenceBatch {
  const B = sequences.length;
  if (B === 0) throw new Error('makeSequenceBatch: no sequences');
  const longest = Math.max(...sequences.map((s) => s.tokens.length));
  const width = T ?? longest;
  if (longest > width) throw new Error(`makeSequenceBatch: a sequence of ${longest} tokens does not fit T = ${width}`);
  const tokens = new Int32Array(B * width).fill(pad);
  const lossMask = new Float32Array(B * width);
  const lengths = new Int32Array(B);
  sequences.forEach((s, b) => {
    if (s.tokens.length < 1) throw new Error(`makeSequenceBatch: sequence ${b} is empty`);
    lengths[b] = s.tokens.length;
    const start = Math.max(1, s.programStart);
    for (let t = 0; t < s.tokens.length; t++) {
      tokens[b * width + t] = s.tokens[t];
      if (t >= start) lossMask[b * width + t] = 1;
    }
  });
  return { B, T: width, tokens, lossMask, lengths };
}

/** Throws when the arrays disagree with B and T or the mask covers position 0 or padding. */
export function validateSequenceBatch(batch: SequenceBatch): void {
  const { B, T, tokens, lossMask, lengths } = batch;
  if (tokens.length !== B * T) throw new Error(`batch: tokens has ${tokens.length} entries, expected ${B * T}`);
  if (lossMask.length !== B * T) throw new Error(`batch: lossMask has ${lossMask.length} entries, expected ${B * T}`);
  if (lengths.length !== B) throw new Error(`batch: lengths has ${lengths.length} entries, expected ${B}`);
  for (let b = 0; b < B; b++) {
    const len = lengths[b];
    if (!(len >= 1 && len <= T)) throw new Error(`batch: length ${len} of row ${b} is outside 1..${T}`);
    if (lossMask[b * T] !== 0) throw new Error(`batch: lossMask[${b}, 0] must be 0 (no token predicts position 0)`);
    for (let t = len; t < T; t++) {
      if (lossMask[b * T + t] !== 0) throw new Error(`batch: lossMask[${b}, ${t}] covers padding (length ${len})`);
    }
  }
}
