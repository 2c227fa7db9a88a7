// p-values for paired comparisons and the Holm correction across a family of tests (the main table's
// plan: every secondary test of a family is reported with its Holm-adjusted p, docs/results.md).
import { studentTCdf } from './student-t.ts';

/**
 * Two-sided p-value of the one-sample t-test of `values` against the mean `mu0` (for per-seed paired
 * differences, mu0 = 0; for ratios, mu0 = 1). Null for fewer than 2 values; 0 when every value is
 * the same and differs from mu0, 1 when they all equal it.
 */
export function tTestP(values: readonly number[], mu0 = 0): number | null {
  const n = values.length;
  if (n < 2) return null;
  for (const v of values) if (!Number.isFinite(v)) throw new RangeError(`tTestP: non-finite value ${v}`);
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  if (sd === 0) return mean === mu0 ? 1 : 0;
  const t = (mean - mu0) / (sd / Math.sqrt(n));
  return Math.min(1, 2 * (1 - studentTCdf(Math.abs(t), n - 1)));
}

/**
 * Holm's step-down adjustment: the k-th smallest of m p-values is multiplied by (m - k + 1), capped
 * at 1, and made non-decreasing in that order. It controls the familywise error rate at the level
 * the adjusted p is compared with. Null entries (tests without a p) are left out of m and stay null.
 */
export function holmAdjust(ps: readonly (number | null)[]): (number | null)[] {
  const idx = ps.map((p, i) => [p, i] as const).filter((x): x is readonly [number, number] => x[0] !== null);
  for (const [p] of idx) if (!(p >= 0 && p <= 1)) throw new RangeError(`holmAdjust: p ${p} is not in [0, 1]`);
  const order = [...idx].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const m = order.length;
  const out: (number | null)[] = ps.map(() => null);
  let running = 0;
  order.forEach(([p, i], k) => {
    running = Math.max(running, Math.min(1, (m - k) * p));
    out[i] = running;
  });
  return out;
}
