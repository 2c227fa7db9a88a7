// The control for claim 5 (method.md 5): a world model whose scores say nothing about the program.
//
// The paper's claim is that fusion falls back toward GRPO where the score is not readable from the
// code. To test it without training a second world model, the trainer can shuffle the real world
// model's scores across all programs of a step (seeded): every program gets the score of a program
// drawn at random from the same step, so the scores keep their distribution (the calibrator and the
// variance estimates see realistic values) but carry no information about the program they are
// attached to. Fusion should then see a large residual r and lean on the anchors, as far as its
// ceiling K_A / (K_A + 1) allows with K_A anchor groups a step (docs/method.md).

import { mulberry32, shuffleInPlace } from '../primitives/random.ts';

/** How the world model's scores reach the method: 'program' (as scored) or 'shuffled' (the control). */
export type WorldModelReading = 'program' | 'shuffled';

/** The step's scores permuted by a seeded shuffle; the input is not changed. */
export function unreadableScores(scores: readonly number[], seed: number): number[] {
  return shuffleInPlace(mulberry32(seed), [...scores]);
}
