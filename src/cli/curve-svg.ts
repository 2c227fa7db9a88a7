// The paper's headline picture as a standalone SVG file (results/<name>/curve.svg), for readers of
// the docs on a code host: held-out score against cumulative training busy time, per preset, the
// mean over seeds as a solid line with dots and the 95% interval of the score as a shaded band (cut at 0 and 100). The
// companion draws the same rows live (our-results.ts); this is the static copy the runner writes.
import type { CurveRow } from '../experiments/aggregate.ts';
import { presetColors } from '../ui/charts/palette.ts';
import { formatTick, linearScale, niceDomain, niceTicks } from '../ui/charts/scale.ts';

const W = 640;
/** The plot's own height; the legend's rows sit above it and grow the picture, never overlap it. */
const PLOT_H = 278;
const LEGEND_PER_ROW = 2;
const LEGEND_COL = 290;
const LEGEND_ROW = 16;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const num = (v: number) => v.toFixed(1);

export function curveSvg(rows: readonly CurveRow[], title: string): string {
  const presets = [...new Set(rows.map((r) => r.preset))];
  const legendRows = Math.max(1, Math.ceil(presets.length / LEGEND_PER_ROW));
  const M = { top: 18 + LEGEND_ROW * legendRows, right: 16, bottom: 48, left: 56 };
  const H = M.top + PLOT_H + M.bottom;
  const xs = rows.map((r) => r.busySeconds.mean);
  const xd = niceDomain([Math.min(0, ...xs), Math.max(1, ...xs)]);
  // held-out avg@k x100 lies in [0, 100]; a t band from few seeds reaches past it and is cut there
  const yd = [0, 100] as const;
  const clampY = (y: number) => Math.min(100, Math.max(0, y));
  const sx = linearScale(xd, [M.left, W - M.right]);
  const sy = linearScale(yd, [H - M.bottom, M.top]);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
  ];
  for (const t of niceTicks(xd[0], xd[1], 6)) out.push(`<line x1="${num(sx(t))}" x2="${num(sx(t))}" y1="${M.top}" y2="${H - M.bottom}" stroke="#e5e7eb"/><text x="${num(sx(t))}" y="${H - M.bottom + 16}" text-anchor="middle" fill="#333">${formatTick(t)}</text>`);
  for (const t of niceTicks(yd[0], yd[1], 5)) out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${num(sy(t))}" y2="${num(sy(t))}" stroke="#e5e7eb"/><text x="${M.left - 6}" y="${num(sy(t) + 4)}" text-anchor="end" fill="#333">${formatTick(t)}</text>`);
  out.push(
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 10}" text-anchor="middle">training busy seconds (cumulative, mean over seeds)</text>`,
    `<text transform="translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">held-out avg@k x100</text>`,
  );
  const colors = presetColors(presets);
  presets.forEach((preset, i) => {
    const color = colors.get(preset)!;
    const mine = rows.filter((r) => r.preset === preset).sort((a, b) => a.step - b.step);
    const pt = (r: CurveRow, y: number) => `${num(sx(r.busySeconds.mean))},${num(sy(clampY(y)))}`;
    if (mine.every((r) => r.heldOut.low !== null && r.heldOut.high !== null)) {
      const band = [...mine.map((r) => pt(r, r.heldOut.high!)), ...[...mine].reverse().map((r) => pt(r, r.heldOut.low!))];
      out.push(`<polygon data-band="${esc(preset)}" points="${band.join(' ')}" fill="${color}" fill-opacity="0.12" stroke="none"/>`);
    }
    out.push(`<polyline data-preset="${esc(preset)}" points="${mine.map((r) => pt(r, r.heldOut.mean)).join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const r of mine) out.push(`<circle cx="${num(sx(r.busySeconds.mean))}" cy="${num(sy(r.heldOut.mean))}" r="3" fill="${color}"><title>${esc(`${preset}, step ${r.step}: ${r.heldOut.mean.toFixed(2)} (${r.heldOut.n} seeds), ${r.busySeconds.mean.toFixed(0)} busy s`)}</title></circle>`);
    const seeds = Math.min(...mine.map((r) => r.heldOut.n));
    const lx = M.left + 8 + (i % LEGEND_PER_ROW) * LEGEND_COL;
    const ly = 15 + Math.floor(i / LEGEND_PER_ROW) * LEGEND_ROW;
    out.push(`<rect x="${lx}" y="${ly - 5}" width="14" height="3" fill="${color}"/><text x="${lx + 20}" y="${ly}">${esc(`${preset} (${seeds} seed${seeds === 1 ? '' : 's'})`)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
