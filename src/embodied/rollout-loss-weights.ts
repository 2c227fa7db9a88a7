// How one step's rollouts weigh in the RL loss. Every step of a rollout is one sequence carrying its
// rollout's coefficient (its advantage times the method's weights); the loss is
// sum over sequences of weight x log-prob / Z. Two choices of weight and Z:
//
//   constant      weight = coefficient, Z = B x G x horizon (the token budget, fixed for the run).
//                 A rollout's total weight grows with its length: a failure (all of the horizon) carries
//                 its advantage on 2 to 3 times as many tokens as a success of 30 to 60 steps, so a
//                 failure's push away from what it did outweighs a success's pull.
//   per-rollout   weight = coefficient / its length, Z = B x G (the rollouts of the step). Every rollout
//                 carries its coefficient / (B x G) in all, whatever its length; a rollout of the whole
//                 horizon weighs exactly as under `constant`. The authors' embodied trainer gets the same
//                 equal share per rollout by sampling a fixed number of steps from each rollout and
//                 averaging over the samples.

export const LOSS_NORMALISATIONS = ['constant', 'per-rollout'] as const;
export type LossNormalisation = (typeof LOSS_NORMALISATIONS)[number];

export interface RolloutLossWeights {
  /** The weight every step of rollout k carries (one entry per rollout). */
  stepWeight: number[];
  /** Z, the loss's divisor. */
  normalizer: number;
}

/**
 * `coefficients[k]` and `lengths[k]` (actions taken) of every rollout of a step; `horizon` the most a
 * rollout may take. A rollout of length 0 contributes no sequence, so its weight is 0.
 */
export function rolloutLossWeights(coefficients: readonly number[], lengths: readonly number[], horizon: number, mode: LossNormalisation): RolloutLossWeights {
  if (coefficients.length !== lengths.length) throw new RangeError(`loss weights: ${coefficients.length} coefficients for ${lengths.length} rollouts`);
  if (coefficients.length === 0) throw new RangeError('loss weights: no rollouts');
  if (!(Number.isInteger(horizon) && horizon >= 1)) throw new RangeError(`loss weights: horizon must be a positive integer, got ${horizon}`);
  for (const n of lengths) if (!(Number.isInteger(n) && n >= 0 && n <= horizon)) throw new RangeError(`loss weights: a rollout length must be an integer in [0, ${horizon}], got ${n}`);
  const n = coefficients.length;
  switch (mode) {
    case 'constant':
      return { stepWeight: [...coefficients], normalizer: n * horizon };
    case 'per-rollout':
      return { stepWeight: coefficients.map((c, k) => (lengths[k] === 0 ? 0 : c / lengths[k])), normalizer: n };
    default:
      throw new RangeError(`loss weights: normalisation must be one of ${LOSS_NORMALISATIONS.join(', ')}, got ${String(mode)}`);
  }
}
