// The smallest true paired difference a test over n seeds detects with the given power: the plan's
// formula (docs/results.md), (t(1 - alpha/2, n - 1) + t(power, n - 1)) x SD / sqrt(n), the usual
// approximation for a two-sided paired t-test. A difference below it will most likely read "undecided".
import { studentTQuantile } from './student-t.ts';

export function minimumDetectableDifference(sd: number, n: number, alpha = 0.05, power = 0.8): number {
  if (!(sd >= 0) || !Number.isFinite(sd)) throw new RangeError(`minimumDetectableDifference: sd must be finite and >= 0, got ${sd}`);
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`minimumDetectableDifference: n must be an integer >= 2, got ${n}`);
  if (!(alpha > 0 && alpha < 1) || !(power > 0.5 && power < 1)) throw new RangeError('minimumDetectableDifference: alpha in (0, 1), power in (0.5, 1)');
  return (studentTQuantile(1 - alpha / 2, n - 1) + studentTQuantile(power, n - 1)) * sd / Math.sqrt(n);
}
