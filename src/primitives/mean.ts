// The arithmetic mean, summed left to right: the one helper every layer uses, so that two means of the
// same numbers are the same float wherever they are taken.

/** Mean of `xs`; NaN when empty (callers that want another value for "no data" check the length). */
export function meanOf(xs: readonly number[]): number {
  return xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Mean of `xs`, null when empty: for records where "no data" is written as null. */
export function meanOrNull(xs: readonly number[]): number | null {
  return xs.length === 0 ? null : meanOf(xs);
}
