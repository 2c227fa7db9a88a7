// Identical sequences of an RL batch merged into one row that carries the sum of their coefficients.
//
// Exact only for the loss of one epoch without ratio clipping and without a KL penalty: there the loss
// is sum_b w_b * (-sum of b's masked log-probs) / Z, linear in each w_b, so two rows with the same tokens
// and mask and weights w1, w2 give the loss and gradient of one row with w1 + w2 (up to the order in
// which floats are summed). With clipping a row's term is not linear in its weight, and a KL penalty
// adds a term per row that no weight scales, so a batch for either must not be merged.
//
// Why: the robot's rollouts of a group start from one scene and often take the same first steps, so
// many of a step's sequences (one per rollout step) are the same prompt and the same sampled token.

import type { SequenceSpec } from '../model/sequence-batch.ts';

export interface MergedSequences<S extends SequenceSpec> {
  /** The first occurrence of each distinct sequence, in the order of first occurrence. */
  sequences: S[];
  /** Per merged row: the sum of its copies' coefficients, added in input order. */
  coefficients: number[];
  /** slot[i]: the merged row of input sequence i (to give each input back a per-row value). */
  slot: number[];
}

/** Two sequences are one row when their tokens and their masked-in span (as makeSequenceBatch masks) are equal. */
function contentKey(s: SequenceSpec): string {
  return `${Math.min(Math.max(1, s.programStart), s.tokens.length)}|${s.tokens.join(',')}`;
}

export function mergeIdenticalSequences<S extends SequenceSpec>(sequences: readonly S[], coefficients: readonly number[]): MergedSequences<S> {
  if (coefficients.length !== sequences.length) throw new RangeError(`merge: ${coefficients.length} coefficients for ${sequences.length} sequences`);
  const rowOf = new Map<string, number>();
  const out: MergedSequences<S> = { sequences: [], coefficients: [], slot: [] };
  sequences.forEach((s, i) => {
    const key = contentKey(s);
    let row = rowOf.get(key);
    if (row === undefined) {
      row = out.sequences.length;
      rowOf.set(key, row);
      out.sequences.push(s);
      out.coefficients.push(coefficients[i]);
    } else {
      out.coefficients[row] += coefficients[i];
    }
    out.slot.push(row);
  });
  return out;
}
