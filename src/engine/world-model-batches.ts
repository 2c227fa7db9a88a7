// What every world-model scorer does before its forward, whatever runs it (onnxruntime-web in the
// world-model worker, the WebGPU engine on the policy's device): (card, program) pairs as token
// sequences cut at the context length, and those sequences sorted by length into as few forwards as a
// bound allows. One definition, so the two scorers see the same tokens.

import type { Tokenizer } from '../model/tokenizer.ts';

export interface WorldModelPair {
  card: string;
  program: string;
}

export interface ScoreResult {
  scores: Float32Array;
  /** pairs longer than the context, scored on their first contextLength tokens */
  truncated: number;
  /** forwards run (1 unless the batch exceeded the scorer's bound) */
  forwards: number;
  ms: number;
}

/** Token sequences of the pairs ([bos] card [sep] program [eos], capped at the context) and how many were cut. */
export function encodeWorldModelPairs(tokenizer: Tokenizer, contextLength: number, pairs: readonly WorldModelPair[]): { sequences: number[][]; truncated: number } {
  let truncated = 0;
  const sequences = pairs.map(({ card, program }) => {
    const { tokens } = tokenizer.encodeSequence(card, program);
    if (tokens.length <= contextLength) return tokens;
    truncated++;
    return tokens.slice(0, contextLength);
  });
  return { sequences, truncated };
}

/**
 * Indices of `sequences` sorted by length and cut into consecutive chunks; a chunk grows while
 * `fits(count, longest)` holds for it (a chunk always takes at least one sequence).
 */
export function lengthSortedChunks(sequences: readonly (readonly number[])[], fits: (count: number, longest: number) => boolean): number[][] {
  const order = sequences.map((_, i) => i).sort((a, b) => sequences[a].length - sequences[b].length);
  const chunks: number[][] = [];
  let start = 0;
  while (start < order.length) {
    let end = start + 1;
    // the longest in [start, end) is the last one (sorted)
    while (end < order.length && fits(end + 1 - start, sequences[order[end]].length)) end++;
    chunks.push(order.slice(start, end));
    start = end;
  }
  return chunks;
}
