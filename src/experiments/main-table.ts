// The main table's plan (docs/results.md, "The main table, third models' era: plan", committed before
// its first run) as data, and its decision from run files. The primary test stands alone; family A
// (the paper's claims on the authors' rules) and family B (our one-switch variants, exploratory) are
// each Holm-corrected over their own tests, with p from the paired t-test of the per-seed values
// (two-sided; against 1 for a ratio), over every test the family names (one without a p counts as
// p = 1). A test of family A holds when its adjusted p is below 0.05 with
// the mean on the claim's side, fails when it is below 0.05 on the other side, and is undecided
// otherwise; family B reports differences, never verdicts.
import { curveRows, pairedComparison, type CurveRow, type MetricKey, type PairedComparison } from './aggregate.ts';
import { LARGER_SFT_PRESET, NON_INFERIORITY_MARGIN, type Verdict } from './claims.ts';
import { holmAdjust, tTestP } from './multiplicity.ts';
import { SFT_PRESET, type RunResult } from './run-result.ts';
import { tInterval, type MeanInterval } from './interval.ts';
import { minimumDetectableDifference } from './power.ts';
import { planProgress, type RowProgress } from './plan-progress.ts';

export const PRIMARY_METRIC: MetricKey = 'heldOutCheckpointMean';
export const FAMILY_ALPHA = 0.05;
/** The pilot's SD of the primary difference (results/pilot-authors, 2 seeds), from which the plan sized the seeds. */
export const PILOT_SD_OF_PRIMARY = 14.7;

/** Family B: each switches one of the authors' rules back to our reading (or is one of our own presets). */
const FAMILY_B_PRESETS = ['paper-wmrl-percentile', 'paper-wmrl-mean-advantages', 'paper-wmrl-pava', 'paper-wmrl-ivw', 'paper-wmrl-verifier-gate', 'wmrl-static', 'wmrl-ppi'];

export interface MainTableTest {
  id: string;
  family: 'primary' | 'A' | 'B';
  a: string;
  b: string;
  metric: MetricKey;
  /** The metric read on b where it differs: the SFT row's one evaluation stands for every checkpoint of a policy that never moved. */
  metricB?: MetricKey;
  kind: 'ratio' | 'difference';
  /** The side the claim is on ('two-sided' for family B's attribution). */
  direction: 'greater' | 'less' | 'two-sided';
  statement: string;
}

const held = (id: string, family: MainTableTest['family'], a: string, b: string, direction: MainTableTest['direction'], statement: string): MainTableTest =>
  ({ id, family, a, b, metric: PRIMARY_METRIC, kind: 'difference', direction, statement });

export const MAIN_TABLE_TESTS: readonly MainTableTest[] = [
  held('primary', 'primary', 'paper-wmrl', 'paper-grpo-all-real', 'greater', `WMRL is not worse than all-real GRPO held-out by more than ${NON_INFERIORITY_MARGIN} points (non-inferiority)`),
  { id: 'A1', family: 'A', a: 'paper-grpo-all-real', b: 'paper-wmrl', metric: 'busyTotal', kind: 'ratio', direction: 'greater', statement: 'WMRL needs less training compute (total busy time) than all-real GRPO (claim 1)' },
  held('A2', 'A', 'paper-world-model-only', 'paper-grpo-all-real', 'less', 'the world model alone scores below all-real GRPO (claim 2)'),
  held('A3', 'A', 'paper-wmrl', 'paper-ablation-debias-only', 'greater', 'removing denoising lowers the score (claim 3)'),
  held('A4', 'A', 'paper-wmrl', 'paper-ablation-denoise-only', 'greater', 'removing debiasing lowers the score (claim 3)'),
  held('A5', 'A', 'paper-ablation-debias-only', 'paper-ablation-denoise-only', 'greater', 'debiasing carries more than denoising (claim 3)'),
  { ...held('A6', 'A', 'paper-wmrl', LARGER_SFT_PRESET, 'greater', 'the small policy after WMRL beats the larger SFT policy (claim 4)'), metricB: 'heldOut' },
  { id: 'A7', family: 'A', a: 'paper-wmrl-unreadable', b: 'paper-wmrl', metric: 'meanAuthorsWeight', kind: 'difference', direction: 'greater', statement: "an unreadable world model raises the authors' anchor weight (claim 5)" },
  { ...held('A8', 'A', 'paper-wmrl', SFT_PRESET, 'greater', 'WMRL moves the policy above SFT'), metricB: 'heldOut' },
  { ...held('A9', 'A', 'paper-grpo-all-real', SFT_PRESET, 'greater', 'all-real GRPO moves the policy above SFT'), metricB: 'heldOut' },
  ...FAMILY_B_PRESETS.map((p, i) => held(`B${i + 1}`, 'B', p, 'paper-wmrl', 'two-sided', `${p} against paper-wmrl`)),
];

/** The file beside summary.md that holds the primary pair's picture (held-out score against training busy time). */
export const PRIMARY_CURVE_FILE = 'curve-primary.svg';

/** The curve of the primary pair alone, all-real GRPO first: the picture the plan's report shows. */
export function primaryCurveRows(runs: readonly RunResult[]): CurveRow[] {
  const primary = MAIN_TABLE_TESTS.find((t) => t.family === 'primary')!;
  return curveRows(runs, [primary.b, primary.a]).filter((r) => r.preset === primary.a || r.preset === primary.b);
}

const seedRange = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * The plan's rows and the seeds each is planned at: SFT (evaluation only), the primary pair and the
 * larger SFT policy at 16 seeds (3 to 18), the rest of the authors' block at 10 (3 to 12), family B at 5 (3 to 7).
 */
export const MAIN_TABLE_ROWS: readonly { preset: string; seeds: readonly number[] }[] = [
  { preset: SFT_PRESET, seeds: seedRange(3, 18) },
  { preset: 'paper-grpo-all-real', seeds: seedRange(3, 18) },
  { preset: 'paper-wmrl', seeds: seedRange(3, 18) },
  { preset: LARGER_SFT_PRESET, seeds: seedRange(3, 18) },
  ...['paper-world-model-only', 'paper-ablation-neither', 'paper-ablation-denoise-only', 'paper-ablation-debias-only', 'paper-wmrl-unreadable'].map((preset) => ({ preset, seeds: seedRange(3, 12) })),
  ...FAMILY_B_PRESETS.map((preset) => ({ preset, seeds: seedRange(3, 7) })),
];

/** How far the table has come: every row of the plan with its planned seeds, those done and those failed. */
export function mainTableProgress(runs: readonly RunResult[]): RowProgress[] {
  return planProgress(MAIN_TABLE_ROWS, (preset, seed) => {
    const has = (status: RunResult['status']) => runs.some((r) => r.preset === preset && r.seed === seed && r.status === status);
    return has('ok') ? 'ok' : has('failed') ? 'failed' : null;
  });
}

/** "3-18" for three or more consecutive seeds, else the list ("3, 5"). */
export const seedSpan = (seeds: readonly number[], dash = '-'): string =>
  seeds.length > 2 && seeds.every((s, i) => i === 0 || s === seeds[i - 1] + 1) ? `${seeds[0]}${dash}${seeds.at(-1)}` : seeds.join(', ');

/** A p value as the tables print it. */
export const formatP = (p: number | null, none = '—'): string => (p === null ? none : p < 0.001 ? '< 0.001' : p.toFixed(3));

export interface DecidedTest extends MainTableTest {
  comparison: PairedComparison;
  /** Two-sided paired t-test p (null with fewer than 2 seeds). */
  p: number | null;
  /** Holm-adjusted within the family (the primary test is alone: its p). */
  pHolm: number | null;
  /** Family B has none: it is attribution, not a claim. */
  verdict: Verdict | null;
}

/** The null value of a test: 1 for a ratio, 0 for a difference. */
const nullValue = (t: Pick<MainTableTest, 'kind'>): number => (t.kind === 'ratio' ? 1 : 0);

function primaryVerdict(c: PairedComparison): Verdict {
  if (c.seeds.length === 0) return 'not run';
  const iv = c.interval;
  if (!iv || iv.low === null || iv.high === null) return 'undecided';
  if (iv.low > -NON_INFERIORITY_MARGIN) return 'holds';
  if (iv.high < 0) return 'fails';
  return 'undecided';
}

function familyVerdict(t: MainTableTest, c: PairedComparison, pHolm: number | null): Verdict {
  if (c.seeds.length === 0) return 'not run';
  if (pHolm === null || pHolm >= FAMILY_ALPHA || !c.interval) return 'undecided';
  const above = c.interval.mean > nullValue(t);
  return (t.direction === 'greater') === above ? 'holds' : 'fails';
}

/** Every test of the plan, compared seed by seed, p-valued, Holm-corrected within its family and decided. */
export function decideMainTable(runs: readonly RunResult[], tests: readonly MainTableTest[] = MAIN_TABLE_TESTS, level = 0.95): DecidedTest[] {
  const compared = tests.map((t) => {
    const comparison = pairedComparison(runs, t.a, t.b, t.metric, t.kind, level, t.metricB);
    return { t, comparison, p: tTestP(comparison.perSeed, nullValue(t)) };
  });
  const adjusted = new Map<MainTableTest, number | null>();
  for (const family of ['A', 'B'] as const) {
    const members = compared.filter((x) => x.t.family === family);
    // m is the whole family: a test without a p yet (a row not run, one seed) counts as p = 1, so a
    // table decided in pieces is never corrected over fewer tests than its plan names.
    holmAdjust(members.map((x) => x.p ?? 1)).forEach((q, i) => adjusted.set(members[i].t, members[i].p === null ? null : q));
  }
  return compared.map(({ t, comparison, p }) => {
    const pHolm = t.family === 'primary' ? p : adjusted.get(t) ?? null;
    const verdict = t.family === 'primary' ? primaryVerdict(comparison) : t.family === 'A' ? familyVerdict(t, comparison, pHolm) : null;
    return { ...t, comparison, p, pHolm, verdict };
  });
}

/**
 * What the world model cost before any run (docs/models.md): 3,595 distinct programs executed to
 * build its training and validation data, and its own training (the manifest's stage seconds).
 */
export interface WorldModelBuildCost {
  executions: number;
  trainingSeconds: number;
  /** Runs the build is shared over. */
  amortisedOver: number;
}

export const WORLD_MODEL_EXECUTIONS = 3595;
export const AMORTISED_OVER = 10;

export interface AmortisedRatio {
  seeds: number[];
  /** all-real busy / (WMRL busy + the build's share), per seed. */
  perSeed: number[];
  interval: MeanInterval | null;
  /** The build's share per run, seconds, per seed (it depends on that seed's measured price of an execution). */
  sharePerRun: number[];
}

/** Per seed with both runs: each run's training busy seconds and the build's, each build execution priced at what one execution cost in that seed's run of `a`. */
function busyWithBuild(runs: readonly RunResult[], build: Omit<WorldModelBuildCost, 'amortisedOver'>, a: string, b: string): { seed: number; a: number; b: number; build: number }[] {
  const find = (preset: string, seed: number) => runs.find((r) => r.preset === preset && r.seed === seed && r.status === 'ok' && r.training);
  const out: { seed: number; a: number; b: number; build: number }[] = [];
  for (const seed of [...new Set(runs.map((r) => r.seed))].sort((x, y) => x - y)) {
    const ra = find(a, seed)?.training;
    const rb = find(b, seed)?.training;
    if (!ra || !rb || ra.counts.executions === 0) continue;
    const perExecution = ((ra.busyMs.sandbox ?? 0) + (ra.busyMs.sandboxStart ?? 0)) / 1000 / ra.counts.executions;
    out.push({ seed, a: ra.totalBusyMs / 1000, b: rb.totalBusyMs / 1000, build: build.executions * perExecution + build.trainingSeconds });
  }
  return out;
}

/**
 * Claim 1 with the world model's own cost: each of the build's executions is priced at what one
 * execution cost in that seed's all-real run (its sandbox and start-up busy seconds over its
 * executions; the build's own per-program records are not committed and leave out start-up), plus
 * the world model's training, shared over `amortisedOver` runs. Descriptive: no test.
 */
export function amortisedComputeRatio(runs: readonly RunResult[], build: WorldModelBuildCost, a = 'paper-grpo-all-real', b = 'paper-wmrl', level = 0.95): AmortisedRatio {
  const seeds: number[] = [];
  const perSeed: number[] = [];
  const sharePerRun: number[] = [];
  for (const x of busyWithBuild(runs, build, a, b)) {
    const share = x.build / build.amortisedOver;
    seeds.push(x.seed);
    sharePerRun.push(share);
    perSeed.push(x.a / (x.b + share));
  }
  return { seeds, perSeed, interval: perSeed.length > 0 ? tInterval(perSeed, level) : null, sharePerRun };
}

export interface BreakEven {
  seeds: number[];
  /**
   * Per seed, the runs the world model's build must be shared over before b plus its share of the build
   * costs less busy time than a: build / (a - b). Infinity where b is not cheaper than a (it never pays back).
   */
  perSeed: number[];
  /** Over the seeds; null when there are none or some seed never pays back. */
  interval: MeanInterval | null;
}

const breakEven = (seeds: number[], perSeed: number[], level: number): BreakEven => ({
  seeds, perSeed, interval: perSeed.length > 0 && perSeed.every(Number.isFinite) ? tInterval(perSeed, level) : null,
});

/**
 * Claim 1's price in runs rather than at a chosen run count: how many runs must share the world
 * model's build (priced as in amortisedComputeRatio) before WMRL with its share costs less busy time
 * than all-real GRPO. Descriptive: no test.
 */
export function breakEvenRuns(runs: readonly RunResult[], build: Omit<WorldModelBuildCost, 'amortisedOver'>, a = 'paper-grpo-all-real', b = 'paper-wmrl', level = 0.95): BreakEven {
  const rows = busyWithBuild(runs, build, a, b);
  return breakEven(rows.map((x) => x.seed), rows.map((x) => (x.a > x.b ? x.build / (x.a - x.b) : Number.POSITIVE_INFINITY)), level);
}

/**
 * The same break-even from a summary, which keeps ratios, not busy seconds: per seed the plain ratio
 * r = a / b (test A1) and the amortised one q = a / (b + build / over) give build = over (a / q - b) and
 * a - b = b (r - 1), so the break-even is over (r / q - 1) / (r - 1). The page has only the summary.
 */
export function breakEvenFromRatios(plain: Pick<PairedComparison, 'seeds' | 'perSeed'>, amortised: Pick<AmortisedRatio, 'seeds' | 'perSeed'>, over = AMORTISED_OVER, level = 0.95): BreakEven {
  const seeds: number[] = [];
  const perSeed: number[] = [];
  amortised.seeds.forEach((seed, i) => {
    const j = plain.seeds.indexOf(seed);
    if (j < 0) return;
    const r = plain.perSeed[j];
    const q = amortised.perSeed[i];
    seeds.push(seed);
    perSeed.push(r > 1 ? (over * (r / q - 1)) / (r - 1) : Number.POSITIVE_INFINITY);
  });
  return breakEven(seeds, perSeed, level);
}

/**
 * Claim 4's comparator against the small SFT policy, seed by seed, from the decided tests alone: A8
 * (paper-wmrl - sft) minus A6 (paper-wmrl - sft-larger) is sft-larger - sft, since both read
 * paper-wmrl's same value. Null when either test has no seeds.
 */
export function largerSftAgainstSft(decided: readonly DecidedTest[], level = 0.95): { seeds: number[]; perSeed: number[]; interval: MeanInterval } | null {
  const a6 = decided.find((t) => t.a === 'paper-wmrl' && t.b === LARGER_SFT_PRESET)?.comparison;
  const a8 = decided.find((t) => t.a === 'paper-wmrl' && t.b === SFT_PRESET)?.comparison;
  if (!a6 || !a8) return null;
  const seeds = a8.seeds.filter((s) => a6.seeds.includes(s));
  if (seeds.length === 0) return null;
  const perSeed = seeds.map((s) => a8.perSeed[a8.seeds.indexOf(s)] - a6.perSeed[a6.seeds.indexOf(s)]);
  return { seeds, perSeed, interval: tInterval(perSeed, level) };
}

export interface PrimaryDetectable { seeds: number; pilotSd: number; atPilotSd: number; measuredSd: number | null; atMeasuredSd: number | null }

/** The primary test's minimum detectable difference at its planned seeds: at the pilot's SD (the plan's figure) and at the SD measured so far. */
export function primaryDetectable(primary: DecidedTest): PrimaryDetectable {
  const seeds = MAIN_TABLE_ROWS.find((r) => r.preset === primary.a)?.seeds.length ?? primary.comparison.seeds.length;
  const sd = primary.comparison.interval?.sd ?? null;
  return {
    seeds, pilotSd: PILOT_SD_OF_PRIMARY, atPilotSd: minimumDetectableDifference(PILOT_SD_OF_PRIMARY, seeds),
    measuredSd: sd, atMeasuredSd: sd === null ? null : minimumDetectableDifference(sd, seeds),
  };
}

export interface TestDetectable {
  /** The seeds the test is planned at (the fewer of its two rows'). */
  seeds: number;
  /** Two-sided level: what Holm asks of the family's next test, the family's alpha over its tests not yet decided. */
  level: number;
  sd: number;
  /** The smallest true difference (or ratio minus 1) found with 80% power at that level, at the SD measured so far. */
  atMeasuredSd: number;
}

/**
 * Why a family test may stay "undecided": what it can detect at its planned seeds with the spread
 * measured so far. Holm lets the next test through at the family's alpha over the tests still
 * undecided, so that is the level used (a later test, once that one passes, gets a looser one).
 * Null for a test already decided (its Holm p below the alpha) or with fewer than 3 seeds (an SD
 * from two seeds says next to nothing).
 */
export function familyDetectable(t: DecidedTest, decided: readonly DecidedTest[]): TestDetectable | null {
  if (t.family === 'primary' || (t.pHolm !== null && t.pHolm < FAMILY_ALPHA)) return null;
  const sd = t.comparison.interval?.sd;
  if (sd === undefined || sd === null || t.comparison.seeds.length < 3) return null;
  const family = decided.filter((x) => x.family === t.family);
  const open = family.filter((x) => !(x.pHolm !== null && x.pHolm < FAMILY_ALPHA)).length;
  const planned = (preset: string) => MAIN_TABLE_ROWS.find((r) => r.preset === preset)?.seeds.length ?? t.comparison.seeds.length;
  const seeds = Math.min(planned(t.a), planned(t.b));
  const level = FAMILY_ALPHA / open;
  return { seeds, level, sd, atMeasuredSd: minimumDetectableDifference(sd, seeds, level) };
}
