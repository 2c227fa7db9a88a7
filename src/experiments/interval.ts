// Mean and a two-sided Student-t confidence interval over seeds: mean +- t_{1-a/2, n-1} s / sqrt(n),
// s the sample standard deviation (n - 1 denominator). The interval assumes the per-seed values are
// independent draws from a roughly normal distribution; with 3 seeds it is wide, and that is the point
// of reporting it. One value gives the mean and no interval (null bounds), not a zero-width one.
import { studentTQuantile } from './student-t.ts';

export interface MeanInterval {
  n: number;
  mean: number;
  /** Sample standard deviation (n - 1 denominator); null for n < 2. */
  sd: number | null;
  /** Half-width of the interval; null for n < 2. */
  halfWidth: number | null;
  low: number | null;
  high: number | null;
  /** Confidence level, e.g. 0.95. */
  level: number;
  /** Which interval: always Student t here, named so tables can say so. */
  method: 'student-t';
}

export function tInterval(values: readonly number[], level = 0.95): MeanInterval {
  if (!(level > 0 && level < 1)) throw new RangeError(`tInterval: level must be in (0, 1), got ${level}`);
  const n = values.length;
  if (n === 0) throw new RangeError('tInterval: no values');
  for (const v of values) if (!Number.isFinite(v)) throw new RangeError(`tInterval: non-finite value ${v}`);
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { n, mean, sd: null, halfWidth: null, low: null, high: null, level, method: 'student-t' };
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const halfWidth = studentTQuantile(1 - (1 - level) / 2, n - 1) * (sd / Math.sqrt(n));
  return { n, mean, sd, halfWidth, low: mean - halfWidth, high: mean + halfWidth, level, method: 'student-t' };
}
