// Student's t distribution: CDF and quantile for any positive degrees of freedom, so the interval
// over seeds uses the exact t quantile for n - 1 dof (n = 3 seeds gives 4.303, not the normal 1.96).
// The CDF goes through the regularized incomplete beta function (continued fraction, modified
// Lentz); the quantile inverts it by bisection, which is slow but exact to double precision and has
// no convergence caveats. Nothing here is on a hot path: a table has a few dozen intervals.

/** log Gamma(x) for x > 0 (Lanczos approximation, g = 7, 9 terms; ~1e-15 relative). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma: x must be positive, got ${x}`);
  if (x < 0.5) {
    // Reflection keeps the series in its accurate range.
    return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  }
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const z = x - 1;
  let sum = c[0];
  for (let i = 1; i < c.length; i++) sum += c[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Continued fraction of the incomplete beta function (modified Lentz), valid for x < (a + 1) / (a + b + 2). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    // even step
    let num = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    // odd step
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) return h;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b), a, b > 0, x in [0, 1]. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`incompleteBeta: a and b must be positive, got ${a}, ${b}`);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`incompleteBeta: x must be in [0, 1], got ${x}`);
  if (x === 0 || x === 1) return x;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // Use the fraction where it converges fast; the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) elsewhere.
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

function assertDf(df: number): void {
  if (!(df > 0 && Number.isFinite(df))) throw new RangeError(`Student t: degrees of freedom must be positive and finite, got ${df}`);
}

/** P(T <= t) for T ~ Student t with df degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  assertDf(df);
  if (Number.isNaN(t)) return Number.NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The p-quantile of Student's t with df degrees of freedom (p in (0, 1)). */
export function studentTQuantile(p: number, df: number): number {
  assertDf(df);
  if (!(p > 0 && p < 1)) throw new RangeError(`studentTQuantile: p must be in (0, 1), got ${p}`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  // Bracket [0, hi] with F(hi) >= p, then bisect to the last representable step.
  let lo = 0;
  let hi = 1;
  while (studentTCdf(hi, df) < p) {
    lo = hi;
    hi *= 2;
    if (!Number.isFinite(hi)) return Infinity;
  }
  for (let i = 0; i < 200; i++) {
    const mid = 0.5 * (lo + hi);
    if (mid === lo || mid === hi) break;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}
