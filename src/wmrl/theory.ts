// The theory made visible (method.md 4): with world-model rewards the policy gradient carries a bias b
// and extra noise xi. Both are measured online on the anchor groups, where the world-model advantage
// A_wm and the real advantage A_real of the same program are both known; e = A_wm - A_real.
//
// - meanError: mean of e. Advantages are centred per group, so this is ~0 by construction; it is
//   reported because the paper names it, and a non-zero value flags a bookkeeping error.
// - errorRealCorrelation: corr(e, A_real). The gradient bias is E[e * grad log p]; the part of it a
//   reader can see without gradients is the error's alignment with the true signal. Near 0: the error
//   is noise. Negative: the world model flattens or inverts real differences (a bias that steers the
//   policy wrongly).
// - biasSlope: E[e A_real] / E[A_real^2], the regression slope of the error on the real advantage;
//   -1 means the world model carries none of the real signal, 0 means no systematic distortion.
// - noise: r, the EMA of E[e^2]. Fusion keeps it (FusionState.r, fed the same anchor pairs at the
//   same rate); the tracker reads it from there rather than keeping a second copy.
// All are EMAs over steps with anchors (rate as in fusion); moments are uncentred because advantages
// are already centred per group.

import { DEFAULT_EMA_RATE, ema } from './fusion.ts';

export interface BiasNoiseEstimate {
  /** Steps with anchors seen so far. */
  steps: number;
  /** Anchor sequences seen so far. */
  pairs: number;
  meanError: number | null;
  errorRealCorrelation: number | null;
  biasSlope: number | null;
  noise: number | null;
}

/** Plain-data state of a BiasNoiseTracker, for checkpoints. */
export interface BiasNoiseTrackerState {
  rate: number;
  steps: number;
  pairs: number;
  moments: { e: number | null; ea: number | null; aa: number | null };
}

export class BiasNoiseTracker {
  private steps = 0;
  private pairs = 0;
  private mE: number | null = null;
  private mEA: number | null = null;
  private mAA: number | null = null;
  readonly rate: number;

  constructor(rate = DEFAULT_EMA_RATE) {
    if (!(rate > 0 && rate <= 1)) throw new RangeError(`rate must lie in (0, 1], got ${rate}`);
    this.rate = rate;
  }

  /** Adds one step's anchor groups: world-model and real advantages of the same programs. */
  update(wm: readonly (readonly number[])[], real: readonly (readonly number[])[]): void {
    if (wm.length !== real.length) throw new RangeError(`${wm.length} world-model groups but ${real.length} real groups`);
    let se = 0;
    let sea = 0;
    let saa = 0;
    let n = 0;
    for (let g = 0; g < wm.length; g++) {
      if (wm[g].length !== real[g].length) throw new RangeError(`group ${g}: sizes differ`);
      for (let i = 0; i < wm[g].length; i++) {
        const a = real[g][i];
        const e = wm[g][i] - a;
        if (!Number.isFinite(e)) throw new RangeError(`group ${g}: advantage error ${e} is not finite`);
        se += e;
        sea += e * a;
        saa += a * a;
        n++;
      }
    }
    if (n === 0) return;
    this.steps++;
    this.pairs += n;
    this.mE = ema(this.mE, se / n, this.rate);
    this.mEA = ema(this.mEA, sea / n, this.rate);
    this.mAA = ema(this.mAA, saa / n, this.rate);
  }

  snapshotState(): BiasNoiseTrackerState {
    return { rate: this.rate, steps: this.steps, pairs: this.pairs, moments: { e: this.mE, ea: this.mEA, aa: this.mAA } };
  }

  static restore(state: BiasNoiseTrackerState): BiasNoiseTracker {
    const t = new BiasNoiseTracker(state.rate);
    t.steps = state.steps;
    t.pairs = state.pairs;
    t.mE = state.moments.e;
    t.mEA = state.moments.ea;
    t.mAA = state.moments.aa;
    return t;
  }

  /** The estimate, given fusion's r (the EMA of E[e^2] over the same anchor pairs). */
  estimate(r: number | null): BiasNoiseEstimate {
    const { mE, mEA, mAA } = this;
    const mEE = this.steps > 0 ? r : null;
    let corr: number | null = null;
    let slope: number | null = null;
    if (mEA !== null && mEE !== null && mAA !== null) {
      const denom = Math.sqrt(mEE * mAA);
      corr = denom > 0 ? mEA / denom : null;
      slope = mAA > 0 ? mEA / mAA : null;
    }
    return {
      steps: this.steps,
      pairs: this.pairs,
      meanError: mE,
      errorRealCorrelation: corr,
      biasSlope: slope,
      noise: mEE,
    };
  }
}
