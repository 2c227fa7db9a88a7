// Denoising (method.md 3.7): fuse the anchor stream (real advantages, unbiased, few groups) and the
// world-model stream (calibrated advantages, many groups, carries the world model's error). The policy
// gradient is linear in the advantages, so fusing gradients is weighting loss terms: the output is one
// loss coefficient per sequence, and the trainer builds L = -sum_i coeff_i * sum_tokens logp_i / Z.
//
// Scale: every mode is expressed on the scale of plain GRPO over all B groups (coeff_i = A_i), so
// modes can be swapped without retuning the learning rate.
// - 'none': coeff_i = A_i for every group (real advantages on anchors, calibrated elsewhere).
// - 'ivw':  the fused estimate B * (w_A * mean over anchor groups + w_W * mean over world-model groups):
//           coeff_i = B * w_A / K_A * A_real_i on anchors, B * w_W / K_W * A_wm_i elsewhere.
// - 'ppi':  PPI++: B * (lambda * mean over all groups of the world-model term
//           + mean over anchor groups of (real term - lambda * world-model term)), unbiased for any
//           lambda that does not depend on this step's anchors.
// - 'anchor-weight': the authors' rule (anchor-weight.ts): coeff_i = w * A_real_i on anchors and
//           A_wm_i elsewhere, w >= 1 from the running disagreement; not renormalised, so it is not on
//           GRPO's scale once w > 1 (their choice: a larger weight is also a larger step).

import { anchorWeight, initialAnchorWeightState, observeDisagreement, validateAnchorWeightConfig, type AnchorWeightConfig, type AnchorWeightState } from './anchor-weight.ts';

export type FusionMode = 'ivw' | 'ppi' | 'none' | 'anchor-weight';

/** One group's advantages as the fusion sees them. */
export interface FusionGroup {
  /** World-model advantages (from g(s), or raw s with debiasing off), for every group. */
  wm: readonly number[];
  /** Real advantages (from y), for anchor groups only; null for world-model groups. */
  real: readonly number[] | null;
  /** 'anchor-weight' only: the anchor group's disagreement eta^2 (null: its y do not vary). */
  disagreement?: number | null;
}

export interface FusionConfig {
  mode: FusionMode;
  /** EMA rate for r and the PPI moments: x <- (1 - rate) x + rate * x_step. Default 0.1. */
  emaRate?: number;
  /** The anchor weight's constants; required by 'anchor-weight'. */
  anchorWeight?: AnchorWeightConfig;
}

export const DEFAULT_EMA_RATE = 0.1;

/** Running state carried between steps (plain data, checkpointable). */
export interface FusionState {
  /** EMA of the mean squared (world-model - real) advantage error on anchor sequences; null before any anchor. */
  r: number | null;
  /** Weights carried to steps that cannot estimate their own (no anchors, or no spread). Before any anchor: w_A = 0, w_W = 1. */
  wA: number;
  wW: number;
  /** PPI lambda to use at the next step. Starts at 1 (classical PPI). */
  lambda: number;
  /** EMAs of mean A_real * A_wm and mean A_wm^2 over anchor sequences (for lambda); null before any anchor. */
  crossMoment: number | null;
  wmMoment: number | null;
  /** 'anchor-weight' only: the running disagreement and frozen scale (absent in the other modes). */
  anchorWeight?: AnchorWeightState;
}

export function initialFusionState(): FusionState {
  return { r: null, wA: 0, wW: 1, lambda: 1, crossMoment: null, wmMoment: null };
}

/** Per-step numbers for the UI. */
export interface FusionDiagnostics {
  mode: FusionMode;
  anchorGroups: number;
  wmGroups: number;
  /** Variance proxies of the two streams' means; null when the step cannot estimate them. */
  vA: number | null;
  vW: number | null;
  /** Noise estimate after this step's update. */
  r: number | null;
  /** This step's mean squared advantage error on anchors; null without anchors. */
  stepError: number | null;
  /** Inverse-variance weights in force this step (computed in every mode, used by 'ivw'). */
  wA: number;
  wW: number;
  /** True when the weights were carried over from an earlier step (no usable estimate this step). */
  weightsReused: boolean;
  /** The PPI lambda used this step. */
  lambda: number;
  /** 'anchor-weight' only: the weight on anchor advantages this step. */
  anchorWeight?: number;
}

export interface FusionResult {
  /** coefficients[g][i]: loss coefficient of sequence i of group g. */
  coefficients: number[][];
  state: FusionState;
  diagnostics: FusionDiagnostics;
}

function meanSquare(groups: readonly (readonly number[])[]): number {
  let ss = 0;
  let n = 0;
  for (const g of groups) for (const v of g) {
    ss += v * v;
    n++;
  }
  return n === 0 ? 0 : ss / n;
}

/** One exponential moving average step; the first value starts it. */
export function ema(prev: number | null, value: number, rate: number): number {
  return prev === null ? value : (1 - rate) * prev + rate * value;
}

/** w_A = (1/v_A) / (1/v_A + 1/v_W), computed as v_W / (v_A + v_W) to avoid overflow for tiny variances. */
export function inverseVarianceWeight(vA: number, vW: number): number {
  return vW / (vA + vW);
}

/** The step's groups split into the two streams, checked. */
interface Streams {
  anchorReal: (readonly number[])[];
  anchorWm: (readonly number[])[];
  wmOnly: (readonly number[])[];
}

function splitStreams(groups: readonly FusionGroup[]): Streams {
  const out: Streams = { anchorReal: [], anchorWm: [], wmOnly: [] };
  for (const g of groups) {
    for (const v of g.wm) if (!Number.isFinite(v)) throw new RangeError(`world-model advantage ${v} is not finite`);
    if (g.real === null) {
      out.wmOnly.push(g.wm);
      continue;
    }
    if (g.real.length !== g.wm.length) throw new RangeError(`anchor group has ${g.real.length} real but ${g.wm.length} world-model advantages`);
    for (const v of g.real) if (!Number.isFinite(v)) throw new RangeError(`real advantage ${v} is not finite`);
    out.anchorReal.push(g.real);
    out.anchorWm.push(g.wm);
  }
  return out;
}

/** The noise estimate: what the anchors say of the world model's advantage error this step, folded into EMAs. */
export interface NoiseEstimate {
  r: number | null;
  crossMoment: number | null;
  wmMoment: number | null;
  /** This step's mean squared error on anchor sequences; null without anchors. */
  stepError: number | null;
}

export function estimateNoise(anchorReal: readonly (readonly number[])[], anchorWm: readonly (readonly number[])[], state: FusionState, rate: number): NoiseEstimate {
  let se = 0;
  let cross = 0;
  let sq = 0;
  let n = 0;
  anchorReal.forEach((real, g) => {
    const wm = anchorWm[g];
    for (let i = 0; i < real.length; i++) {
      const e = wm[i] - real[i];
      se += e * e;
      cross += real[i] * wm[i];
      sq += wm[i] * wm[i];
      n++;
    }
  });
  if (n === 0) return { r: state.r, crossMoment: state.crossMoment, wmMoment: state.wmMoment, stepError: null };
  return { r: ema(state.r, se / n, rate), crossMoment: ema(state.crossMoment, cross / n, rate), wmMoment: ema(state.wmMoment, sq / n, rate), stepError: se / n };
}

/** The stream weights in force this step, and the ones to carry to the next. */
export interface StreamWeights {
  vA: number | null;
  vW: number | null;
  wA: number;
  wW: number;
  /** carried to the next step (a step of anchors only does not describe the mixed case, so it carries the old ones) */
  carry: { wA: number; wW: number };
  /** no usable estimate this step: the carried weights are in force */
  reused: boolean;
}

/**
 * Inverse-variance weights. Guards (the paper is silent): a stream variance that is zero or not
 * finite means the step has no usable spread to estimate it from (e.g. every anchor group flat), so
 * the carried weights stay in force, as in steps without anchors; a step whose groups are all anchors
 * runs on the anchor stream alone (w_A = 1) but carries the old weights on.
 */
export function streamWeights(streams: Streams, r: number | null, carried: { wA: number; wW: number }): StreamWeights {
  const kA = streams.anchorReal.length;
  const kW = streams.wmOnly.length;
  const reuse: StreamWeights = { vA: null, vW: null, wA: carried.wA, wW: carried.wW, carry: carried, reused: true };
  if (kA === 0) return reuse;
  const vA = meanSquare(streams.anchorReal) / kA;
  if (kW === 0) return { vA, vW: null, wA: 1, wW: 0, carry: carried, reused: false };
  if (r === null) return reuse;
  const vW = meanSquare(streams.wmOnly) / kW + r;
  if (!(vA > 0 && vW > 0 && Number.isFinite(vA) && Number.isFinite(vW))) return { ...reuse, vA, vW };
  const wA = inverseVarianceWeight(vA, vW);
  return { vA, vW, wA, wW: 1 - wA, carry: { wA, wW: 1 - wA }, reused: false };
}

/** Per-sequence loss coefficients of each mode, on the scale of plain GRPO over all B groups. */
export function lossCoefficients(groups: readonly FusionGroup[], mode: FusionMode, w: { wA: number; wW: number }, lambda: number, anchorW = 1): number[][] {
  const kA = groups.filter((g) => g.real !== null).length;
  const kW = groups.length - kA;
  const b = groups.length;
  return groups.map((g): number[] => {
    switch (mode) {
      case 'none':
        return [...(g.real ?? g.wm)];
      case 'anchor-weight':
        return g.real === null ? [...g.wm] : g.real.map((a) => anchorW * a);
      case 'ivw':
        if (g.real !== null) return g.real.map((a) => (b * w.wA * a) / kA);
        return g.wm.map((a) => (b * w.wW * a) / kW);
      case 'ppi': {
        if (g.real === null) return g.wm.map((a) => lambda * a);
        const real = g.real;
        return g.wm.map((a, i) => lambda * a + (b / kA) * (real[i] - lambda * a));
      }
    }
  });
}

/**
 * The PPI lambda for the next step: the variance-minimising Cov(real, wm) / Var(wm) (advantages are
 * centred per group), clipped to [0, 1]; kept when the world-model advantages have no spread.
 */
export function nextLambda(noise: NoiseEstimate, lambda: number): number {
  if (noise.crossMoment === null || noise.wmMoment === null || !(noise.wmMoment > 0)) return lambda;
  return Math.min(1, Math.max(0, noise.crossMoment / noise.wmMoment));
}

/** Fuses one step: noise estimate, stream weights, loss coefficients, and the state for the next step. */
export function fuseStreams(groups: readonly FusionGroup[], state: FusionState, config: FusionConfig): FusionResult {
  const rate = config.emaRate ?? DEFAULT_EMA_RATE;
  if (!(rate > 0 && rate <= 1)) throw new RangeError(`emaRate must lie in (0, 1], got ${rate}`);
  const streams = splitStreams(groups);
  const noise = estimateNoise(streams.anchorReal, streams.anchorWm, state, rate);
  const w = streamWeights(streams, noise.r, { wA: state.wA, wW: state.wW });
  const weighted = config.mode === 'anchor-weight' ? foldAnchorWeight(groups, state, config) : null;
  return {
    coefficients: lossCoefficients(groups, config.mode, w, state.lambda, weighted?.weight),
    state: {
      r: noise.r, wA: w.carry.wA, wW: w.carry.wW, lambda: nextLambda(noise, state.lambda), crossMoment: noise.crossMoment, wmMoment: noise.wmMoment,
      ...(weighted ? { anchorWeight: weighted.state } : {}),
    },
    diagnostics: {
      mode: config.mode,
      anchorGroups: streams.anchorReal.length,
      wmGroups: streams.wmOnly.length,
      vA: w.vA,
      vW: w.vW,
      r: noise.r,
      stepError: noise.stepError,
      wA: w.wA,
      wW: w.wW,
      weightsReused: w.reused,
      lambda: state.lambda,
      ...(weighted ? { anchorWeight: weighted.weight } : {}),
    },
  };
}

/** 'anchor-weight': this step's informative anchor groups join the running disagreement, in group order, and give the weight in force. */
function foldAnchorWeight(groups: readonly FusionGroup[], state: FusionState, config: FusionConfig): { state: AnchorWeightState; weight: number } {
  const aw = config.anchorWeight;
  if (!aw) throw new RangeError("fusion 'anchor-weight' needs its anchorWeight constants");
  validateAnchorWeightConfig(aw);
  let next = state.anchorWeight ?? initialAnchorWeightState();
  for (const g of groups) {
    if (g.real === null) continue;
    if (g.disagreement === undefined) throw new RangeError("fusion 'anchor-weight': an anchor group has no disagreement");
    if (g.disagreement !== null) next = observeDisagreement(next, g.disagreement, aw);
  }
  return { state: next, weight: anchorWeight(next, aw) };
}
