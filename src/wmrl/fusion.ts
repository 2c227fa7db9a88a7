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

export type FusionMode = 'ivw' | 'ppi' | 'none';

/** One group's advantages as the fusion sees them. */
export interface FusionGroup {
  /** World-model advantages (from g(s), or raw s with debiasing off), for every group. */
  wm: readonly number[];
  /** Real advantages (from y), for anchor groups only; null for world-model groups. */
  real: readonly number[] | null;
}

export interface FusionConfig {
  mode: FusionMode;
  /** EMA rate for r and the PPI moments: x <- (1 - rate) x + rate * x_step. Default 0.1. */
  emaRate?: number;
}

export const DEFAULT_EMA_RATE = 0.1;

/** Running state carried between steps (plain data, checkpointable). */
export interface FusionState {
  /** EMA of the mean squared (world-model - real) advantage error on anchor sequences; null before any anchor. */
  r: number | null;
  /** Last stream weights; reused in steps without anchors. Before any anchor: w_A = 0, w_W = 1. */
  wA: number;
  wW: number;
  /** PPI lambda to use at the next step. Starts at 1 (classical PPI). */
  lambda: number;
  /** EMAs of mean A_real * A_wm and mean A_wm^2 over anchor sequences (for lambda); null before any anchor. */
  crossMoment: number | null;
  wmMoment: number | null;
  /** Number of steps that had at least one anchor group. */
  anchorSteps: number;
}

export function initialFusionState(): FusionState {
  return { r: null, wA: 0, wW: 1, lambda: 1, crossMoment: null, wmMoment: null, anchorSteps: 0 };
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

function ema(prev: number | null, value: number, rate: number): number {
  return prev === null ? value : (1 - rate) * prev + rate * value;
}

/** w_A = (1/v_A) / (1/v_A + 1/v_W), computed as v_W / (v_A + v_W) to avoid overflow for tiny variances. */
export function inverseVarianceWeight(vA: number, vW: number): number {
  return vW / (vA + vW);
}

/**
 * Fuses one step. Guards (the paper is silent): a stream variance that is zero or not finite means the
 * step has no usable spread to estimate it from (e.g. every anchor group flat), so the last weights are
 * reused, as in steps without anchors; a step whose groups are all anchors runs on the anchor stream
 * alone (w_A = 1) but does not overwrite the carried weights, which describe the mixed case.
 */
export function fuseStreams(groups: readonly FusionGroup[], state: FusionState, config: FusionConfig): FusionResult {
  const rate = config.emaRate ?? DEFAULT_EMA_RATE;
  if (!(rate > 0 && rate <= 1)) throw new RangeError(`emaRate must lie in (0, 1], got ${rate}`);

  const anchorReal: (readonly number[])[] = [];
  const anchorWm: (readonly number[])[] = [];
  const wmOnly: (readonly number[])[] = [];
  for (const g of groups) {
    for (const v of g.wm) if (!Number.isFinite(v)) throw new RangeError(`world-model advantage ${v} is not finite`);
    if (g.real === null) {
      wmOnly.push(g.wm);
      continue;
    }
    if (g.real.length !== g.wm.length) {
      throw new RangeError(`anchor group has ${g.real.length} real but ${g.wm.length} world-model advantages`);
    }
    for (const v of g.real) if (!Number.isFinite(v)) throw new RangeError(`real advantage ${v} is not finite`);
    anchorReal.push(g.real);
    anchorWm.push(g.wm);
  }
  const kA = anchorReal.length;
  const kW = wmOnly.length;
  const b = kA + kW;

  // Noise r and the PPI moments, from the paired advantages on anchors.
  let r = state.r;
  let crossMoment = state.crossMoment;
  let wmMoment = state.wmMoment;
  let stepError: number | null = null;
  if (kA > 0) {
    let se = 0;
    let cross = 0;
    let sq = 0;
    let n = 0;
    for (let g = 0; g < kA; g++) {
      const real = anchorReal[g];
      const wm = anchorWm[g];
      for (let i = 0; i < real.length; i++) {
        const e = wm[i] - real[i];
        se += e * e;
        cross += real[i] * wm[i];
        sq += wm[i] * wm[i];
        n++;
      }
    }
    if (n > 0) {
      stepError = se / n;
      r = ema(r, stepError, rate);
      crossMoment = ema(crossMoment, cross / n, rate);
      wmMoment = ema(wmMoment, sq / n, rate);
    }
  }

  // Inverse-variance weights.
  let vA: number | null = null;
  let vW: number | null = null;
  let wA = state.wA;
  let wW = state.wW;
  let carriedWA = state.wA;
  let carriedWW = state.wW;
  let weightsReused = true;
  if (kA > 0 && kW === 0) {
    vA = meanSquare(anchorReal) / kA;
    wA = 1;
    wW = 0;
    weightsReused = false;
  } else if (kA > 0 && kW > 0 && r !== null) {
    vA = meanSquare(anchorReal) / kA;
    vW = meanSquare(wmOnly) / kW + r;
    if (vA > 0 && vW > 0 && Number.isFinite(vA) && Number.isFinite(vW)) {
      wA = inverseVarianceWeight(vA, vW);
      wW = 1 - wA;
      carriedWA = wA;
      carriedWW = wW;
      weightsReused = false;
    }
  }

  // Loss coefficients.
  const lambda = state.lambda;
  const coefficients = groups.map((g): number[] => {
    switch (config.mode) {
      case 'none':
        return [...(g.real ?? g.wm)];
      case 'ivw':
        if (g.real !== null) return g.real.map((a) => (b * wA * a) / kA);
        return g.wm.map((a) => (b * wW * a) / kW);
      case 'ppi': {
        if (g.real === null) return g.wm.map((a) => lambda * a);
        const real = g.real;
        return g.wm.map((a, i) => lambda * a + (b / kA) * (real[i] - lambda * a));
      }
    }
  });

  // Next lambda: the variance-minimising coefficient Cov(real, wm) / Var(wm) (advantages are centred
  // per group), clipped to [0, 1]; kept when the world-model advantages have no spread.
  let nextLambda = state.lambda;
  if (crossMoment !== null && wmMoment !== null && wmMoment > 0) {
    nextLambda = Math.min(1, Math.max(0, crossMoment / wmMoment));
  }

  return {
    coefficients,
    state: {
      r,
      wA: carriedWA,
      wW: carriedWW,
      lambda: nextLambda,
      crossMoment,
      wmMoment,
      anchorSteps: state.anchorSteps + (kA > 0 ? 1 : 0),
    },
    diagnostics: { mode: config.mode, anchorGroups: kA, wmGroups: kW, vA, vW, r, stepError, wA, wW, weightsReused, lambda },
  };
}
