// Scales and ticks for the companion's SVG charts: small, dependency-free, pure.

export type Domain = readonly [number, number];

/** Maps [d0, d1] onto [r0, r1] linearly; a zero-width domain maps to the middle of the range. */
export function linearScale(domain: Domain, range: Domain): (v: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  if (span === 0) return () => (r0 + r1) / 2;
  return (v: number) => r0 + ((v - d0) / span) * (r1 - r0);
}

/** Min and max of the finite values, or null when there are none. */
export function extent(values: Iterable<number>): Domain | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : null;
}

function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / mag;
  const nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
  return nice * mag;
}

/**
 * About `count` round tick values covering [lo, hi] (multiples of 1, 2, 2.5 or 5 times a power of
 * ten), all inside [lo, hi] up to rounding.
 */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) return [lo];
  const step = niceStep(hi - lo, count);
  const first = Math.ceil(lo / step - 1e-9);
  const last = Math.floor(hi / step + 1e-9);
  const out: number[] = [];
  for (let k = first; k <= last; k++) out.push(Number((k * step).toPrecision(12)));
  return out;
}

/** Widens a domain to round numbers and gives it some width when it has none; always contains d. */
export function niceDomain(d: Domain, count = 5): Domain {
  const [lo0, hi0] = d;
  let lo = lo0;
  let hi = hi0;
  // A width below float resolution at this magnitude has no usable tick step: treat it as a point.
  if (hi - lo <= 1e-12 * Math.max(1, Math.abs(lo), Math.abs(hi))) {
    const pad = Math.abs(lo) > 1e-9 ? Math.abs(lo) * 0.1 : 1;
    lo -= pad;
    hi += pad;
  }
  const step = niceStep(hi - lo, count);
  // Rounding to the step may land a hair inside the data: never return less than the input.
  return [Math.min(lo0, Math.floor(lo / step + 1e-9) * step), Math.max(hi0, Math.ceil(hi / step - 1e-9) * step)];
}

/** Short tick label: integers from 100 up, else 3 significant digits; exponent form for tiny or huge values. */
export function formatTick(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6 || a < 1e-3) return v.toExponential(1);
  if (a >= 100) return String(Math.round(v));
  return String(Number(v.toPrecision(3)));
}

/** Formats a number for readouts, '–' for missing. */
export function fmt(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return v.toFixed(digits);
}
