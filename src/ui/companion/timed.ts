// Runs a computation and measures it, so each figure can say how long its recomputation took here.
export function timed<T>(fn: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t0 };
}
