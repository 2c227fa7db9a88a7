// The training losses of src/model/losses.ts written as per-token coefficients on log-probabilities:
// every loss here has gradient dL/dlogp[b, t] = -coef[b, t], so one LM training graph (which
// minimises -sum coef * logp with coef held constant) gives the exact gradient of each of them.
// For clipped or KL-regularised RL the coefficient depends on the current log-probs, which the
// caller computes first (the value of the surrogate differs, its gradient does not).

import { rlTokenTerms, type RlLossOptions } from '../model/losses.ts';
import type { SequenceBatch } from '../model/sequence-batch.ts';

export interface Coefficients {
  /** [B, T], indexed like lossMask (the token at t, predicted from t - 1) */
  coef: Float32Array;
  /** number of selected tokens (t >= 1, t < length, mask != 0) */
  tokens: number;
}

function forEachSelected(batch: SequenceBatch, fn: (pos: number, b: number) => void): number {
  const { B, T, lossMask, lengths } = batch;
  let n = 0;
  for (let b = 0; b < B; b++) {
    for (let t = 1; t < lengths[b]; t++) {
      const pos = b * T + t;
      if (lossMask[pos] !== 0) {
        fn(pos, b);
        n++;
      }
    }
  }
  return n;
}

/** SFT: mean negative log-likelihood over masked tokens, weighted by the mask values. */
export function sftCoefficients(batch: SequenceBatch): Coefficients {
  let wSum = 0;
  forEachSelected(batch, (pos) => (wSum += batch.lossMask[pos]));
  if (!(wSum > 0)) throw new Error('sft: the loss mask selects no token');
  const coef = new Float32Array(batch.B * batch.T);
  const tokens = forEachSelected(batch, (pos) => (coef[pos] = batch.lossMask[pos] / wSum));
  return { coef, tokens };
}

/** SFT loss value from token log-probs ([B, T]). */
export function sftLossValue(batch: SequenceBatch, logProbs: Float32Array, c: Coefficients): number {
  let loss = 0;
  forEachSelected(batch, (pos) => (loss -= c.coef[pos] * logProbs[pos]));
  return loss;
}

export interface RlTerms extends Coefficients {
  loss: number;
  policyLoss: number;
  meanKl: number;
  clipFraction: number;
}

/** Whether the coefficients need the current log-probs (clipping or a KL term). */
export function rlNeedsLogProbs(options: RlLossOptions): boolean {
  return options.clip !== undefined || options.kl !== undefined;
}

/**
 * RL coefficients and loss terms as in rlLoss. logProbs ([B, T], current policy) is required with
 * clipping or KL; without them the coefficient is m w_b / Z and the loss is computed when given.
 */
export function rlCoefficients(batch: SequenceBatch, options: RlLossOptions, logProbs?: Float32Array): RlTerms {
  const { weights, normalizer: Z, clip } = options;
  if (weights.length !== batch.B) throw new Error(`rl: ${weights.length} weights for ${batch.B} sequences`);
  if (!(Z > 0)) throw new Error(`rl: the normaliser Z must be positive, got ${Z}`);
  if (clip && !(clip.epsilon > 0)) throw new Error(`rl: clip epsilon must be positive, got ${clip.epsilon}`);
  if (rlNeedsLogProbs(options) && !logProbs) throw new Error('rl: clipping and KL need the current log-probs');
  const positions: number[] = [];
  const tokens = forEachSelected(batch, (pos) => positions.push(pos));
  // Without log-probs (no clipping, no KL) the coefficient does not depend on them; the loss is then 0.
  const { dlogp, ...terms } = rlTokenTerms(batch, options, positions, (i) => (logProbs ? logProbs[positions[i]] : 0));
  const coef = new Float32Array(batch.B * batch.T);
  // coef = -dL/dlogp; 0 - x rather than -x keeps a zero coefficient +0.
  positions.forEach((pos, i) => (coef[pos] = 0 - dlogp[i]));
  return { ...terms, coef, tokens };
}
