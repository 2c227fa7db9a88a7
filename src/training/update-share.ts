// How much of an update the anchor groups carry, whatever rule weighed them (ivw, PPI, the authors'
// anchor weight): the sum of |loss coefficient| over anchor groups' sequences over the sum over all.
// w_A alone misses a calibrator that flattens the world model's advantages (their coefficients go
// to 0), and the authors' rule has no w_A at all.

/** Over the given groups (one step's, or a whole run's); null when every coefficient is 0. */
export function anchorUpdateShare(groups: readonly { anchor: boolean; coefficients: readonly number[] }[]): number | null {
  let anchors = 0;
  let all = 0;
  for (const g of groups) {
    const c = g.coefficients.reduce((a, x) => a + Math.abs(x), 0);
    all += c;
    if (g.anchor) anchors += c;
  }
  return all > 0 ? anchors / all : null;
}
