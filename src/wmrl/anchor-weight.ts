// Denoising as the authors built it (their library, wmrl/denoise.py; docs/method.md): one scalar
// weight w on the anchor groups' advantages, after normalisation. World-model groups keep weight 1
// and nothing is renormalised, so a larger w is also a larger step.
//
//   per anchor group   eta^2 = mean(((d - mean d) - (y - mean y))^2) / var(y)
//                      d: calibrated world-model scores, y: real rewards (population variance);
//                      a group whose y do not vary says nothing and is skipped
//   running estimate   D <- (1 - a) D + a eta^2,  a = 1 - 0.5^(1 / halfLife)   (the first group: D = eta^2)
//   scale              after `warmup` groups, c = (target - 1) / D, frozen, so that w = target then
//   weight             w = 1 before c exists, then clip(1 + c D, 1, max)
//
// Freezing c makes w follow how the disagreement moves during the run, not its absolute size.

export interface AnchorWeightConfig {
  /** Half-life of the running disagreement, in anchor groups (authors: 64). */
  halfLife: number;
  /** Anchor groups observed before c is frozen (authors: 32). */
  warmup: number;
  /** The weight at the moment c is frozen (authors: 2). */
  target: number;
  /** Upper clip of the weight (authors: 4). */
  max: number;
}

/** The authors' constants, sized for thousands of steps. */
export const AUTHORS_ANCHOR_WEIGHT: AnchorWeightConfig = { halfLife: 64, warmup: 32, target: 2, max: 4 };

/** Plain-data state, checkpointable. */
export interface AnchorWeightState {
  /** Running disagreement D; null before the first informative anchor group. */
  disagreement: number | null;
  /** Informative anchor groups folded in so far. */
  groups: number;
  /** Frozen scale c; null until warm-up ends. */
  c: number | null;
}

export function initialAnchorWeightState(): AnchorWeightState {
  return { disagreement: null, groups: 0, c: null };
}

/** Below this variance of y a group has no ranking to disagree with. */
export const DEGENERATE_VARIANCE = 1e-9;

export function validateAnchorWeightConfig(c: AnchorWeightConfig): void {
  if (!(c.halfLife > 0)) throw new RangeError(`anchor weight: halfLife must be positive, got ${c.halfLife}`);
  if (!(Number.isInteger(c.warmup) && c.warmup >= 1)) throw new RangeError(`anchor weight: warmup must be a positive integer, got ${c.warmup}`);
  if (!(c.target >= 1)) throw new RangeError(`anchor weight: target must be >= 1, got ${c.target}`);
  if (!(c.max >= c.target)) throw new RangeError(`anchor weight: max (${c.max}) must be >= target (${c.target})`);
}

/** eta^2 of one anchor group, or null when its real rewards do not vary (or it has fewer than 2 programs). */
export function groupDisagreement(d: readonly number[], y: readonly number[]): number | null {
  const n = y.length;
  if (d.length !== n) throw new RangeError(`group disagreement: ${d.length} world-model scores for ${n} real rewards`);
  if (n < 2) return null;
  const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const md = mean(d);
  const my = mean(y);
  let varY = 0;
  let se = 0;
  for (let i = 0; i < n; i++) {
    varY += (y[i] - my) ** 2;
    se += (d[i] - md - (y[i] - my)) ** 2;
  }
  varY /= n;
  if (!(varY >= DEGENERATE_VARIANCE)) return null;
  return se / n / varY;
}

/** Folds one informative group's eta^2 into the running estimate, freezing c when warm-up ends. */
export function observeDisagreement(state: AnchorWeightState, eta2: number, config: AnchorWeightConfig): AnchorWeightState {
  if (!(eta2 >= 0 && Number.isFinite(eta2))) throw new RangeError(`disagreement must be a finite non-negative number, got ${eta2}`);
  const a = 1 - Math.pow(0.5, 1 / Math.max(1, config.halfLife));
  const disagreement = state.disagreement === null ? eta2 : (1 - a) * state.disagreement + a * eta2;
  const groups = state.groups + 1;
  const c = state.c === null && groups >= config.warmup && disagreement > 1e-12 ? (config.target - 1) / disagreement : state.c;
  return { disagreement, groups, c };
}

/** The weight in force: exactly 1 until c is frozen. */
export function anchorWeight(state: AnchorWeightState, config: AnchorWeightConfig): number {
  if (state.c === null || state.disagreement === null) return 1;
  return Math.min(config.max, Math.max(1, 1 + state.c * state.disagreement));
}
