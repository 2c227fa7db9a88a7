// The median, for timings and shares quoted as medians (noisy machines: a median resists the one slow run).

/** Median of `xs` (the mean of the middle two for an even count); NaN when empty. */
export function medianOf(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
