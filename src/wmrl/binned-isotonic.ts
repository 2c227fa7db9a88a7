// Debiasing as the authors built it (their library, wmrl/debias.py; docs/method.md): isotonic
// regression over bins rather than points, with a warm-up and a refit cadence counted in pairs.
//
//   fit        equal-width bins on [0, 1]; per populated bin the mean s, the mean y and the count;
//              pool-adjacent-violators over the bin means weighted by the counts; each populated
//              bin is a knot at its mean s (not its centre), pooled bins keeping their own knots;
//              linear between knots, constant beyond; no fit from fewer than 2 bins
//   schedule   the identity until `minPairs` pairs; then a refit whenever `refitEvery` pairs have
//              arrived since the last fit; a FIFO buffer of at most `cap` pairs, so old pairs age out
//
// Pairs are taken one at a time, so a refit can fall due in the middle of a step's group.

import { knotCalibrator, identityCalibrator, pava, type AnchorCalibrator, type Calibrator } from './isotonic.ts';

export interface BinnedCalibratorConfig {
  /** Equal-width bins over [0, 1] (authors: 10). */
  bins: number;
  /** Identity until this many pairs (authors: 200). */
  minPairs: number;
  /** Refit after this many new pairs (authors: 64). */
  refitEvery: number;
  /** FIFO buffer size (authors: 5,000). */
  cap: number;
}

/** The authors' constants, sized for thousands of steps. */
export const AUTHORS_BINNED: BinnedCalibratorConfig = { bins: 10, minPairs: 200, refitEvery: 64, cap: 5000 };

export function validateBinnedConfig(c: BinnedCalibratorConfig): void {
  for (const [k, v] of Object.entries(c)) if (!(Number.isInteger(v) && v >= 1)) throw new RangeError(`binned calibrator: ${k} must be a positive integer, got ${v}`);
  if (c.bins < 2) throw new RangeError(`binned calibrator: needs at least 2 bins, got ${c.bins}`);
  if (c.cap < c.minPairs) throw new RangeError(`binned calibrator: cap (${c.cap}) is below minPairs (${c.minPairs})`);
}

/** The bin of score x: the count of inner edges k / bins at or below x, clipped to [0, bins - 1]. */
export function binOf(x: number, bins: number): number {
  const width = 1 / bins;
  let b = 0;
  for (let k = 1; k < bins; k++) if (k * width <= x) b = k;
  return b;
}

/** The binned isotonic fit of y on x, or null when fewer than 2 bins are populated (stay where you are). */
export function fitBinnedIsotonic(x: readonly number[], y: readonly number[], bins: number): Calibrator | null {
  if (x.length !== y.length) throw new RangeError(`binned fit: ${x.length} scores but ${y.length} targets`);
  const sx = new Array<number>(bins).fill(0);
  const sy = new Array<number>(bins).fill(0);
  const count = new Array<number>(bins).fill(0);
  x.forEach((v, i) => {
    if (!Number.isFinite(v) || !Number.isFinite(y[i])) throw new RangeError(`binned fit: pair ${i} is not finite (s ${v}, y ${y[i]})`);
    const b = binOf(v, bins);
    sx[b] += v;
    sy[b] += y[i];
    count[b]++;
  });
  const cx: number[] = [];
  const cy: number[] = [];
  const cw: number[] = [];
  for (let b = 0; b < bins; b++) {
    if (count[b] === 0) continue;
    cx.push(sx[b] / count[b]);
    cy.push(sy[b] / count[b]);
    cw.push(count[b]);
  }
  if (cx.length < 2) return null;
  const fy: number[] = [];
  for (const block of pava(cy, cw)) for (let j = block.start; j < block.end; j++) fy.push(block.value);
  return knotCalibrator(cx, fy);
}

/** Plain-data state of a BinnedCalibrator, for checkpoints. */
export interface BinnedCalibratorState {
  kind: 'binned';
  config: BinnedCalibratorConfig;
  s: number[];
  y: number[];
  /** Pairs since the last fit. */
  since: number;
  fits: number;
  knots: { x: number[]; y: number[] } | null;
}

export class BinnedCalibrator implements AnchorCalibrator {
  readonly config: BinnedCalibratorConfig;
  private s: number[] = [];
  private y: number[] = [];
  private since = 0;
  private fits = 0;
  private fitted: Calibrator = identityCalibrator();

  constructor(config: BinnedCalibratorConfig) {
    validateBinnedConfig(config);
    this.config = { ...config };
  }

  learn(s: readonly number[], y: readonly number[], _step: number): void {
    if (s.length !== y.length) throw new RangeError(`learn: ${s.length} scores but ${y.length} targets`);
    for (let i = 0; i < s.length; i++) {
      if (!Number.isFinite(s[i]) || !Number.isFinite(y[i])) throw new RangeError(`learn: pair ${i} is not finite (s ${s[i]}, y ${y[i]})`);
      this.s.push(s[i]);
      this.y.push(y[i]);
      if (this.s.length > this.config.cap) {
        this.s.shift();
        this.y.shift();
      }
      this.since++;
      if (this.s.length >= this.config.minPairs && this.since >= this.config.refitEvery) this.refit();
    }
  }

  /** Refits now; a fit from fewer than 2 populated bins leaves the map (and the count since the last fit) as it was. */
  private refit(): void {
    const f = fitBinnedIsotonic(this.s, this.y, this.config.bins);
    if (f === null) return;
    this.fitted = f;
    this.since = 0;
    this.fits++;
  }

  predict(v: number): number {
    return this.fitted.predict(v);
  }

  get knots(): { readonly x: readonly number[]; readonly y: readonly number[] } {
    return this.fitted.knots;
  }

  get pairCount(): number {
    return this.s.length;
  }

  /** Fits made so far (0: still the identity). */
  get fitCount(): number {
    return this.fits;
  }

  frozen(): Calibrator {
    const { x, y } = this.fitted.knots;
    return x.length === 0 ? identityCalibrator() : knotCalibrator(x, y);
  }

  snapshotState(): BinnedCalibratorState {
    const { x, y } = this.fitted.knots;
    return { kind: 'binned', config: { ...this.config }, s: [...this.s], y: [...this.y], since: this.since, fits: this.fits, knots: x.length === 0 ? null : { x: [...x], y: [...y] } };
  }

  static restore(state: BinnedCalibratorState): BinnedCalibrator {
    const c = new BinnedCalibrator(state.config);
    if (state.s.length !== state.y.length) throw new RangeError('binned calibrator state: array lengths differ');
    c.s = [...state.s];
    c.y = [...state.y];
    c.since = state.since;
    c.fits = state.fits;
    c.fitted = state.knots === null ? identityCalibrator() : knotCalibrator(state.knots.x, state.knots.y);
    return c;
  }
}
