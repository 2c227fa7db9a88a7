// The controls experiment's plan (docs/results.md, "Does the world model earn its place? Plan", committed
// before its first run) as data, and its decision from run files. Five rows on the authors' rules over
// 40 steps: paper-wmrl, the three controls a reviewer asks for first (its anchors alone, the lookup in
// the world model's place, all-real GRPO at its compute) and all-real GRPO. The primary test stands
// alone (two-sided, 5%); the secondary family is Holm-corrected over its four tests at a familywise 5%.
// The gap's slope (S4) is also read off a summary's curve, for the page: main-v3's trend, which this plan follows up.
import { curveRows, pairedComparison, type CurveRow, type MetricKey, type PairedComparison } from './aggregate.ts';
import { NON_INFERIORITY_MARGIN } from './claims.ts';
import { tInterval, type MeanInterval } from './interval.ts';
import { holmAdjust, tTestP } from './multiplicity.ts';
import { rowsAwaited, type RowProgress } from './plan-progress.ts';
import { minimumDetectableDifference } from './power.ts';
import { SFT_PRESET, type RunResult } from './run-result.ts';
import { studentTCdf } from './student-t.ts';
import type { WorkRule } from '../sandbox-pyodide/work-rule.ts';

/** The plan's name: the CLI's `--plan` value and the report's section. */
export const CONTROLS_PLAN = 'controls-40';
export const CONTROLS_STEPS = 40;
export const CONTROLS_EVAL_EVERY = 5;
/** The sandbox's work rule the plan was made under (rule 1, before issue 48's meter): its runs keep it. */
export const CONTROLS_WORK_RULE: WorkRule = 1;
export const CONTROLS_ALPHA = 0.05;
/** The SD of the per-seed primary difference of results/main-v3 (16 seeds), from which the plan states what it can detect. */
export const MAIN_V3_SD = 7.6;

const seeds = Array.from({ length: 16 }, (_, i) => 3 + i);
export const CONTROLS_ROWS: readonly { preset: string; seeds: readonly number[] }[] = [
  SFT_PRESET, 'paper-wmrl', 'paper-anchors-only', 'paper-wmrl-lookup', 'paper-grpo-matched', 'paper-grpo-all-real',
].map((preset) => ({ preset, seeds }));

export interface ControlsTest {
  id: string;
  family: 'primary' | 'secondary';
  a: string;
  b: string;
  /** What is compared per seed: a metric's difference, or the slope of the difference over the checkpoints. */
  measure: { metric: MetricKey } | 'gap-slope';
  /** 'two-sided': a difference either way; 'non-inferiority': a above b - NON_INFERIORITY_MARGIN. */
  kind: 'two-sided' | 'non-inferiority';
  statement: string;
}

export const CONTROLS_TESTS: readonly ControlsTest[] = [
  { id: 'P', family: 'primary', a: 'paper-wmrl', b: 'paper-anchors-only', measure: { metric: 'heldOutCheckpointMean' }, kind: 'two-sided', statement: "the world model's groups change the score over training on the anchors alone" },
  { id: 'S1', family: 'secondary', a: 'paper-wmrl', b: 'paper-grpo-all-real', measure: { metric: 'heldOut' }, kind: 'non-inferiority', statement: `after 40 steps WMRL is not worse than all-real GRPO by more than ${NON_INFERIORITY_MARGIN} points` },
  { id: 'S2', family: 'secondary', a: 'paper-wmrl', b: 'paper-grpo-matched', measure: { metric: 'heldOutCheckpointMean' }, kind: 'two-sided', statement: "WMRL against all-real GRPO given WMRL's compute" },
  { id: 'S3', family: 'secondary', a: 'paper-wmrl', b: 'paper-wmrl-lookup', measure: { metric: 'heldOutCheckpointMean' }, kind: 'two-sided', statement: 'the world model against the family x task-type lookup as the scorer' },
  { id: 'S4', family: 'secondary', a: 'paper-wmrl', b: 'paper-grpo-all-real', measure: 'gap-slope', kind: 'two-sided', statement: 'the WMRL - GRPO gap changes along training (points per 5 steps)' },
];

/** The least-squares slope of y on x (at least two distinct x). */
function slope(pts: readonly { x: number; y: number }[]): number {
  const mx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
  const my = pts.reduce((s, p) => s + p.y, 0) / pts.length;
  const sxx = pts.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return pts.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
}

/** Per seed, the least-squares slope of (a - b) held-out x100 over the checkpoints both runs share, per CONTROLS_EVAL_EVERY steps. */
export function gapSlopes(runs: readonly RunResult[], a: string, b: string): { seeds: number[]; perSeed: number[] } {
  const curve = (preset: string, seed: number) => runs.find((r) => r.preset === preset && r.seed === seed && r.status === 'ok')?.curve;
  const out = { seeds: [] as number[], perSeed: [] as number[] };
  for (const seed of [...new Set(runs.map((r) => r.seed))].sort((x, y) => x - y)) {
    const ca = curve(a, seed);
    const cb = curve(b, seed);
    if (!ca || !cb) continue;
    const pts = ca.flatMap((p) => {
      const q = cb.find((x) => x.step === p.step);
      return q ? [{ x: p.step / CONTROLS_EVAL_EVERY, y: 100 * (p.avgAtK - q.avgAtK) }] : [];
    });
    if (pts.length < 2) continue;
    out.seeds.push(seed);
    out.perSeed.push(slope(pts));
  }
  return out;
}

export interface CurveGapTrend {
  /** The checkpoints after training began (step 0, the shared SFT policy, left out). */
  steps: number[];
  /** a - b held-out x100 at each: the paired mean, since both rows have the same seeds there. */
  gap: number[];
  /** Per CONTROLS_EVAL_EVERY steps: the slope of the gap (the mean of gapSlopes' per-seed slopes) and of each row. */
  gapSlope: number;
  slopeA: number;
  slopeB: number;
}

/**
 * The gap's trend from a summary's curve rows (means over seeds per step), for a page that has no run
 * files: the same figures as gapSlopes' mean, because a least-squares slope is linear in the values.
 * Null unless both rows have the same seed count at at least two shared checkpoints after step 0.
 */
export function curveGapTrend(rows: readonly CurveRow[], a: string, b: string): CurveGapTrend | null {
  const ra = rows.filter((r) => r.preset === a && r.step > 0).sort((x, y) => x.step - y.step);
  const pairs = ra.flatMap((p) => {
    const q = rows.find((r) => r.preset === b && r.step === p.step);
    return q && q.heldOut.n === p.heldOut.n ? [{ step: p.step, a: p.heldOut.mean, b: q.heldOut.mean }] : [];
  });
  if (pairs.length < 2) return null;
  const along = (y: (p: (typeof pairs)[number]) => number) => slope(pairs.map((p) => ({ x: p.step / CONTROLS_EVAL_EVERY, y: y(p) })));
  return { steps: pairs.map((p) => p.step), gap: pairs.map((p) => p.a - p.b), gapSlope: along((p) => p.a - p.b), slopeA: along((p) => p.a), slopeB: along((p) => p.b) };
}

/**
 * p of the non-inferiority test, on the two-sided scale: twice the one-sided p of mean > -margin, so that
 * p < 0.05 is exactly "the 95% interval's lower end is above -margin" (main-v3's primary rule).
 */
export function nonInferiorityP(values: readonly number[], margin = NON_INFERIORITY_MARGIN): number | null {
  const n = values.length;
  if (n < 2) return null;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  if (sd === 0) return mean > -margin ? 0 : 1;
  const t = (mean + margin) / (sd / Math.sqrt(n));
  return Math.min(1, 2 * (1 - studentTCdf(t, n - 1)));
}

/** 'a above' / 'a below': significant either way (non-inferiority: 'a above' means not worse by the margin); 'undecided' otherwise. */
export type ControlsReading = 'a above' | 'a below' | 'undecided' | 'not run';

export interface DecidedControl extends ControlsTest {
  seeds: number[];
  perSeed: number[];
  interval: MeanInterval | null;
  p: number | null;
  /** The primary test's own p; Holm-adjusted within the secondary family (a test without a p counts as p = 1). */
  pAdjusted: number | null;
  reading: ControlsReading;
}

function measured(runs: readonly RunResult[], t: ControlsTest): { seeds: number[]; perSeed: number[] } {
  if (t.measure === 'gap-slope') return gapSlopes(runs, t.a, t.b);
  const c: PairedComparison = pairedComparison(runs, t.a, t.b, t.measure.metric, 'difference');
  return { seeds: c.seeds, perSeed: c.perSeed };
}

export function decideControls(runs: readonly RunResult[], tests: readonly ControlsTest[] = CONTROLS_TESTS): DecidedControl[] {
  const compared = tests.map((t) => {
    const m = measured(runs, t);
    const p = t.kind === 'non-inferiority' ? nonInferiorityP(m.perSeed) : tTestP(m.perSeed);
    return { ...t, ...m, interval: m.perSeed.length > 0 ? tInterval(m.perSeed) : null, p };
  });
  const secondary = compared.filter((x) => x.family === 'secondary');
  const adjusted = holmAdjust(secondary.map((x) => x.p ?? 1));
  return compared.map((x) => {
    const i = secondary.indexOf(x);
    const pAdjusted = x.family === 'primary' ? x.p : x.p === null ? null : adjusted[i];
    let reading: ControlsReading = x.seeds.length === 0 ? 'not run' : 'undecided';
    if (x.interval && pAdjusted !== null && pAdjusted < CONTROLS_ALPHA) reading = x.kind === 'non-inferiority' || x.interval.mean > 0 ? 'a above' : 'a below';
    // non-inferiority that does not hold can still show a worse a: its whole interval below 0, as main-v3's primary read it
    else if (x.kind === 'non-inferiority' && x.interval?.high != null && x.interval.high < 0) reading = 'a below';
    return { ...x, pAdjusted, reading };
  });
}

/** A test's reading as summary.md and the page print it; a decided one that runs still to come can change says so. */
export function controlsReading(t: DecidedControl, progress: readonly RowProgress[]): string {
  const read = t.reading === 'a above' ? (t.kind === 'non-inferiority' ? `holds: not worse by ${NON_INFERIORITY_MARGIN}` : `${t.a} above`)
    : t.reading === 'a below' ? `${t.a} below` : t.reading;
  const decided = t.reading === 'a above' || t.reading === 'a below';
  return decided && rowsAwaited(t, progress, CONTROLS_TESTS).length > 0 ? `${read} (provisional)` : read;
}

/** What each test detects with 80% power at 16 seeds and the main-v3 SD: the primary at 5%, the family's first Holm step at 5% / 4. */
export function plannedDetectable(sd = MAIN_V3_SD): { primary: number; firstSecondary: number; lastSecondary: number } {
  const n = CONTROLS_ROWS[1].seeds.length;
  const m = CONTROLS_TESTS.filter((t) => t.family === 'secondary').length;
  return {
    primary: minimumDetectableDifference(sd, n, CONTROLS_ALPHA),
    firstSecondary: minimumDetectableDifference(sd, n, CONTROLS_ALPHA / m),
    lastSecondary: minimumDetectableDifference(sd, n, CONTROLS_ALPHA),
  };
}

/** The primary test's detectable difference at its planned seeds, at the SD of the paired differences measured so far (null under 2 seeds). */
export function measuredDetectable(primary: DecidedControl): { sd: number; seeds: number; detectable: number } | null {
  const sd = primary.interval?.sd ?? null;
  if (sd === null) return null;
  const seeds = CONTROLS_ROWS[1].seeds.length;
  return { sd, seeds, detectable: minimumDetectableDifference(sd, seeds, CONTROLS_ALPHA) };
}

/** The primary pair's curve (the control first), for the picture beside summary.md. */
export function controlsPrimaryCurveRows(runs: readonly RunResult[]): CurveRow[] {
  const p = CONTROLS_TESTS[0];
  return curveRows(runs, [p.b, p.a]).filter((r) => r.preset === p.a || r.preset === p.b);
}

/** The folder whose 20-step runs the first half of these runs should repeat (the plan's descriptive check). */
export const CONTROLS_TWIN_FOLDER = 'results/main-v3';
/** The rows both experiments ran. */
export const CONTROLS_TWIN_ROWS = ['paper-wmrl', 'paper-grpo-all-real'] as const;

export interface TwinAgreement {
  preset: string;
  seed: number;
  /** The checkpoints both runs have (5 to 20). */
  steps: number[];
  /** The first checkpoint whose held-out score differs, or null when every shared one is equal. */
  firstDifference: number | null;
}

/**
 * Nothing in a run depends on its total step count, so a 40-step run's checkpoints at steps 5 to 20
 * should equal its 20-step twin's, unless code between the two commits changed an outcome.
 */
export function twinAgreement(runs: readonly RunResult[], twins: readonly RunResult[]): TwinAgreement[] {
  const out: TwinAgreement[] = [];
  for (const r of runs) {
    if (r.status !== 'ok' || !r.curve || !(CONTROLS_TWIN_ROWS as readonly string[]).includes(r.preset)) continue;
    const twin = twins.find((t) => t.preset === r.preset && t.seed === r.seed && t.status === 'ok' && t.curve);
    if (!twin) continue;
    const steps = twin.curve!.map((c) => c.step).filter((st) => r.curve!.some((c) => c.step === st));
    const differs = steps.find((st) => r.curve!.find((c) => c.step === st)!.avgAtK !== twin.curve!.find((c) => c.step === st)!.avgAtK);
    out.push({ preset: r.preset, seed: r.seed, steps, firstDifference: differs ?? null });
  }
  return out.sort((a, b) => a.seed - b.seed || a.preset.localeCompare(b.preset));
}
