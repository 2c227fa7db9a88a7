// Debiasing (method.md 3.3): isotonic regression of real scores y on world-model scores s, fitted by
// pool-adjacent-violators, predicted by linear interpolation between block centres.

/** A monotone map from world-model score to calibrated score. */
export interface Calibrator {
  /** Calibrated score g(s): non-decreasing in s, constant beyond the outermost knots. */
  predict(s: number): number;
  /** Block centres (weighted mean s) and values (weighted mean y), x strictly increasing. */
  readonly knots: { readonly x: readonly number[]; readonly y: readonly number[] };
}

/** One pooled block of consecutive points. */
export interface PavaBlock {
  /** Index of the first and one past the last point of the block, in the input order of `pava`. */
  start: number;
  end: number;
  /** Total weight, weighted mean of the values. */
  weight: number;
  value: number;
}

/**
 * Pool-adjacent-violators on values already ordered by their x: returns consecutive blocks whose
 * values are non-decreasing and which minimise sum_i w_i (fit_i - v_i)^2. O(n) amortised. Points of
 * zero weight belong to a block but do not move its value; all weights must be >= 0 with a positive
 * total.
 */
export function pava(values: readonly number[], weights: readonly number[]): PavaBlock[] {
  const blocks: PavaBlock[] = [];
  for (let i = 0; i < values.length; i++) {
    let cur: PavaBlock = { start: i, end: i + 1, weight: weights[i], value: values[i] };
    // Merge backwards while the previous block is above (a violation). Equal values stay separate:
    // they are already monotone and keep more knots for the interpolation.
    while (blocks.length > 0) {
      const prev = blocks[blocks.length - 1];
      if (!(prev.value > cur.value)) break;
      blocks.pop();
      const w = prev.weight + cur.weight;
      const value = w > 0 ? (prev.weight * prev.value + cur.weight * cur.value) / w : Math.max(prev.value, cur.value);
      cur = { start: prev.start, end: cur.end, weight: w, value };
    }
    blocks.push(cur);
  }
  return blocks;
}

/** Piecewise-linear monotone interpolation through knots; the identity when there are none. */
class KnotCalibrator implements Calibrator {
  readonly knots: { readonly x: readonly number[]; readonly y: readonly number[] };

  constructor(x: number[], y: number[]) {
    this.knots = { x, y };
  }

  predict(s: number): number {
    const { x, y } = this.knots;
    const k = x.length;
    if (k === 0) return s;
    if (Number.isNaN(s)) return Number.NaN;
    if (s <= x[0]) return y[0];
    if (s >= x[k - 1]) return y[k - 1];
    // Binary search for the segment x[lo] <= s < x[hi].
    let lo = 0;
    let hi = k - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (x[mid] <= s) lo = mid;
      else hi = mid;
    }
    const t = (s - x[lo]) / (x[hi] - x[lo]);
    return y[lo] + t * (y[hi] - y[lo]);
  }
}

/** The identity calibrator, g(s) = s: what the method uses before any anchor pair exists. */
export function identityCalibrator(): Calibrator {
  return new KnotCalibrator([], []);
}

/** A calibrator through given knots (x strictly increasing), constant beyond the outermost ones. */
export function knotCalibrator(x: readonly number[], y: readonly number[]): Calibrator {
  if (x.length !== y.length) throw new RangeError(`knots: ${x.length} x but ${y.length} y`);
  for (let i = 1; i < x.length; i++) if (!(x[i] > x[i - 1])) throw new RangeError('knots: x must be strictly increasing');
  return new KnotCalibrator([...x], [...y]);
}

/**
 * What the method needs of an online calibrator, whichever rule it follows: learn a step's anchor
 * pairs (refitting on its own schedule), hand out a frozen copy of the current fit, and checkpoint.
 */
export interface AnchorCalibrator extends Calibrator {
  /** Adds the pairs observed at `step` and refits when its rule says so. */
  learn(s: readonly number[], y: readonly number[], step: number): void;
  frozen(): Calibrator;
  /** Anchor pairs held (fitted or not). */
  readonly pairCount: number;
}

/**
 * The pairs `order` names, sorted by x (then y, so that ties pool identically whatever the input
 * order), with equal x pooled into one point: weighted-mean y, summed weight (weights 1 when w is absent).
 */
export function poolTies(order: readonly number[], x: readonly number[], y: readonly number[], w?: readonly number[]): { x: number[]; y: number[]; w: number[] } {
  const weightOf = (i: number): number => (w === undefined ? 1 : w[i]);
  const sorted = [...order].sort((a, b) => x[a] - x[b] || y[a] - y[b]);
  const px: number[] = [];
  const py: number[] = [];
  const pw: number[] = [];
  for (const i of sorted) {
    const wi = weightOf(i);
    const last = px.length - 1;
    if (last >= 0 && px[last] === x[i]) {
      const tw = pw[last] + wi;
      py[last] = (pw[last] * py[last] + wi * y[i]) / tw;
      pw[last] = tw;
    } else {
      px.push(x[i]);
      py.push(y[i]);
      pw.push(wi);
    }
  }
  return { x: px, y: py, w: pw };
}

/**
 * Weighted isotonic regression of y on x. Sorts by x (O(n log n)), pools equal x into one point first
 * (weighted mean y, summed weight), runs PAVA, and returns a calibrator whose knots are the block
 * centres: weighted mean x and weighted mean y of each block. Pairs of zero weight are ignored; with
 * no pair of positive weight the result is the identity.
 */
export function fitIsotonic(x: readonly number[], y: readonly number[], w?: readonly number[]): Calibrator {
  const n = x.length;
  if (y.length !== n || (w !== undefined && w.length !== n)) {
    throw new RangeError(`fitIsotonic: lengths differ (x ${n}, y ${y.length}, w ${w?.length ?? 'none'})`);
  }
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    const wi = w === undefined ? 1 : w[i];
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i]) || !Number.isFinite(wi) || wi < 0) {
      throw new RangeError(`fitIsotonic: pair ${i} is invalid (x ${x[i]}, y ${y[i]}, w ${wi})`);
    }
    if (wi > 0) order.push(i);
  }
  if (order.length === 0) return identityCalibrator();
  const { x: px, y: py, w: pw } = poolTies(order, x, y, w);

  const blocks = pava(py, pw);
  const kx: number[] = [];
  const ky: number[] = [];
  const kw: number[] = [];
  for (const b of blocks) {
    let sx = 0;
    for (let j = b.start; j < b.end; j++) sx += pw[j] * px[j];
    // Clamp into the block's own range: rounding must not push a centre past its neighbours.
    const cx = Math.min(px[b.end - 1], Math.max(px[b.start], sx / b.weight));
    const last = kx.length - 1;
    if (last >= 0 && !(cx > kx[last])) {
      // Centres that round to the same float (only for x a few ulps apart) merge into one knot so
      // knot x stays strictly increasing; the merged value lies between the two, so y stays monotone.
      const tw = kw[last] + b.weight;
      // Both merged centres exceed the knot before them; so must their mean, whatever the rounding.
      const lo = Math.min(kx[last], cx);
      kx[last] = Math.max(lo, (kw[last] * kx[last] + b.weight * cx) / tw);
      ky[last] = (kw[last] * ky[last] + b.weight * b.value) / tw;
      kw[last] = tw;
      continue;
    }
    kx.push(cx);
    ky.push(b.value);
    kw.push(b.weight);
  }
  return new KnotCalibrator(kx, ky);
}

/** Options of the online calibrator. */
export interface OnlineCalibratorOptions {
  /**
   * Age, in steps, at which a pair's weight halves (weight = 0.5^(age / halfLife)), so the fit follows
   * the policy's drift. Undefined or Infinity: every pair weighs the same.
   */
  halfLife?: number;
}

/** Plain-data state of an OnlineCalibrator, for checkpoints (halfLife null: no age weighting). */
export interface OnlineCalibratorState {
  /** Absent in states written before the binned calibrator existed. */
  kind?: 'pava';
  halfLife: number | null;
  s: number[];
  y: number[];
  observedAt: number[];
  fittedAt: number | null;
}

/**
 * The online isotonic calibrator of the method: accumulates anchor pairs (s, y) with the step they
 * were observed at and refits on all of them, age-weighted, whenever `refit(step)` is called (every
 * step). Before any pair it is the identity.
 */
export class OnlineCalibrator implements AnchorCalibrator {
  private readonly s: number[] = [];
  private readonly y: number[] = [];
  private readonly observedAt: number[] = [];
  private fitted: Calibrator = identityCalibrator();
  private fittedAt: number | null = null;
  readonly halfLife: number;

  constructor(options: OnlineCalibratorOptions = {}) {
    const h = options.halfLife ?? Infinity;
    if (!(h > 0)) throw new RangeError(`halfLife must be positive, got ${h}`);
    this.halfLife = h;
  }

  /** Adds anchor pairs observed at `step`. Takes effect at the next `refit`. */
  add(s: readonly number[], y: readonly number[], step: number): void {
    if (s.length !== y.length) throw new RangeError(`add: ${s.length} scores but ${y.length} targets`);
    if (!Number.isFinite(step)) throw new RangeError(`add: step must be finite, got ${step}`);
    for (let i = 0; i < s.length; i++) {
      if (!Number.isFinite(s[i]) || !Number.isFinite(y[i])) {
        throw new RangeError(`add: pair ${i} is not finite (s ${s[i]}, y ${y[i]})`);
      }
      this.s.push(s[i]);
      this.y.push(y[i]);
      this.observedAt.push(step);
    }
  }

  /** Our rule: refit on every pair at every step, from the first pair on. */
  learn(s: readonly number[], y: readonly number[], step: number): void {
    if (s.length > 0) this.add(s, y, step);
    this.refit(step);
  }

  /** Weight of a pair observed at `observed` when fitting at `step`. */
  weightAt(observed: number, step: number): number {
    if (this.halfLife === Infinity) return 1;
    return Math.pow(0.5, (step - observed) / this.halfLife);
  }

  /** Refits on every pair so far, weighting by age relative to `step`. */
  refit(step: number): void {
    const w = this.observedAt.map((o) => {
      if (o > step) throw new RangeError(`refit at step ${step} but a pair was observed at step ${o}`);
      return this.weightAt(o, step);
    });
    this.fitted = fitIsotonic(this.s, this.y, w);
    this.fittedAt = step;
  }

  predict(s: number): number {
    return this.fitted.predict(s);
  }

  get knots(): { readonly x: readonly number[]; readonly y: readonly number[] } {
    return this.fitted.knots;
  }

  /** Number of anchor pairs accumulated (fitted or not). */
  get pairCount(): number {
    return this.s.length;
  }

  /** Step of the last refit, or null before the first. */
  get lastRefitStep(): number | null {
    return this.fittedAt;
  }

  /** Plain-data state (JSON-safe) from which `restore` rebuilds an identical calibrator. */
  snapshotState(): OnlineCalibratorState {
    return {
      halfLife: this.halfLife === Infinity ? null : this.halfLife,
      s: [...this.s],
      y: [...this.y],
      observedAt: [...this.observedAt],
      fittedAt: this.fittedAt,
    };
  }

  static restore(state: OnlineCalibratorState): OnlineCalibrator {
    const c = new OnlineCalibrator({ halfLife: state.halfLife ?? Infinity });
    const n = state.s.length;
    if (state.y.length !== n || state.observedAt.length !== n) throw new RangeError('calibrator state: array lengths differ');
    c.s.push(...state.s);
    c.y.push(...state.y);
    c.observedAt.push(...state.observedAt);
    if (state.fittedAt !== null) c.refit(state.fittedAt);
    return c;
  }

  /** A frozen copy of the current fit, safe to hand to a pure function. */
  frozen(): Calibrator {
    const { x, y } = this.fitted.knots;
    return x.length === 0 ? identityCalibrator() : new KnotCalibrator([...x], [...y]);
  }
}
