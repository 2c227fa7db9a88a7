import { describe, expect, it } from 'vitest';
import { curveSvg } from '../../../src/cli/curve-svg.ts';
import { tInterval } from '../../../src/experiments/interval.ts';
import type { CurveRow } from '../../../src/experiments/aggregate.ts';

const row = (preset: string, step: number, held: number[], busy: number[]): CurveRow => ({ preset, step, heldOut: tInterval(held), busySeconds: tInterval(busy) });

const points = (svg: string, preset: string): [number, number][] => {
  const m = svg.match(new RegExp(`<polyline data-preset="${preset}" points="([^"]*)"`));
  if (!m) throw new Error(`no line for ${preset}`);
  return m[1].split(' ').map((p) => p.split(',').map(Number) as [number, number]);
};

describe('the headline picture as an SVG file', () => {
  const rows = [
    row('wmrl', 5, [50, 60], [300, 340]), row('wmrl', 0, [40, 44], [0, 0]), row('wmrl', 10, [45, 55], [700, 650]),
    row('grpo-all-real', 0, [42], [0]), row('grpo-all-real', 10, [48], [2000]),
  ];
  const svg = curveSvg(rows, 'held-out <score> & "compute"');

  it('draws one line per preset through its steps in order, left to right as compute grows, higher scores higher', () => {
    const w = points(svg, 'wmrl');
    expect(w).toHaveLength(3);
    expect(w[0][0]).toBeLessThan(w[1][0]);
    expect(w[1][0]).toBeLessThan(w[2][0]);
    // step 5 (mean 55) is drawn above step 0 (mean 42): SVG y grows downwards
    expect(w[1][1]).toBeLessThan(w[0][1]);
    const g = points(svg, 'grpo-all-real');
    expect(g).toHaveLength(2);
    // the same busy time lands at the same x across presets: both start at 0
    expect(g[0][0]).toBe(w[0][0]);
    for (const [x, y] of [...w, ...g]) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(640);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(360);
    }
  });

  it('lays a long legend out in rows above the plot, inside the picture, never over the lines', () => {
    const names = ['paper-grpo-all-real', 'paper-wmrl', 'paper-world-model-only', 'paper-ablation-neither', 'paper-ablation-denoise-only', 'paper-ablation-debias-only', 'paper-wmrl-unreadable'];
    const many = curveSvg(names.flatMap((p, i) => [row(p, 0, [40, 44], [0, 0]), row(p, 20, [50 + i, 52 + i], [800 + 100 * i, 900 + 100 * i])]), 't');
    const [, , width, height] = many.match(/viewBox="([^"]*)"/)![1].split(' ').map(Number);
    const legend = [...many.matchAll(/<text x="([\d.]+)" y="([\d.]+)">([^<]*)<\/text>/g)].filter((m) => names.some((n) => m[3].startsWith(`${n} (`)));
    expect(legend).toHaveLength(names.length);
    // every line of the plot lies below the last legend row
    const top = Math.min(...names.flatMap((n) => points(many, n).map(([, y]) => y)), ...[...many.matchAll(/<line [^>]*y1="([\d.]+)"/g)].map((m) => Number(m[1])));
    for (const [, x, y, label] of legend) {
      // about 7 px a character at 12 px sans-serif: the label ends inside the picture and before the next column
      expect(Number(x) + 7 * label.length).toBeLessThanOrEqual(width);
      expect(Number(y)).toBeLessThan(top);
    }
    const xs = legend.map((m) => Number(m[1])).sort((a, b) => a - b);
    const columns = [...new Set(xs)];
    for (let c = 1; c < columns.length; c++) {
      const widest = Math.max(...legend.filter((m) => Number(m[1]) === columns[c - 1]).map((m) => m[3].length));
      expect(columns[c - 1] + 7 * widest).toBeLessThanOrEqual(columns[c]);
    }
    expect(height).toBeGreaterThan(360);
  });

  it('shades the interval only where every point has one, and escapes the text', () => {
    expect(svg).toContain('data-band="wmrl"');
    expect(svg).not.toContain('data-band="grpo-all-real"');
    // two seeds give a t band far past [0, 100]; it is cut at the axis ends (y 34 at 100, 312 at 0)
    const band = svg.match(/data-band="wmrl" points="([^"]*)"/)![1].split(' ').map((p) => Number(p.split(',')[1]));
    expect(Math.min(...band)).toBe(34);
    expect(Math.max(...band)).toBe(312);
    expect(svg).toContain('<title>held-out &lt;score&gt; &amp; &quot;compute&quot;</title>');
    expect(svg).toContain('grpo-all-real (1 seed)');
    expect(svg).toContain('wmrl (2 seeds)');
    // balanced: every opened element closes
    const opened = (svg.match(/<(svg|title|text|circle)\b/g) ?? []).length;
    const closed = (svg.match(/<\/(svg|title|text|circle)>/g) ?? []).length;
    expect(closed).toBe(opened);
  });
});
