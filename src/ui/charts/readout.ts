// What a chart's hover readout shows: at the pointer's x, each line's nearest point by x; for a
// scatter series, its point nearest the pointer on screen, if one is close enough.

export interface ReadoutRow {
  label: string;
  color: string;
  x: number;
  y: number;
}

type Point = readonly [number, number];

/** The point of `points` (finite ones only) whose x is nearest `x`; null when there is none. */
export function nearestByX(points: readonly Point[], x: number): Point | null {
  let best: Point | null = null;
  for (const p of points) {
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) continue;
    if (best === null || Math.abs(p[0] - x) < Math.abs(best[0] - x)) best = p;
  }
  return best;
}

/**
 * The readout at data-space x. `toScreen` maps a point to screen units, `pointer` is the pointer
 * there; a scatter point counts only within `radius` of it.
 */
export function readoutAt(
  series: readonly { label: string; color: string; points: readonly Point[]; kind?: 'line' | 'step' | 'scatter' }[],
  x: number,
  pointer: Point,
  toScreen: (p: Point) => Point,
  radius = 14,
): ReadoutRow[] {
  const rows: ReadoutRow[] = [];
  for (const s of series) {
    if (s.kind === 'scatter') {
      let best: Point | null = null;
      let bestD = radius;
      for (const p of s.points) {
        if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) continue;
        const q = toScreen(p);
        const d = Math.hypot(q[0] - pointer[0], q[1] - pointer[1]);
        if (d <= bestD) {
          best = p;
          bestD = d;
        }
      }
      if (best) rows.push({ label: s.label, color: s.color, x: best[0], y: best[1] });
      continue;
    }
    const p = nearestByX(s.points, x);
    if (p) rows.push({ label: s.label, color: s.color, x: p[0], y: p[1] });
  }
  return rows;
}

/** Ticks for an axis whose values are all integers (steps): only integer ticks, at least every one. */
export function integerTicks(ticks: readonly number[], lo: number, hi: number): number[] {
  const ints = ticks.filter(Number.isInteger);
  if (ints.length >= 2) return ints;
  const out: number[] = [];
  for (let t = Math.ceil(lo); t <= Math.floor(hi); t++) out.push(t);
  return out;
}
