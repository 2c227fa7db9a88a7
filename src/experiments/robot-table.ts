// The robot domain's tables as data (plans, each committed in docs/results.md before its first run) and
// their decision from run files. v1 (issue 24, "The robot table: plan") and v2 (issue 46, its DRAFT) share
// the rules: the endpoint is held-out success x100 over every evaluation rollout (the training tasks'
// held-out initial states and the held-out tasks, pooled), paired by seed. The primary test stands alone:
// two-sided paired t; it holds when the whole 95% interval is above 0, fails when it is below. Family R
// (Holm over all its tests; a test without a p yet counts as p = 1) decides as the main table's family A.
// A plan differs only in its rows, its tests and the paper's figures beside its rows.
import type { RobotRunResult } from '../embodied/robot-run.ts';
import type { Verdict } from './claims.ts';
import { tInterval, type MeanInterval } from './interval.ts';
import { holmAdjust, tTestP } from './multiplicity.ts';
import { sourceLine, type WithProvenance } from './provenance.ts';
import { planComplete, planProgress, progressCounts, rowsAwaited, type RowProgress } from './plan-progress.ts';
import { robotSignal } from './robot-signal.ts';
import { medianOf } from '../primitives/median.ts';

export const ROBOT_TABLE_ROWS = ['robot-sft', 'robot-grpo-sparse', 'robot-progress-only', 'robot-wmrl', 'robot-neither', 'robot-debias-only', 'robot-fusion-only'] as const;
export const ROBOT_FAMILY_ALPHA = 0.05;

/** A row of the paper's embodied result (MiniVLA-1B on LIBERO-Long, success rate x100) and our row it stands beside. */
export interface PaperRobotRow {
  preset: (typeof ROBOT_TABLE_ROWS)[number];
  row: string;
  /** Success rate x100, as the paper's Table 3 gives it; null where only a difference is reported. */
  success: number | null;
  /** Points over SFT. */
  overSft: number | null;
  source: string;
}

/** The paper's Table 3 and the authors' README (their embodied/): the one place these numbers live. */
export const PAPER_TABLE_3: readonly PaperRobotRow[] = [
  { preset: 'robot-sft', row: 'SFT policy', success: 37.4, overSft: null, source: 'Table 3' },
  { preset: 'robot-grpo-sparse', row: 'GRPO on the sparse success', success: 38.3, overSft: 0.9, source: 'Table 3' },
  { preset: 'robot-progress-only', row: 'progress model (dense) only', success: null, overSft: 1.8, source: "the authors' README (embodied/)" },
  { preset: 'robot-wmrl', row: 'WMRL: dense reward, sparse success as the anchor, both corrections', success: 41.2, overSft: 3.8, source: 'Table 3' },
];

/** What the robot CLI writes as summary.json. */
export interface RobotTableSummary {
  format: 'wmrl-robot-table-summary';
  version: 1;
  /** The plan decided (RobotTablePlan.name); absent: robot-table, whose committed summaries predate the field and rewrite unchanged. */
  plan?: string;
  command: string;
  /** Each row's planned seeds and those finished: a verdict is provisional while a row it waits for is short. */
  progress: RowProgress[];
  rows: RobotRowSummary[];
  tests: PlannedRobotTest[];
}

export function robotTableSummary(runs: readonly RobotRunResult[], command: string, plan: RobotTablePlan = ROBOT_TABLE_V1): RobotTableSummary {
  const progress = robotTableProgress(runs, plan);
  return {
    format: 'wmrl-robot-table-summary', version: 1, ...(plan === ROBOT_TABLE_V1 ? {} : { plan: plan.name }), command,
    progress, rows: summariseRobotRows(runs, plan.rows), tests: decideWithFinality(runs, plan, progress),
  };
}

export interface RobotRunMetrics {
  /** The endpoint: successes over every evaluation rollout of both sets, x100. */
  heldOut: number;
  trainTasksHeldoutStates: number;
  heldoutTasks: number;
  /** Mean training success of the run's steps, x100; null for the SFT row. */
  training: number | null;
}

export function robotRunMetrics(r: RobotRunResult): RobotRunMetrics {
  const a = r.evaluation.trainTasksHeldoutStates;
  const b = r.evaluation.heldoutTasksHeldoutStates;
  return {
    heldOut: (100 * (a.successes + b.successes)) / (a.episodes + b.episodes),
    trainTasksHeldoutStates: (100 * a.successes) / a.episodes,
    heldoutTasks: (100 * b.successes) / b.episodes,
    training: r.steps.length === 0 ? null : (100 * r.steps.reduce((s, x) => s + x.successRate, 0)) / r.steps.length,
  };
}

export interface RobotTableTest {
  id: string;
  family: 'primary' | 'R';
  a: string;
  b: string;
  /** The side the paper's numbers put a on. */
  direction: 'greater';
  statement: string;
}

const test = (id: string, family: RobotTableTest['family'], a: string, b: string, statement: string): RobotTableTest => ({ id, family, a, b, direction: 'greater', statement });

export const ROBOT_TABLE_TESTS: readonly RobotTableTest[] = [
  test('primary', 'primary', 'robot-wmrl', 'robot-grpo-sparse', 'WMRL (dense progress + one sparse anchor group, both corrections) beats GRPO on the sparse success'),
  test('R1', 'R', 'robot-progress-only', 'robot-grpo-sparse', 'the dense progress reward alone beats the sparse success alone'),
  test('R2', 'R', 'robot-wmrl', 'robot-neither', 'the corrections together add to dense + anchors without them'),
  test('R3', 'R', 'robot-wmrl', 'robot-debias-only', 'fusion adds to debiasing alone'),
  test('R4', 'R', 'robot-wmrl', 'robot-fusion-only', 'debiasing adds to fusion alone'),
  ...ROBOT_TABLE_ROWS.filter((p) => p !== 'robot-sft').map((p, i) => test(`R${i + 5}`, 'R', p, 'robot-sft', `${p} moves the policy above SFT`)),
];

/** A robot table's plan: what the CLI's `--plan` decides a folder by. */
export interface RobotTablePlan {
  /** The CLI's `--plan` value. */
  name: string;
  /** summary.md's first line. */
  title: string;
  /** The docs/results.md section the plan is written in (the start of its heading). */
  section: string;
  /** The rows in the summary's order. */
  rows: readonly string[];
  /** The seeds every row is planned at. */
  seeds: readonly number[];
  tests: readonly RobotTableTest[];
  /** Per row, the paper's figure it is shown beside; a row not named has none. */
  paper: Readonly<Partial<Record<string, PaperRobotRow>>>;
}

/** The paper's figure that v1's row `preset` stands beside. */
const paperOf = (preset: PaperRobotRow['preset']): PaperRobotRow => PAPER_TABLE_3.find((r) => r.preset === preset)!;

/** Issue 24's table (docs/results.md, "The robot table: plan"), on the first behaviour-cloning policy. */
export const ROBOT_TABLE_V1: RobotTablePlan = {
  name: 'robot-table',
  title: '# Robot table (issue 24)',
  section: 'The robot table: plan',
  rows: ROBOT_TABLE_ROWS,
  seeds: [1, 2, 3, 4, 5],
  tests: ROBOT_TABLE_TESTS,
  paper: Object.fromEntries(PAPER_TABLE_3.map((r) => [r.preset, r])),
};

const V2_TRAINED = ['robot-paper-grpo-sparse', 'robot-paper-wmrl', 'robot-paper-wmrl-anchors', 'robot-paper-progress-only'] as const;

/**
 * Issue 46's table on the authors' rules (docs/results.md, "Robot table v2 (issue 46): plan", a DRAFT until
 * a commit pre-registers it). Beside its rows, only Table 3's figures: SFT, real GRPO, WMRL.
 */
export const ROBOT_TABLE_V2: RobotTablePlan = {
  name: 'robot-table-v2',
  title: '# Robot table v2 (issue 46, `--plan robot-table-v2`)',
  section: 'Robot table v2 (issue 46): plan',
  rows: ['robot-sft', ...V2_TRAINED],
  seeds: [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
  tests: [
    test('primary', 'primary', 'robot-paper-wmrl', 'robot-paper-grpo-sparse', "WMRL in the authors' free-anchor regime beats GRPO on the sparse success (the paper: 41.2 against 38.3)"),
    // R1 (robot-paper-grpo-sparse - robot-sft) is issue 46's target: all-real GRPO above its start.
    ...V2_TRAINED.map((p, i) => test(`R${i + 1}`, 'R', p, 'robot-sft', i === 0 ? "all-real GRPO moves the policy above its start (issue 46's target)" : `${p} moves the policy above SFT`)),
    test('R5', 'R', 'robot-paper-wmrl', 'robot-paper-wmrl-anchors', "the two anchor regimes: every rollout's success calibrating (the authors') against the anchor group's alone (the coding table's)"),
    test('R6', 'R', 'robot-paper-progress-only', 'robot-paper-grpo-sparse', 'the dense progress reward alone beats the sparse success alone'),
  ],
  paper: { 'robot-sft': paperOf('robot-sft'), 'robot-paper-grpo-sparse': paperOf('robot-grpo-sparse'), 'robot-paper-wmrl': paperOf('robot-wmrl') },
};

export const ROBOT_TABLE_PLANS: readonly RobotTablePlan[] = [ROBOT_TABLE_V1, ROBOT_TABLE_V2];

export const robotTablePlan = (name: string): RobotTablePlan | undefined => ROBOT_TABLE_PLANS.find((p) => p.name === name);

/** Each row of the plan at its planned seeds, those with a finished run (a robot run on disk is a finished one). */
export function robotTableProgress(runs: readonly RobotRunResult[], plan: RobotTablePlan): RowProgress[] {
  const rows = plan.rows.map((preset) => ({ preset, seeds: plan.seeds }));
  return planProgress(rows, (preset, seed) => (runs.some((r) => r.request.preset === preset && r.request.seed === seed) ? 'ok' : null));
}

/** The plan's tests decided, each with the rows its verdict still waits for (none: final). */
function decideWithFinality(runs: readonly RobotRunResult[], plan: RobotTablePlan, progress: readonly RowProgress[]): PlannedRobotTest[] {
  return decideRobotTable(runs, plan.tests).map((t) => ({ ...t, awaits: rowsAwaited(t, progress, plan.tests) }));
}

/** A verdict as the summary (and the page) prints it: a decided one that the plan's runs still to come can change says so. */
export const shownVerdict = (t: PlannedRobotTest, offPlan = false): string =>
  !offPlan && t.awaits.length > 0 && (t.verdict === 'holds' || t.verdict === 'fails') ? `${t.verdict} (provisional)` : t.verdict;

export interface RobotComparison {
  seeds: number[];
  /** a - b per paired seed, on the endpoint. */
  perSeed: number[];
  interval: MeanInterval | null;
}

export interface DecidedRobotTest extends RobotTableTest {
  comparison: RobotComparison;
  p: number | null;
  /** Holm-adjusted within family R; the primary test's own p. */
  pHolm: number | null;
  verdict: Verdict;
}

/** a - b on the endpoint, seed by seed, over the seeds where both ran. */
export function robotComparison(runs: readonly RobotRunResult[], a: string, b: string, level = 0.95): RobotComparison {
  const at = (preset: string, seed: number) => runs.find((r) => r.request.preset === preset && r.request.seed === seed);
  const seeds = [...new Set(runs.map((r) => r.request.seed))].sort((x, y) => x - y).filter((s) => at(a, s) && at(b, s));
  const perSeed = seeds.map((s) => robotRunMetrics(at(a, s)!).heldOut - robotRunMetrics(at(b, s)!).heldOut);
  return { seeds, perSeed, interval: perSeed.length > 0 ? tInterval(perSeed, level) : null };
}

function verdictOf(c: RobotComparison, significant: boolean | null): Verdict {
  if (c.seeds.length === 0) return 'not run';
  const iv = c.interval;
  if (!iv || !significant) return 'undecided';
  return iv.mean > 0 ? 'holds' : 'fails';
}

export function decideRobotTable(runs: readonly RobotRunResult[], tests: readonly RobotTableTest[] = ROBOT_TABLE_TESTS, level = 0.95): DecidedRobotTest[] {
  const compared = tests.map((t) => {
    const comparison = robotComparison(runs, t.a, t.b, level);
    return { t, comparison, p: tTestP(comparison.perSeed) };
  });
  const family = compared.filter((x) => x.t.family === 'R');
  const adjusted = new Map<RobotTableTest, number | null>();
  holmAdjust(family.map((x) => x.p ?? 1)).forEach((q, i) => adjusted.set(family[i].t, family[i].p === null ? null : q));
  return compared.map(({ t, comparison, p }) => {
    if (t.family === 'primary') {
      // The interval alone decides the primary test (equivalent to p < 0.05 two-sided).
      const iv = comparison.interval;
      const significant = iv && iv.low !== null && iv.high !== null ? iv.low > 0 || iv.high < 0 : null;
      return { ...t, comparison, p, pHolm: p, verdict: verdictOf(comparison, significant) };
    }
    const pHolm = adjusted.get(t) ?? null;
    return { ...t, comparison, p, pHolm, verdict: verdictOf(comparison, pHolm === null ? null : pHolm < ROBOT_FAMILY_ALPHA) };
  });
}

/** A decided test of a plan with the rows its verdict still waits for (none: final). */
export type PlannedRobotTest = DecidedRobotTest & { awaits: string[] };

export interface RobotRowSummary {
  preset: string;
  seeds: number[];
  heldOut: MeanInterval | null;
  trainTasksHeldoutStates: MeanInterval | null;
  heldoutTasks: MeanInterval | null;
  training: MeanInterval | null;
  /** Median wall seconds of a run (training and evaluation). */
  medianWallS: number | null;
}

export function summariseRobotRows(runs: readonly RobotRunResult[], rows: readonly string[] = ROBOT_TABLE_ROWS, level = 0.95): RobotRowSummary[] {
  return rows.map((preset) => {
    const mine = runs.filter((r) => r.request.preset === preset).sort((x, y) => x.request.seed - y.request.seed);
    const m = mine.map(robotRunMetrics);
    const iv = (xs: (number | null)[]) => {
      const v = xs.filter((x): x is number => x !== null);
      return v.length > 0 ? tInterval(v, level) : null;
    };
    const walls = mine.map((r) => r.wallMs / 1000);
    return {
      preset, seeds: mine.map((r) => r.request.seed),
      heldOut: iv(m.map((x) => x.heldOut)), trainTasksHeldoutStates: iv(m.map((x) => x.trainTasksHeldoutStates)), heldoutTasks: iv(m.map((x) => x.heldoutTasks)), training: iv(m.map((x) => x.training)),
      medianWallS: walls.length === 0 ? null : medianOf(walls),
    };
  });
}

const f1 = (x: number) => x.toFixed(1);
const cell = (iv: MeanInterval | null): string => (iv === null ? '-' : iv.low === null ? `${f1(iv.mean)} (1 seed)` : `${f1(iv.mean)} [${f1(iv.low)}, ${f1(iv.high!)}]`);
const pOf = (p: number | null): string => (p === null ? '-' : p < 0.001 ? '< 0.001' : p.toFixed(3));

/** summary.md of a robot experiment: the rows beside the paper's Table 3, then every planned test. */
/** Each row's training signal against the success, over its groups not executed for real (robot-signal.ts); none where no row has such a group. */
function signalTable(runs: readonly RobotRunResult[], rows: readonly string[]): string[] {
  const percent = (xs: (number | null)[]): string => {
    const v = xs.filter((x): x is number => x !== null).map((x) => 100 * x);
    return v.length === 0 ? '-' : cell(tInterval(v, 0.95));
  };
  const lines = rows.map((row) => {
    const signals = runs.filter((r) => r.request.preset === row).map(robotSignal);
    const groups = signals.reduce((a, x) => a + x.groups, 0);
    if (groups === 0) return null;
    const flat = signals.reduce((a, x) => a + x.flatGroups, 0);
    const flatWithAdvantage = signals.reduce((a, x) => a + x.flatWithAdvantage, 0);
    return `| ${row} | ${signals.length} | ${groups} | ${percent(signals.map((x) => x.successRanked))} | ${percent(signals.map((x) => x.wrongSign))} | ${flatWithAdvantage} of ${flat} |`;
  }).filter((l): l is string => l !== null);
  if (lines.length === 0) return [];
  return [
    'Where the training signal differs from the success (descriptive, in no plan; src/experiments/robot-signal.ts). Over the groups not executed for real, whose reward is the calibrated progress score: how often it puts a success above a failure of the same group, the share of the advantages of groups with both outcomes that point against the rollout\'s success, and the groups whose rollouts all succeed or all fail (no signal for GRPO on the success) that still get an advantage. Mean over seeds [95% t interval]:',
    '',
    '| row | seeds | groups | reward ranks a success above a failure % | advantages against the success % | one-outcome groups with an advantage |',
    '|---|---|---|---|---|---|',
    ...lines,
    '',
  ];
}

export function robotTableMarkdown(runs: readonly WithProvenance<RobotRunResult>[], command: string, plan: RobotTablePlan = ROBOT_TABLE_V1): string {
  const rows = summariseRobotRows(runs, plan.rows);
  const progress = robotTableProgress(runs, plan);
  const decided = decideWithFinality(runs, plan, progress);
  const counts = progressCounts(progress);
  // a pilot decided by a plan's rules: nothing in it can make the plan's verdicts final or provisional
  const offPlan = runs.length > 0 && !runs.some((r) => plan.seeds.includes(r.request.seed));
  const first = runs[0];
  const source = sourceLine(runs.map((r) => r.provenance));
  const lines = [
    plan.title,
    '',
    `Generated from ${runs.length} run file(s) by \`${command}\`. Plan: docs/results.md, "${plan.section}".`,
    ...(source ? [source] : []),
    first ? `Evaluation: ${first.request.evaluation.statesPerTask} held-out initial state(s) per task, ${first.request.evaluation.temperature === 0 ? 'greedy' : `sampled at temperature ${first.request.evaluation.temperature}, ${first.request.evaluation.trials ?? 1} rollout(s) each`}, the same states and draws for every row at a seed.` : '',
    '',
    offPlan
      ? `No run here is at the plan's seeds (${plan.seeds.join(', ')}): a pilot or a side experiment. The tests below apply the plan's rules to these runs and decide nothing for the plan.`
      : planComplete(progress)
      ? `Every row has a finished run at each of its ${plan.seeds.length} planned seeds: the verdicts are final.`
      : `In progress: ${counts.done} of the ${counts.planned} planned runs (seeds ${plan.seeds.join(', ')} for every row) have finished; the table gives each row's seeds so far. A verdict is provisional until every row it waits for has all its planned seeds: the primary test its own two rows, a test of family R every row the family names (Holm adjusts each p by the others').`,
    '',
    'Held-out success x100, mean over seeds [95% t interval]; the endpoint pools both held-out sets.',
    '',
    '| row | seeds | held-out success (endpoint) | training tasks, held-out states | held-out tasks | training success (steps) | paper | median wall s |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const paper = plan.paper[r.preset];
      const quoted = !paper ? '-' : paper.success !== null ? `${paper.success} (${paper.source})` : `SFT + ${paper.overSft} (${paper.source})`;
      return `| ${r.preset} | ${r.seeds.length} | ${cell(r.heldOut)} | ${cell(r.trainTasksHeldoutStates)} | ${cell(r.heldoutTasks)} | ${cell(r.training)} | ${quoted} | ${r.medianWallS === null ? '-' : r.medianWallS.toFixed(0)} |`;
    }),
    '',
    'Tests (difference a - b on the endpoint, paired by seed; two-sided t; family R Holm-corrected over all its tests, a test without a p counting as 1):',
    '',
    '| test | a - b | seeds | difference [95% CI] | p | p (Holm) | verdict |',
    '|---|---|---|---|---|---|---|',
    ...decided.map((d) => `| ${d.id} | ${d.a} - ${d.b} | ${d.comparison.seeds.length} | ${cell(d.comparison.interval)} | ${pOf(d.p)} | ${d.family === 'primary' ? '(alone)' : pOf(d.pHolm)} | ${shownVerdict(d, offPlan)} |`),
    '',
    ...decided.map((d) => `- ${d.id}: ${d.statement}.`),
    '',
    ...signalTable(runs, plan.rows),
  ];
  return lines.filter((l, i) => !(l === '' && lines[i - 1] === '')).join('\n');
}
