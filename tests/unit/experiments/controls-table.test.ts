// The controls experiment's plan, decided: the primary test (paper-wmrl against its anchors alone)
// two-sided and alone, the secondary four Holm-corrected together, the non-inferiority p on the scale
// of main-v3's interval rule, and the per-seed slope of the WMRL - GRPO gap.
import { describe, expect, it } from 'vitest';
import { CONTROLS_ROWS, CONTROLS_TESTS, curveGapTrend, decideControls, gapSlopes, measuredDetectable, nonInferiorityP, plannedDetectable, twinAgreement } from '../../../src/experiments/controls-table.ts';
import { curveRows } from '../../../src/experiments/aggregate.ts';
import { holmAdjust, tTestP } from '../../../src/experiments/multiplicity.ts';
import { tInterval } from '../../../src/experiments/interval.ts';
import { controlsSection, renderReport } from '../../../src/experiments/report.ts';
import type { RunResult } from '../../../src/experiments/run-result.ts';
import { cost, evaluation, run } from './run-fixtures.ts';

/** A 40-step run whose checkpoints (steps 5..40) score `points` (x100). */
function trained(preset: string, seed: number, points: number[]): RunResult {
  const r = run(preset, seed, points.at(-1)! / 100, cost({ policySampling: 1000, worldModel: 0, sandbox: 1000, policyUpdate: 0 }, 2000, 10, 0));
  r.curve = points.map((p, i) => ({ step: 5 * (i + 1), trainingBusyMs: 0, avgAtK: p / 100, evaluation: evaluation(p / 100) }));
  return r;
}
const flat = (m: number) => Array.from({ length: 8 }, () => m);
const decided = (runs: RunResult[], id: string) => decideControls(runs).find((t) => t.id === id)!;

describe('the controls plan', () => {
  it('names five rows and SFT at seeds 3 to 18, and the tests of docs/results.md', () => {
    expect(CONTROLS_ROWS.map((r) => r.preset)).toEqual(['sft', 'paper-wmrl', 'paper-anchors-only', 'paper-wmrl-lookup', 'paper-grpo-matched', 'paper-grpo-all-real']);
    for (const r of CONTROLS_ROWS) expect(r.seeds).toEqual(Array.from({ length: 16 }, (_, i) => i + 3));
    expect(CONTROLS_TESTS.map((t) => `${t.id} ${t.a} - ${t.b} ${t.kind}`)).toEqual([
      'P paper-wmrl - paper-anchors-only two-sided', 'S1 paper-wmrl - paper-grpo-all-real non-inferiority', 'S2 paper-wmrl - paper-grpo-matched two-sided',
      'S3 paper-wmrl - paper-wmrl-lookup two-sided', 'S4 paper-wmrl - paper-grpo-all-real two-sided',
    ]);
    // what the plan states it can detect at main-v3's SD (7.6), 16 seeds, 80% power
    const d = plannedDetectable();
    expect(d.primary).toBeCloseTo(5.7, 1);
    expect(d.firstSecondary).toBeCloseTo(7.0, 1);
  });

  it("states the primary test's detectable difference at the SD measured so far, at the planned 16 seeds", () => {
    const base = [1, 2, 3].map((s) => trained('paper-anchors-only', s, flat(50)));
    // paired differences 2, 6, 10: SD 4
    const wmrl = [2, 6, 10].map((d, i) => trained('paper-wmrl', i + 1, flat(50 + d)));
    const m = measuredDetectable(decided([...base, ...wmrl], 'P'))!;
    expect(m.sd).toBeCloseTo(4, 12);
    expect(m.seeds).toBe(16);
    expect(m.detectable).toBeCloseTo(plannedDetectable(4).primary, 12);
    expect(controlsSection([...base, ...wmrl])).toContain(`At the SD of the primary test's paired differences measured so far (4.0 over 3 seeds), the primary test would detect ${m.detectable.toFixed(1)} points at 16 seeds.`);
    // one seed: no SD, no sentence
    expect(measuredDetectable(decided([base[0], wmrl[0]], 'P'))).toBeNull();
    expect(controlsSection([base[0], wmrl[0]])).not.toContain('measured so far');
  });

  it('reads the primary test both ways, on the checkpoint mean, alone', () => {
    const base = [50, 52, 54, 56, 58, 60].map((m, i) => trained('paper-anchors-only', i + 1, flat(m)));
    const above = [53, 56, 57, 60, 61, 64].map((m, i) => trained('paper-wmrl', i + 1, flat(m)));
    const t = decided([...base, ...above], 'P');
    expect(t.interval!.mean).toBeCloseTo(3.5, 9);
    expect(t.p).toBeCloseTo(tTestP([3, 4, 3, 4, 3, 4])!, 12);
    expect(t.pAdjusted).toBe(t.p);
    expect(t.reading).toBe('a above');
    const below = [47, 48, 51, 52, 55, 56].map((m, i) => trained('paper-wmrl', i + 1, flat(m)));
    expect(decided([...base, ...below], 'P').reading).toBe('a below');
    expect(decided([...base, trained('paper-wmrl', 1, flat(49))], 'P').reading).toBe('undecided');
    expect(decided(base, 'P').reading).toBe('not run');
  });

  it("takes S1's non-inferiority on the step-40 score, with a p that is below 0.05 exactly when the 95% interval's lower end is above -5", () => {
    // the second lies between the one-sided 2.5% and 5% levels: a one-sided p would call it non-inferior
    for (const d of [[-1, -2, -3, 0, -4, -2], [-2, 2, -6, 1, -5, -2], [-6, -1, -8, 2, -3, -4], [-4.9, -4.7, -5.2, -4.8, -5.1, -4.6]]) {
      const iv = tInterval(d);
      expect(nonInferiorityP(d)! < 0.05).toBe(iv.low! > -5);
    }
    // only the last checkpoint counts: a run that ends level with GRPO after trailing it
    const grpo = [1, 2, 3, 4].map((s) => trained('paper-grpo-all-real', s, [...flat(60).slice(1), 60 + s]));
    const wmrl = [1, 2, 3, 4].map((s) => trained('paper-wmrl', s, [...flat(40).slice(1), 60 + s - 1]));
    const s1 = decided([...grpo, ...wmrl], 'S1');
    expect(s1.perSeed).toEqual([-1, -1, -1, -1]);
  });

  it('holds the secondary family to Holm over all four tests, a test without a p counting as 1', () => {
    const rows = (preset: string, off: number[]) => off.map((o, i) => trained(preset, i + 1, flat(50 + o)));
    const runs = [
      ...rows('paper-wmrl', [0, 0, 0, 0, 0]),
      ...rows('paper-grpo-matched', [-3, -4, -3, -5, -2]),
      ...rows('paper-grpo-all-real', [1, -2, 3, -1, 0]),
    ];
    const all = decideControls(runs);
    const sec = all.filter((t) => t.family === 'secondary');
    expect(sec.map((t) => t.pAdjusted)).toEqual(holmAdjust(sec.map((t) => t.p ?? 1)).map((q, i) => (sec[i].p === null ? null : q)));
    const s2 = sec.find((t) => t.id === 'S2')!;
    expect(s2.pAdjusted!).toBeGreaterThan(s2.p!);
  });

  it("S4: each seed's least-squares slope of the gap, in points per 5 steps", () => {
    const grpo = [1, 2, 3].map((s) => trained('paper-grpo-all-real', s, [50, 52, 54, 56, 58, 60, 62, 64]));
    // the gap falls by s points per checkpoint on seed s
    const wmrl = [1, 2, 3].map((s) => trained('paper-wmrl', s, [50, 52, 54, 56, 58, 60, 62, 64].map((v, k) => v - s * k)));
    const g = gapSlopes([...grpo, ...wmrl], 'paper-wmrl', 'paper-grpo-all-real');
    expect(g.seeds).toEqual([1, 2, 3]);
    g.perSeed.forEach((v, i) => expect(v).toBeCloseTo(-(i + 1), 9));
    expect(decided([...grpo, ...wmrl], 'S4').interval!.mean).toBeCloseTo(-2, 9);
  });

  it("the gap's trend from a summary's curve (means over seeds): the per-seed slopes' mean, each checkpoint's paired gap, each row's climb", () => {
    const grpo = [1, 2, 3].map((s) => trained('paper-grpo-all-real', s, [50, 52, 54, 56, 58, 60, 62, 64].map((v) => v + s)));
    const wmrl = [1, 2, 3].map((s) => trained('paper-wmrl', s, [56, 56, 57, 57, 58, 58, 59, 59].map((v, k) => v - s * (k % 3))));
    const runs = [...grpo, ...wmrl];
    const t = curveGapTrend(curveRows(runs, []), 'paper-wmrl', 'paper-grpo-all-real')!;
    expect(t.steps).toEqual([5, 10, 15, 20, 25, 30, 35, 40]);
    const slopes = gapSlopes(runs, 'paper-wmrl', 'paper-grpo-all-real').perSeed;
    expect(t.gapSlope).toBeCloseTo(slopes.reduce((a, b) => a + b, 0) / slopes.length, 9);
    // after step 5: wmrl 56 - (0) on every seed, grpo 50 + s: paired mean 56 - 52
    expect(t.gap[0]).toBeCloseTo(4, 9);
    expect(t.slopeB).toBeCloseTo(2, 9);
    expect(t.gapSlope).toBeCloseTo(t.slopeA - t.slopeB, 9);
    // a row with other seeds at a checkpoint is not paired with it; one checkpoint is no trend
    expect(curveGapTrend(curveRows([...runs, trained('paper-wmrl', 4, flat(50))], []), 'paper-wmrl', 'paper-grpo-all-real')).toBeNull();
  });

  it('is what the report shows under --plan controls-40, and never the main table', () => {
    const runs = [1, 2].flatMap((s) => [trained('paper-wmrl', s, flat(55)), trained('paper-anchors-only', s, flat(50 + s)), trained('paper-grpo-all-real', s, flat(56))]);
    const md = renderReport({ title: 't', runs, presets: ['paper-wmrl', 'paper-anchors-only', 'paper-grpo-all-real'], plan: 'controls-40' });
    expect(md).toContain(controlsSection(runs));
    expect(md).toContain('| P | paper-wmrl - paper-anchors-only |');
    expect(md).not.toContain('The main table, decided by its plan');
    expect(renderReport({ title: 't', runs, presets: ['paper-wmrl'] })).toContain('The main table, decided by its plan');
  });

  it('marks a decided reading provisional while a row it waits for is short of its 16 seeds; the primary waits for its own two rows only', () => {
    const seeds = CONTROLS_ROWS[0].seeds;
    const pair = seeds.flatMap((s) => [trained('paper-anchors-only', s, flat(50 + (s % 3))), trained('paper-wmrl', s, flat(56 + (s % 2)))]);
    const row = (md: string, id: string) => md.split('\n').find((l) => l.startsWith(`| ${id} |`))!;
    // the primary pair at all 16 seeds: P is final, though the other rows have not run
    const md = controlsSection(pair);
    expect(row(md, 'P')).toMatch(/\| paper-wmrl above \|$/);
    expect(md).toContain('In progress: 32 of 96 planned runs finished.');
    // one seed short: the same reading, marked
    expect(row(controlsSection(pair.slice(2)), 'P')).toMatch(/\| paper-wmrl above \(provisional\) \|$/);
    // undecided and not-run readings carry no mark
    expect(row(md, 'S2')).toMatch(/\| not run \|$/);
  });

  it("checks the first 20 steps against main-v3's twins, naming the first checkpoint that differs", () => {
    const twin = (preset: string, seed: number, pts: number[]) => trained(preset, seed, pts);
    const runs = [trained('paper-wmrl', 3, [50, 51, 52, 53, 54, 55, 56, 57]), trained('paper-grpo-all-real', 3, [40, 41, 42, 43, 44, 45, 46, 47]), trained('paper-anchors-only', 3, flat(50))];
    const twins = [twin('paper-wmrl', 3, [50, 51, 52, 53]), twin('paper-grpo-all-real', 3, [40, 41, 49, 43])];
    expect(twinAgreement(runs, twins).map((t) => [t.preset, t.steps, t.firstDifference])).toEqual([
      ['paper-grpo-all-real', [5, 10, 15, 20], 15],
      ['paper-wmrl', [5, 10, 15, 20], null],
    ]);
    expect(controlsSection(runs, twins)).toMatch(/equal at every shared checkpoint: 1 of 2 runs; differing: paper-grpo-all-real seed 3 from step 15/);
  });
});

