// The three training losses on the reference model, each returning the loss and the gradient of the
// loss with respect to the flat parameter array (same layout).
//
// SFT:   L = -(1/N) sum_{b,t} m[b,t] log p(x[b,t] | x[b,<t]),  N = sum m.
// RL:    L = (1/Z) sum_{b,t} m[b,t] ( -obj[b,t] + beta * kl[b,t] ), with w_b the caller's per-sequence
//        weight (advantage times stream weight) and
//          obj = w_b * logp                                   without clipping,
//          obj = min(rho w_b, clip(rho, 1-eps, 1+eps) w_b)    with clipping, rho = exp(logp - logp_old);
//        kl is the k3 estimator of KL(pi || pi_ref) per token: exp(d) - d - 1 with d = logp_ref - logp
//        (unbiased for samples from pi, always >= 0, gradient 1 - exp(d) per token).
//        Both forms have the same gradient at rho = 1 (on-policy); only their values differ.
// World model: L = (1/B) sum_b (s_b - y_b)^2, s_b the score head at the last real token; or binary
//        cross-entropy; or the squared error plus a within-task pairwise term (pairwise-rank-loss.ts).

import type { Model } from './init.ts';
import { crossEntropyBackward, crossEntropyForward } from './ops/reference-ops.ts';
import type { SequenceBatch } from './sequence-batch.ts';
import { validateSequenceBatch } from './sequence-batch.ts';
import type { WithinGroupRanking } from './pairwise-rank-loss.ts';
import { pairwiseTerms, validateRanking } from './pairwise-rank-loss.ts';
import { backward, forward, lmLogits, lmLogitsBackward, scoreHead, scoreHeadBackward, scoreHeadLogitBackward, scoreHeadLogits } from './transformer.ts';
import type { ForwardCache } from './transformer.ts';

export interface LossResult {
  loss: number;
  /** dL/dparams, flat, same layout as model.params; null when gradients were not requested. */
  grads: Float32Array | null;
}

/** Positions whose log-probability is needed: token position b*T+t (t >= 1) and its predicting row b*T+t-1. */
interface TokenSelection {
  positions: number[];
  rows: number[];
  targets: Int32Array;
}

function selectTokens(batch: SequenceBatch, which: 'mask' | 'all'): TokenSelection {
  const { B, T, tokens, lossMask, lengths } = batch;
  const positions: number[] = [];
  for (let b = 0; b < B; b++) {
    for (let t = 1; t < lengths[b]; t++) {
      if (which === 'all' || lossMask[b * T + t] !== 0) positions.push(b * T + t);
    }
  }
  const targets = new Int32Array(positions.length);
  positions.forEach((pos, i) => (targets[i] = tokens[pos]));
  return { positions, rows: positions.map((p) => p - 1), targets };
}

interface TokenLogProbPass {
  cache: ForwardCache;
  sel: TokenSelection;
  h: Float32Array;
  logits: Float32Array;
  lse: Float32Array;
  logprobs: Float32Array;
}

function tokenLogProbPass(model: Model, batch: SequenceBatch, which: 'mask' | 'all'): TokenLogProbPass {
  validateSequenceBatch(batch);
  const cache = forward(model, batch.tokens, batch.B, batch.T);
  const sel = selectTokens(batch, which);
  const { h, logits } = lmLogits(model, cache.hidden, sel.rows);
  const { logprobs, lse } = crossEntropyForward(logits, sel.targets, sel.rows.length, model.config.vocabSize);
  return { cache, sel, h, logits, lse, logprobs };
}

/** Backpropagates dL/dlogp (one entry per selected token) to the parameters. */
function backwardFromLogProbs(model: Model, pass: TokenLogProbPass, dlogp: Float32Array): Float32Array {
  const grads = new Float32Array(model.layout.totalLength);
  const dLogits = crossEntropyBackward(dlogp, pass.logits, pass.sel.targets, pass.lse, pass.sel.rows.length, model.config.vocabSize);
  const dHidden = new Float32Array(pass.cache.hidden.length);
  lmLogitsBackward(model, pass.h, pass.sel.rows, dLogits, dHidden, grads);
  backward(model, pass.cache, dHidden, grads);
  return grads;
}

/**
 * log p(token t | tokens < t) for every real token t >= 1 ('all') or the masked program tokens only
 * ('mask'), as [B, T] with 0 elsewhere. Used for old-policy and reference log-probs and to test engines.
 */
export function tokenLogProbs(model: Model, batch: SequenceBatch, which: 'mask' | 'all' = 'mask'): Float32Array {
  const pass = tokenLogProbPass(model, batch, which);
  const out = new Float32Array(batch.B * batch.T);
  pass.sel.positions.forEach((pos, i) => (out[pos] = pass.logprobs[i]));
  return out;
}

/** Summed program-token log-probability per sequence [B]. */
export function sequenceLogProbs(model: Model, batch: SequenceBatch): Float64Array {
  const lp = tokenLogProbs(model, batch, 'mask');
  const out = new Float64Array(batch.B);
  for (let b = 0; b < batch.B; b++) for (let t = 0; t < batch.T; t++) out[b] += lp[b * batch.T + t];
  return out;
}

/** Next-token cross-entropy averaged over the masked (program) tokens. */
export function sftLoss(model: Model, batch: SequenceBatch, withGrads = true): LossResult & { tokens: number } {
  const pass = tokenLogProbPass(model, batch, 'mask');
  const n = pass.sel.positions.length;
  if (n === 0) throw new Error('sftLoss: the loss mask selects no token');
  const weights = pass.sel.positions.map((pos) => batch.lossMask[pos]);
  const wSum = weights.reduce((a, w) => a + w, 0);
  let loss = 0;
  for (let i = 0; i < n; i++) loss -= weights[i] * pass.logprobs[i];
  loss /= wSum;
  if (!withGrads) return { loss, grads: null, tokens: n };
  const dlogp = new Float32Array(n);
  for (let i = 0; i < n; i++) dlogp[i] = -weights[i] / wSum;
  return { loss, grads: backwardFromLogProbs(model, pass, dlogp), tokens: n };
}

export interface RlLossOptions {
  /** Per-sequence weight [B]: advantage times stream weight, computed by the caller. */
  weights: ArrayLike<number>;
  /** Constant normaliser Z (e.g. the token budget of the step); the same for every batch of a run. */
  normalizer: number;
  /** PPO-style ratio clipping against the log-probs of the policy that sampled the batch ([B, T]). */
  clip?: { epsilon: number; oldLogProbs: Float32Array };
  /** KL penalty towards a reference policy, k3 estimator, with its log-probs ([B, T]). */
  kl?: { beta: number; refLogProbs: Float32Array };
}

export interface RlLossResult extends LossResult {
  /** (1/Z) sum m * (-obj): the policy-gradient part of the loss. */
  policyLoss: number;
  /** mean k3 KL estimate over masked tokens (0 without a reference). */
  meanKl: number;
  /** fraction of masked tokens whose clipped term was the one chosen (gradient 0); 0 without clipping. */
  clipFraction: number;
  tokens: number;
}

export function rlLoss(model: Model, batch: SequenceBatch, options: RlLossOptions, withGrads = true): RlLossResult {
  const { weights, normalizer: Z, clip, kl } = options;
  if (weights.length !== batch.B) throw new Error(`rlLoss: ${weights.length} weights for ${batch.B} sequences`);
  if (!(Z > 0)) throw new Error(`rlLoss: the normaliser Z must be positive, got ${Z}`);
  if (clip && !(clip.epsilon > 0)) throw new Error(`rlLoss: clip epsilon must be positive, got ${clip.epsilon}`);
  if (clip && clip.oldLogProbs.length !== batch.B * batch.T) throw new Error('rlLoss: oldLogProbs must be [B, T]');
  if (kl && kl.refLogProbs.length !== batch.B * batch.T) throw new Error('rlLoss: refLogProbs must be [B, T]');

  const pass = tokenLogProbPass(model, batch, 'mask');
  const n = pass.sel.positions.length;
  const { dlogp, ...terms } = rlTokenTerms(batch, options, pass.sel.positions, (i) => pass.logprobs[i]);
  const result: RlLossResult = { ...terms, grads: null, tokens: n };
  if (withGrads && n > 0) result.grads = backwardFromLogProbs(model, pass, dlogp);
  else if (withGrads) result.grads = new Float32Array(model.layout.totalLength);
  return result;
}

/** The RL loss terms over selected tokens, and the loss gradient with respect to each one's log-prob. */
export interface RlTokenTerms {
  /** dL/dlogp, one entry per given position, in the order given */
  dlogp: Float32Array;
  loss: number;
  policyLoss: number;
  meanKl: number;
  clipFraction: number;
}

/**
 * The RL surrogate of rlLoss at given token positions (b*T+t, masked program tokens), from each
 * one's current log-prob (logProbAt(i) for positions[i]). Shared by rlLoss and the engines'
 * per-token coefficients, so that both optimise the same objective. The options are not validated.
 */
export function rlTokenTerms(
  batch: SequenceBatch,
  options: RlLossOptions,
  positions: readonly number[],
  logProbAt: (i: number) => number,
): RlTokenTerms {
  const { weights, normalizer: Z, clip, kl } = options;
  const n = positions.length;
  const dlogp = new Float32Array(n);
  let policyLoss = 0;
  let klSum = 0;
  let maskSum = 0;
  let clipped = 0;
  for (let i = 0; i < n; i++) {
    const pos = positions[i];
    const b = Math.floor(pos / batch.T);
    const m = batch.lossMask[pos];
    const w = weights[b];
    const logp = logProbAt(i);
    let obj: number;
    let dObj: number;
    if (clip) {
      const rho = Math.exp(logp - clip.oldLogProbs[pos]);
      const rhoClipped = Math.min(Math.max(rho, 1 - clip.epsilon), 1 + clip.epsilon);
      const unclipped = rho * w;
      const clippedTerm = rhoClipped * w;
      if (unclipped <= clippedTerm) {
        obj = unclipped;
        dObj = rho * w; // d(rho w)/dlogp
      } else {
        obj = clippedTerm;
        dObj = 0;
        clipped++;
      }
    } else {
      obj = w * logp;
      dObj = w;
    }
    let dKl = 0;
    if (kl) {
      const d = kl.refLogProbs[pos] - logp;
      const e = Math.exp(d);
      klSum += m * (e - d - 1);
      dKl = kl.beta * (1 - e);
    }
    maskSum += m;
    policyLoss -= m * obj;
    dlogp[i] = (m / Z) * (-dObj + dKl);
  }
  policyLoss /= Z;
  const klLoss = kl ? (kl.beta * klSum) / Z : 0;
  return {
    dlogp,
    loss: policyLoss + klLoss,
    policyLoss,
    meanKl: maskSum > 0 ? klSum / maskSum : 0,
    clipFraction: n > 0 ? clipped / n : 0,
  };
}

/** World-model scores s_b in (0, 1) for each sequence of the batch (the mask is not used). */
export function worldModelScores(model: Model, batch: SequenceBatch): Float32Array {
  validateSequenceBatch(batch);
  const cache = forward(model, batch.tokens, batch.B, batch.T);
  return scoreHead(model, cache, batch.lengths);
}

/**
 * The world model's losses. 'mse' and 'bce' are both minimised by s = E[y] (failures y = 0, so E[y]
 * = P(run) x E[score given it runs]): 'mse' mean squared error; 'bce' binary cross-entropy with soft
 * targets, whose gradient on the logit is s - y, so it does not fade where the sigmoid saturates on
 * a wrong answer. 'pairwise' is 'mse' plus lambda times a logistic loss on the logit differences of
 * same-task pairs of programs that ran (pairwise-rank-loss.ts); it needs the rows' groups.
 */
export type WorldModelLossKind = 'mse' | 'bce' | 'pairwise';

/** Keeps log finite when a float32 sigmoid rounds to 0 or 1 (the loss value only; the gradient is exact). */
export const BCE_EPS = 1e-7;

/** The world-model loss of the score head against targets in [0, 1]; 'pairwise' needs `ranking`. */
export function worldModelLoss(
  model: Model,
  batch: SequenceBatch,
  targets: ArrayLike<number>,
  withGrads = true,
  kind: WorldModelLossKind = 'mse',
  ranking?: WithinGroupRanking,
): LossResult & { scores: Float32Array } {
  validateSequenceBatch(batch);
  validateWorldModelTargets(targets, batch.B, 'worldModelLoss');
  const cache = forward(model, batch.tokens, batch.B, batch.T);
  const scores = scoreHead(model, cache, batch.lengths);
  if (kind === 'pairwise') {
    if (!ranking) throw new Error("worldModelLoss: the 'pairwise' loss needs each row's group and ran flag (ranking)");
    validateRanking(ranking, batch.B, 'worldModelLoss');
    const terms = pairwiseTerms(scores, scoreHeadLogits(model, cache, batch.lengths), targets, ranking);
    if (!withGrads) return { loss: terms.loss, grads: null, scores };
    const grads = new Float32Array(model.layout.totalLength);
    const dHidden = new Float32Array(cache.hidden.length);
    scoreHeadLogitBackward(model, cache, batch.lengths, terms.dLogits, dHidden, grads);
    backward(model, cache, dHidden, grads);
    return { loss: terms.loss, grads, scores };
  }
  let loss = 0;
  const dScores = new Float32Array(batch.B);
  for (let b = 0; b < batch.B; b++) {
    const s = scores[b];
    const y = targets[b];
    const e = s - y;
    if (kind === 'mse') {
      loss += e * e;
      dScores[b] = (2 * e) / batch.B;
    } else {
      const c = Math.min(Math.max(s, BCE_EPS), 1 - BCE_EPS);
      loss -= y * Math.log(c) + (1 - y) * Math.log(1 - c);
      // dL/ds = e / (s (1 - s)); the head's backward multiplies by s (1 - s) again
      dScores[b] = e / (s * (1 - s)) / batch.B;
    }
  }
  loss /= batch.B;
  if (!withGrads) return { loss, grads: null, scores };
  const grads = new Float32Array(model.layout.totalLength);
  const dHidden = new Float32Array(cache.hidden.length);
  scoreHeadBackward(model, cache, batch.lengths, scores, dScores, dHidden, grads);
  backward(model, cache, dHidden, grads);
  return { loss, grads, scores };
}

/** One target in [0, 1] per row, or a clear error. */
export function validateWorldModelTargets(targets: ArrayLike<number>, B: number, where: string): void {
  if (targets.length !== B) throw new Error(`${where}: ${targets.length} targets for ${B} sequences`);
  for (let b = 0; b < B; b++) {
    if (!(targets[b] >= 0 && targets[b] <= 1)) throw new Error(`${where}: target ${targets[b]} of row ${b} is outside [0, 1]`);
  }
}
