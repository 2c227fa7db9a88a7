// This project's measured results, as `npm run experiment` summarised them (results/<name>/summary.json,
// published to /results/ at build time). Only reads and selects: every number comes from the file.
import type { CurveRow, MetricKey, PresetSummary, PairedComparison } from '../../experiments/aggregate.ts';
import type { ClaimResult } from '../../experiments/claims.ts';
import type { MeanInterval } from '../../experiments/interval.ts';
import { decidedDigits } from '../../experiments/report.ts';
import type { RerunComparison } from '../../experiments/rerun.ts';
import { CONTROLS_PLAN, CONTROLS_ROWS, controlsReading, curveGapTrend, measuredDetectable, type CurveGapTrend, type DecidedControl } from '../../experiments/controls-table.ts';
import { breakEvenFromRatios, familyDetectable, largerSftAgainstSft, MAIN_TABLE_TESTS, primaryDetectable, type AmortisedRatio, type BreakEven, type DecidedTest, type PrimaryDetectable, type TestDetectable } from '../../experiments/main-table.ts';
import { planComplete, planProgress, progressCounts, rowsAwaited, type RowProgress } from '../../experiments/plan-progress.ts';

export interface ExperimentSummary {
  format: 'wmrl-experiment-summary';
  version: 1;
  command: string;
  presets: PresetSummary[];
  claim1BusyRatio?: PairedComparison;
  /** wmrl-unreadable minus wmrl, mean anchor weight w_A (the claim-5 control); interval null when not both ran. */
  claim5AnchorWeight?: PairedComparison;
  /** The claims of method.md 5 with their verdicts (src/experiments/claims.ts); absent in older summaries. */
  claims?: ClaimResult[];
  /** Held-out score along training (runs evaluated with --eval-every); absent in older summaries. */
  curve?: CurveRow[];
  /** The third models' main table decided by its plan (src/experiments/main-table.ts); absent in older summaries. */
  mainTable?: DecidedTest[];
  /** Every row of that plan with its planned and finished seeds. */
  mainTableProgress?: RowProgress[];
  /** Claim 1 with the world model's own cost shared over runs (descriptive). */
  mainTableAmortisedRatio?: AmortisedRatio;
  /** A rerun folder (--rerun-of): its runs against their twins in the folder they rerun, and the compute ratio both ways. */
  rerunOf?: RerunComparison;
  /** The plan other than the main table's that decides this folder (`--plan controls-40`). */
  plan?: string;
  /** The controls experiment decided by its plan (src/experiments/controls-table.ts). */
  controls?: DecidedControl[];
}

export interface ResultsIndex {
  format: 'wmrl-results-index';
  version: 1;
  /** rerunOf: the folder (results/<name>) a rerun folder reruns some runs of. */
  results: { name: string; file: string; command: string; presets: string[]; rerunOf?: string }[];
  /** The robot domain's tables (results/<name>/summary.json of `npm run experiment -- --domain robot`); absent in older indexes. */
  robot?: { name: string; file: string; command: string }[];
}

export interface OurRow {
  preset: string;
  seeds: number;
  heldOut: MeanInterval | null;
  /** The plan's endpoint (main-v3 on): held-out averaged over the checkpoints; null for older summaries and the no-RL rows. */
  heldOutCheckpointMean: MeanInterval | null;
  busyTotal: MeanInterval | null;
  executions: MeanInterval | null;
}

const metric = (p: PresetSummary, k: MetricKey): MeanInterval | null => p.metrics[k] ?? null;

/** Rows in the summary's order (the SFT starting point first). */
export function ourRows(summary: ExperimentSummary): OurRow[] {
  return summary.presets.map((p) => ({
    preset: p.preset,
    seeds: p.seeds.length,
    heldOut: metric(p, 'heldOut'),
    heldOutCheckpointMean: metric(p, 'heldOutCheckpointMean'),
    busyTotal: metric(p, 'busyTotal'),
    executions: metric(p, 'executions'),
  }));
}

/** "17.2 [9.6, 24.8]", or the mean alone for one seed. */
export function formatInterval(m: MeanInterval | null, digits = 1): string {
  if (!m) return '–';
  if (m.low === null || m.high === null) return m.mean.toFixed(digits);
  return `${m.mean.toFixed(digits)} [${m.low.toFixed(digits)}, ${m.high.toFixed(digits)}]`;
}

/** A change with its sign, as the README writes one: "+3.61", "-4.65". */
export const formatSigned = (x: number, digits = 2): string => `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`;

/** A row's seeds against its plan: the count once it is done, else "6 of 10", so that an unfinished row shows as one. */
export const finishedOfPlanned = (r: Pick<RowProgress, 'done' | 'planned'>): string =>
  r.done.length === r.planned.length ? String(r.planned.length) : `${r.done.length} of ${r.planned.length}`;

/** The published index; null when this build publishes no results. */
export async function loadResultsIndex(base = 'results/'): Promise<ResultsIndex | null> {
  const res = await fetch(`${base}index.json`);
  if (!res.ok) return null;
  return (await res.json()) as ResultsIndex;
}

/** One published summary by its index entry. */
export async function loadSummary(entry: ResultsIndex['results'][number], base = 'results/'): Promise<ExperimentSummary> {
  const s = await fetch(`${base}${entry.file}`);
  if (!s.ok) throw new Error(`results/${entry.file}: HTTP ${s.status}`);
  return (await s.json()) as ExperimentSummary;
}

/** The compute measured alone for a shown summary: its own when it is a rerun folder, else that of a published folder rerunning it; null when none. */
export async function computeAlone(index: ResultsIndex, name: string, summary: ExperimentSummary, base = 'results/'): Promise<(RerunComparison & { name: string }) | null> {
  if (summary.rerunOf) return { name, ...summary.rerunOf };
  const entry = index.results.find((r) => r.rerunOf === `results/${name}`);
  if (!entry) return null;
  const rerun = (await loadSummary(entry, base)).rerunOf;
  return rerun ? { name: entry.name, ...rerun } : null;
}

/**
 * The main tables, newest first: main-v3 is decided by a plan on the authors' rules (shown while still
 * in progress: the page marks what is provisional); main-v2 (our reading, second models) and main (the
 * first models) are kept as records.
 */
const MAIN_TABLES = ['main-v3', 'main-v2', 'main'];

/** The entry shown first: the newest main table the build publishes, else the first in the index. */
export function defaultEntry(index: ResultsIndex): ResultsIndex['results'][number] | null {
  for (const name of MAIN_TABLES) {
    const entry = index.results.find((r) => r.name === name);
    if (entry) return entry;
  }
  return index.results[0] ?? null;
}

export interface CurveLine {
  preset: string;
  /** (busy seconds, held-out x100): the mean over seeds at each evaluated step */
  mean: [number, number][];
  /** the same points at the lower and upper ends of the held-out interval (null with one seed) */
  low: [number, number][] | null;
  high: [number, number][] | null;
  seeds: number;
}

/**
 * The paper's headline picture from a summary's curve rows: per preset, held-out score against
 * cumulative training busy time, one point per evaluated step. A point's x is the mean busy time
 * over the seeds that have it; its interval is the held-out score's.
 */
export function curveLines(summary: ExperimentSummary): CurveLine[] {
  const rows = summary.curve ?? [];
  const presets = [...new Set(rows.map((r) => r.preset))];
  return presets.map((preset) => {
    const mine = rows.filter((r) => r.preset === preset).sort((a, b) => a.step - b.step);
    const x = (r: CurveRow) => r.busySeconds.mean;
    const bounded = mine.every((r) => r.heldOut.low !== null && r.heldOut.high !== null);
    return {
      preset,
      mean: mine.map((r) => [x(r), r.heldOut.mean]),
      low: bounded ? mine.map((r) => [x(r), r.heldOut.low!]) : null,
      high: bounded ? mine.map((r) => [x(r), r.heldOut.high!]) : null,
      seeds: Math.min(...mine.map((r) => r.heldOut.n)),
    };
  });
}

export interface PlanView {
  primary: DecidedTest;
  /** family A (claims, Holm) then family B (exploratory) */
  tests: DecidedTest[];
  progress: RowProgress[];
  complete: boolean;
  /** The rows the primary verdict still waits for (none: it is final), and those family A's verdicts wait for (Holm reads the whole family). */
  primaryAwaits: string[];
  familyAAwaits: string[];
  runsDone: number;
  runsPlanned: number;
  amortised: AmortisedRatio | null;
  /** Runs the world model's build must be shared over before WMRL with its share is cheaper than all-real GRPO, from A1 and the amortised ratio. */
  breakEven: BreakEven | null;
  /** The primary pair's gap along training, from the curve's means (descriptive, found after the fact); null without a curve. */
  gapTrend: CurveGapTrend | null;
  /** Claim 4's comparator minus the small SFT policy, seed by seed (A8 - A6); null when either test has not run. */
  largerSft: ReturnType<typeof largerSftAgainstSft>;
  /** The primary test's minimum detectable difference at its planned seeds: at the pilot's SD (the plan's figure) and at the SD measured so far. */
  detectable: PrimaryDetectable;
  /** Beside each of `tests`: what it can detect at its planned seeds when it is not yet decided (null otherwise). */
  testsDetectable: (TestDetectable | null)[];
  /** What the table falls short of: the primary test and family A's, where they ran and do not hold. */
  shortfalls: Shortfall[];
}

/** A test of the paper's claims that ran and does not hold, with what it measured and could detect. */
export interface Shortfall {
  id: string;
  statement: string;
  verdict: string;
  mean: number;
  /** The report's digits for this test's figures (3 for the anchor weight, else 2). */
  digits: number;
  seeds: number;
  /** What it detects with 80% power at its planned seeds (null: decided, or too few seeds to say). */
  detectable: TestDetectable | null;
}

/**
 * The main table as its plan decides it, when the summary has one and any of its tests has run;
 * null otherwise (older summaries, or experiments of other presets, whose plan tests all read "not run").
 */
export function planView(summary: ExperimentSummary): PlanView | null {
  const decided = summary.mainTable ?? [];
  const primary = decided.find((t) => t.family === 'primary');
  if (!primary || !decided.some((t) => t.comparison.seeds.length > 0)) return null;
  const progress = summary.mainTableProgress ?? [];
  const counts = progressCounts(progress);
  const familyA = decided.find((t) => t.family === 'A');
  // claim 1's compute test: all-real GRPO over WMRL, total busy time, as the amortised ratio pairs them
  const a1 = decided.find((t) => t.id === 'A1');
  const tests = decided.filter((t) => t.family !== 'primary');
  const testsDetectable = tests.map((t) => familyDetectable(t, decided));
  return {
    primary,
    tests,
    progress,
    complete: progress.length > 0 && planComplete(progress),
    primaryAwaits: rowsAwaited(primary, progress, MAIN_TABLE_TESTS),
    familyAAwaits: familyA ? rowsAwaited(familyA, progress, MAIN_TABLE_TESTS) : [],
    runsDone: counts.done,
    runsPlanned: counts.planned,
    amortised: summary.mainTableAmortisedRatio ?? null,
    breakEven: a1 && summary.mainTableAmortisedRatio ? breakEvenFromRatios(a1.comparison, summary.mainTableAmortisedRatio) : null,
    gapTrend: curveGapTrend(summary.curve ?? [], primary.a, primary.b),
    largerSft: largerSftAgainstSft(decided),
    detectable: primaryDetectable(primary),
    testsDetectable,
    shortfalls: shortfalls(primary, tests, testsDetectable),
  };
}

/** The primary test and family A's tests that ran and do not hold (family B decides nothing: it is exploratory). */
function shortfalls(primary: DecidedTest, tests: DecidedTest[], detectable: (TestDetectable | null)[]): Shortfall[] {
  return [{ test: primary, detectable: null }, ...tests.map((test, i) => ({ test, detectable: detectable[i] }))]
    .filter(({ test: t }) => (t.family === 'primary' || t.family === 'A') && t.comparison.interval !== null && t.verdict !== 'holds')
    .map(({ test: t, detectable: d }) => ({ id: t.id, statement: t.statement, verdict: t.verdict ?? 'undecided', mean: t.comparison.interval!.mean, digits: decidedDigits(t.metric), seeds: t.comparison.seeds.length, detectable: d }));
}

/** True when some claim of the older rules (claims.ts) has a test that ran: a summary of only plan presets has none. */
export const claimsRan = (summary: ExperimentSummary): boolean => (summary.claims ?? []).some((c) => c.tests.some((t) => t.comparison.seeds.length > 0));

/** The controls experiment as its plan decides it: how far it has come and each test's reading, as summary.md prints them. */
export interface ControlsView {
  progress: RowProgress[];
  complete: boolean;
  runsDone: number;
  runsPlanned: number;
  tests: { test: DecidedControl; reading: string }[];
  /** The primary test's detectable difference at its planned seeds, at the SD measured so far (null under 2 seeds). */
  detectable: ReturnType<typeof measuredDetectable>;
}

/** The controls plan's view of a summary that it decides (`plan: 'controls-40'`); null for any other summary. */
export function controlsView(summary: ExperimentSummary): ControlsView | null {
  if (summary.plan !== CONTROLS_PLAN || !summary.controls) return null;
  const finished = new Map(summary.presets.map((p) => [p.preset, new Set(p.seeds)]));
  const progress = planProgress(CONTROLS_ROWS, (preset, seed) => (finished.get(preset)?.has(seed) ? 'ok' : null));
  const counts = progressCounts(progress);
  return {
    progress,
    complete: planComplete(progress),
    runsDone: counts.done,
    runsPlanned: counts.planned,
    tests: summary.controls.map((test) => ({ test, reading: controlsReading(test, progress) })),
    detectable: measuredDetectable(summary.controls.find((t) => t.family === 'primary')!),
  };
}
