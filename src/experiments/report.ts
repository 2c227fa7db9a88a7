// The Markdown report of an experiment: the configuration it ran with, per preset mean and 95%
// Student-t interval over seeds of the held-out score and of the compute, and the paired comparisons
// behind the claims of method.md 5 (claim 1's busy-time ratio of all-real GRPO to WMRL first).
import { evaluateClaims, NON_INFERIORITY_MARGIN, type ClaimResult } from './claims.ts';
import { curveRows, METRICS, pairedComparison, summarisePresets, type MetricKey, type PairedComparison, type PresetSummary } from './aggregate.ts';
import type { MeanInterval } from './interval.ts';
import { sourceLine } from './provenance.ts';
import { SFT_PRESET, type RunResult } from './run-result.ts';
import { studentTQuantile } from './student-t.ts';
import { amortisedComputeRatio, decideMainTable, FAMILY_ALPHA, familyDetectable, MAIN_TABLE_TESTS, formatP, primaryDetectable, mainTableProgress, PRIMARY_CURVE_FILE, primaryCurveRows, PRIMARY_METRIC, seedSpan, type DecidedTest, type WorldModelBuildCost } from './main-table.ts';
import { planComplete, planProgress, progressCounts, rowsAwaited, type RowProgress } from './plan-progress.ts';
import { CLAIMS } from './claims.ts';
import { PRESETS } from '../training/presets.ts';
import { COMPUTE_PAIRS, type RerunComparison } from './rerun.ts';
import { CONTROLS_ALPHA, CONTROLS_PLAN, CONTROLS_ROWS, CONTROLS_TESTS, CONTROLS_TWIN_FOLDER, controlsPrimaryCurveRows, controlsReading, decideControls, measuredDetectable, twinAgreement, MAIN_V3_SD, plannedDetectable, type DecidedControl } from './controls-table.ts';
import { failedRealGroups } from '../training/failed-real-groups.ts';

export interface ReportInput {
  title: string;
  runs: readonly RunResult[];
  /** Preset order of the tables. */
  presets: readonly string[];
  /** The command line that produced it, for the record. */
  command?: string;
  /** The world model's own cost, for the main table's amortised compute ratio (absent: that ratio is left out). */
  worldModelBuild?: WorldModelBuildCost;
  /** These runs rerun some of another folder's alone on the machine: compared with their twins instead of decided by the plan. */
  rerun?: RerunComparison;
  /** The plan that decides the folder (`--plan`); absent: the main table's when paper-* rows ran. */
  plan?: typeof CONTROLS_PLAN;
  /** The controls plan's twin folder's runs (main-v3), for its descriptive check of the first 20 steps. */
  twinRuns?: readonly RunResult[];
}

/** "m [low, high]" (or just m for one seed; an em dash when missing). */
export function formatInterval(iv: MeanInterval | null | undefined, digits: number): string {
  if (!iv) return '—';
  const f = (x: number) => x.toFixed(digits);
  if (iv.low === null || iv.high === null) return `${f(iv.mean)} (n=1)`;
  return `${f(iv.mean)} [${f(iv.low)}, ${f(iv.high)}]`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const esc = (s: string) => s.replaceAll('|', '\\|');
  return [`| ${header.map(esc).join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

const digitsOf = (key: MetricKey): number => METRICS.find((m) => m.key === key)?.digits ?? 2;
const labelOf = (key: MetricKey): string => METRICS.find((m) => m.key === key)?.label ?? key;

function seedsCell(s: PresetSummary): string {
  return s.seeds.join(',') + (s.failedSeeds.length > 0 ? ` (failed: ${s.failedSeeds.join(',')})` : '');
}

function comparisonLine(c: PairedComparison, digits: number): string {
  const op = c.kind === 'ratio' ? '/' : '-';
  if (c.seeds.length === 0) return `- ${c.a} ${op} ${c.b} (${labelOf(c.metric)}): no seed has both runs.`;
  const per = c.seeds.map((s, i) => `seed ${s}: ${c.perSeed[i].toFixed(digits)}`).join('; ');
  const of = c.ofMeans === null ? '' : `; of the means: ${c.ofMeans.toFixed(digits)}`;
  return `- ${c.a} ${op} ${c.b} (${labelOf(c.metric)}), per seed: ${per}; mean of per-seed values ${formatInterval(c.interval, digits)}${of}.`;
}

function testLine(t: ClaimResult['tests'][number]): string {
  const op = t.kind === 'ratio' ? '/' : '-';
  const digits = t.metric === 'meanAnchorWeight' ? 3 : 2;
  const side = `${t.direction === 'greater' ? '>' : '<'} ${t.holdsBeyond}`;
  return `${t.a} ${op} ${t.b} ${side}: ${t.comparison.seeds.length === 0 ? 'not run' : `${formatInterval(t.comparison.interval, digits)}, ${t.verdict}`}`;
}

/** One row per claim: its statement, each test with its interval, the verdict. */
export function claimsTable(claims: readonly ClaimResult[]): string {
  return table(['claim', 'statement', 'tests (metric: held-out x100 unless named)', 'seeds', 'verdict'], claims.map((c) => [
    c.id, c.statement,
    c.tests.map((t) => `${testLine(t)}${t.metric === 'heldOut' ? '' : ` (${labelOf(t.metric)})`}`).join('; '),
    String(Math.min(...c.tests.map((t) => t.comparison.seeds.length))),
    c.verdict + (c.missing.length > 0 ? ` (no run of ${c.missing.join(', ')})` : ''),
  ]));
}

function shareRange(shares: readonly number[]): string {
  if (shares.length === 0) return 'no paired seed';
  const [lo, hi] = [Math.min(...shares).toFixed(0), Math.max(...shares).toFixed(0)];
  return lo === hi ? `${lo} s a run` : `${lo} to ${hi} s a run`;
}


/** Decimals of a plan test's interval in the report (the README quotes it at the same precision). */
export const decidedDigits = (metric: MetricKey): number => (digitsOf(metric) === 3 ? 3 : 2);

function decidedRow(t: DecidedTest, decided: readonly DecidedTest[]): string[] {
  const op = t.kind === 'ratio' ? '/' : '-';
  const side = t.direction === 'two-sided' ? '' : ` ${t.direction === 'greater' ? '>' : '<'} ${t.kind === 'ratio' ? 1 : 0}`;
  const digits = decidedDigits(t.metric);
  return [t.id, `${t.a} ${op} ${t.b}${side}${t.metric === PRIMARY_METRIC ? '' : ` (${labelOf(t.metric)})`}${t.metricB ? ` (${t.b}: ${labelOf(t.metricB)})` : ''}: ${t.statement}`, String(t.comparison.seeds.length), formatInterval(t.comparison.interval, digits), formatP(t.p), formatP(t.pHolm), t.verdict ?? '—', detectableCell(t, decided, digits)];
}

/** The detectable column: at the test's planned seeds, its measured SD and Holm's next level; '—' once decided. */
function detectableCell(t: DecidedTest, decided: readonly DecidedTest[], digits: number): string {
  const d = familyDetectable(t, decided);
  return d === null ? '—' : `${d.atMeasuredSd.toFixed(digits)} (${d.seeds} seeds, level ${d.level.toFixed(3)})`;
}

/** Below this share of held-out programs that run, a checkpoint counts as collapsed. */
/** A run collapsed on held-out when fewer than this share of its held-out programs ran at some checkpoint. */
export const COLLAPSED_VALID_PERCENT = 50;

/** The collapses table's rule (bench/collapse-warning.ts counts by it too); a run without checkpoints never counts. */
export function fellAtCheckpoint(r: Pick<RunResult, 'curve'>): boolean {
  return r.curve !== undefined && r.curve.some((c) => 100 * c.evaluation.validRunRate < COLLAPSED_VALID_PERCENT);
}

/** Collapses along training, which the last evaluation alone can miss: per preset, the fewest held-out programs that ran at any checkpoint, and the real-executed groups where none ran. */
function collapsesTable(runs: readonly RunResult[], summaries: readonly PresetSummary[]): string {
  const rows = summaries.filter((s) => s.metrics.lowestValidRunRate !== undefined).map((s) => {
    const own = runs.filter((r) => r.preset === s.preset && r.status === 'ok').sort((a, b) => a.seed - b.seed);
    const fell = own.filter(fellAtCheckpoint).map((r) => r.seed);
    const groups = own.map((r) => ({ seed: r.seed, ...failedRealGroups(r.records) }));
    const noneRan = groups.reduce((a, g) => a + g.noneRan, 0);
    const executed = groups.reduce((a, g) => a + g.executed, 0);
    const ending = groups.filter((g) => g.endStreak > 0).map((g) => `${g.seed} (last ${g.endStreak} step${g.endStreak === 1 ? '' : 's'})`);
    return [
      s.preset, String(s.seeds.length), formatInterval(s.metrics.lowestValidRunRate, 1), `${fell.length} of ${s.seeds.length}${fell.length > 0 ? ` (${fell.join(', ')})` : ''}`,
      `${noneRan} of ${executed}${executed > 0 ? ` (${(100 * noneRan / executed).toFixed(1)}%)` : ''}`, ending.length > 0 ? ending.join(', ') : 'none',
    ];
  });
  return [
    `Collapses: the fewest held-out programs that ran at any checkpoint of a run, and the seeds where fewer than ${COLLAPSED_VALID_PERCENT}% ran at some checkpoint. `
      + 'Beside them, from the training records (descriptive, not in any plan): the real-executed groups in which no program ran, summed over seeds (such a group can only move the policy among failures), and the seeds whose last steps had no program run in any real-executed group (a step that executed nothing is passed over).',
    '',
    table(['preset', 'seeds', labelOf('lowestValidRunRate'), `seeds below ${COLLAPSED_VALID_PERCENT}% valid at a checkpoint`, 'real groups where no program ran', 'seeds ending with no real program running'], rows),
  ].join('\n');
}

/** Whether a test's verdict is final, and if not, the rows it waits for. */
function finality(t: DecidedTest, progress: readonly RowProgress[], whenFinal: string): string {
  const waiting = rowsAwaited(t, progress, MAIN_TABLE_TESTS);
  return waiting.length === 0 ? `final: ${whenFinal}` : `provisional until these rows reach their planned seeds: ${waiting.join(', ')}`;
}

/** What the primary test can detect: the plan's figure from the pilot's SD, and the same at the SD measured so far. */
function primaryPower(primary: DecidedTest): string {
  const d = primaryDetectable(primary);
  const measured = d.atMeasuredSd === null ? '' : `, ${d.atMeasuredSd.toFixed(1)} at the SD measured here (${d.measuredSd!.toFixed(1)} over ${primary.comparison.seeds.length} seeds)`;
  return `Minimum detectable difference (80% power, two-sided 5%, paired t over ${d.seeds} seeds): ${d.atPilotSd.toFixed(1)} points at the pilot's SD of ${d.pilotSd} (the plan's figure)${measured}. A true difference smaller than that will most likely read "undecided".`;
}

/** A rerun folder read against the folder it reruns: did each rerun do what its twin did, and the compute ratio both ways. */
export function rerunSection(r: RerunComparison): string {
  const lines = [`## Reruns of ${r.of}, alone on the machine`, '',
    `These runs rerun some of ${r.of}'s with nothing else started on the machine, so that their busy times are the work alone (docs/results.md, "Compute alone"). Rewards count work, not time, so each must do what its twin did, timings aside.`, ''];
  const same = r.differences.length === 0;
  lines.push(`Same as their twins: ${same ? `yes, all ${r.compared}` : `no, first differences: ${r.differences.join('; ')}`}${r.withoutTwin.length > 0 ? `; without a twin in ${r.of}: ${r.withoutTwin.join(', ')}` : ''}.`, '');
  if (r.compute) {
    const { alone, table: twins, loadAlone, loadTable } = r.compute;
    const range = (x: [number, number] | null) => (x ? `${x[0].toFixed(2)} to ${x[1].toFixed(2)}` : 'not recorded');
    lines.push(`Compute, busy time of ${alone.a} over ${alone.b}, seed by seed (host load per core over a run: alone ${range(loadAlone)}, in ${r.of} ${range(loadTable)}):`, '');
    lines.push(table(['seed', 'alone', `in ${r.of}`], alone.seeds.map((seed, i) => [String(seed), alone.perSeed[i].toFixed(2), (twins.perSeed[twins.seeds.indexOf(seed)] ?? NaN).toFixed(2)])));
    lines.push('', `Mean [95% interval]: alone ${formatInterval(alone.interval, 2)}, in ${r.of} on the same seeds ${formatInterval(twins.interval, 2)}.`);
  } else lines.push(`No pair here for a compute ratio (it needs one of ${COMPUTE_PAIRS.map(([a, b]) => `${a} with ${b}`).join(', ')}, both rerun on a seed).`);
  return lines.join('\n');
}

/** The main table of docs/results.md's plan: the primary test, families A and B with Holm, compute with the world model's cost, the paper beside ours. */
export function mainTableSection(runs: readonly RunResult[], build?: WorldModelBuildCost): string {
  const decided = decideMainTable(runs);
  const primary = decided.find((t) => t.family === 'primary')!;
  const progress = mainTableProgress(runs);
  const lines: string[] = ['## The main table, decided by its plan', ''];
  const iv = primary.comparison.interval;
  lines.push(
    `Primary: ${primary.a} - ${primary.b}, ${labelOf(PRIMARY_METRIC)}, paired by seed: ${formatInterval(iv, 2)} over ${primary.comparison.seeds.length} seed(s) (${primary.comparison.seeds.join(', ') || 'none'}). `
      + `Non-inferiority at -5: holds when the interval's lower end is above -5, fails when its upper end is below 0. **${primary.verdict}** (${finality(primary, progress, 'both its rows are at their planned seeds')}).`,
    '',
    primaryPower(primary),
    '',
    ...(primaryCurveRows(runs).length > 0
      ? [`The primary pair's held-out score against cumulative training busy time (mean over seeds, shaded: 95% interval; step 0 is the SFT policy of the same seeds):`, '', `![held-out score against training busy time, ${primary.b} and ${primary.a}](${PRIMARY_CURVE_FILE})`, '']
      : []),
    'The committed world model misses issue 21\'s targets (docs/models.md: alone it ranks programs that run below a model-family lookup and separates failures below `compile()`): this table measures the method with that world model.',
    '',
    `Family A (the paper's claims on the authors' rules) and family B (one switch back to our reading, exploratory) are each Holm-corrected over their own tests at a familywise ${FAMILY_ALPHA}; p is the two-sided paired t-test of the per-seed values (against 1 for a ratio). A test of family A holds when its adjusted p is below ${FAMILY_ALPHA} with the mean on the claim's side, fails when below it on the other side, and is undecided otherwise; "not run": a row it needs has no run yet. Detectable (80%): for a test not yet decided with 3 seeds or more, the smallest true difference (for a ratio: its distance from 1) it finds with 80% power at its planned seeds, at the SD of its per-seed values measured so far and at the level Holm asks of its family's next test (the familywise ${FAMILY_ALPHA} over the tests not yet decided); a smaller one most likely stays undecided.`,
    '',
  );
  const { done: runsDone, planned: runsPlanned } = progressCounts(progress);
  lines.push(
    '### Rows against the plan',
    '',
    planComplete(progress)
      ? `Every row has a finished run at every planned seed (${runsPlanned} runs).`
      : `In progress: ${runsDone} of ${runsPlanned} planned runs finished. A verdict is provisional until every row it waits for reaches its planned seeds: the primary test its own two rows, a test of family A or B every row of its family (Holm adjusts each p by the others'). A test's seeds are those both of its rows have.`,
    '',
    table(['row', 'planned seeds', 'finished', 'failed', 'still to run'], progress.map((r) => {
      const left = r.planned.filter((s) => !r.done.includes(s));
      return [r.preset, seedSpan(r.planned), `${r.done.length} of ${r.planned.length}`, r.failed.join(', ') || '—', left.length > 0 ? seedSpan(left) : '—'];
    })),
    '',
  );
  const header = ['test', 'contrast', 'seeds', 'mean [95% interval]', 'p', 'Holm p', 'verdict', 'detectable (80%)'];
  for (const [family, title] of [['A', 'Family A'], ['B', 'Family B (exploratory)']] as const) {
    const tests = decided.filter((t) => t.family === family);
    lines.push(`### ${title}`, '', `This family's figures are ${finality(tests[0], progress, 'every row it names is at its planned seeds')}.`, '', table(header, tests.map((t) => decidedRow(t, decided))), '');
  }
  lines.push('### Compute, seed by seed', '');
  const ratio = decided.find((t) => t.id === 'A1')!.comparison;
  const loads = (preset: string, seed: number) => {
    const r = runs.find((x) => x.preset === preset && x.seed === seed && x.status === 'ok');
    return r?.host && r.host.samples > 0 ? (r.host.meanLoad1 / r.host.cpus).toFixed(2) : '—';
  };
  lines.push(
    'Total training busy time, all-real over WMRL, with each run\'s mean host load per core (near 1 or above: other work shared the cores; busy time then includes waiting for them).',
    '',
    table(['seed', 'busy ratio', `${ratio.a} load/core`, `${ratio.b} load/core`], ratio.seeds.map((s, i) => [String(s), ratio.perSeed[i].toFixed(2), loads(ratio.a, s), loads(ratio.b, s)])),
    '',
  );
  if (build) {
    const am = amortisedComputeRatio(runs, build);
    lines.push(
      `With the world model's own cost (descriptive, no test): its ${build.executions.toLocaleString('en-US')} build executions, each priced at that seed's all-real cost per execution, plus its ${build.trainingSeconds.toFixed(0)} s of training, shared over ${build.amortisedOver} runs `
        + `(${shareRange(am.sharePerRun)}): `
        + `ratio ${formatInterval(am.interval, 2)}${am.seeds.length > 0 ? `; per seed ${am.perSeed.map((x) => x.toFixed(2)).join(', ')}` : ''}. The paper's world model is an untrained base model: it has no such cost.`,
      '',
    );
  }
  lines.push('### The paper beside ours', '', `The paper's 4B rows (MLE-bench and DSBench averages, GPU-hours) and ours (${labelOf(PRIMARY_METRIC)}, total training busy s), mean [95% interval] over seeds.`, '');
  const summaries = summarisePresets(runs, PRESETS.filter((p) => p.block === 'authors').map((p) => p.id));
  const rows = PRESETS.filter((p) => p.block === 'authors' && (p.paper || summaries.some((s) => s.preset === p.id))).map((p) => {
    const s = summaries.find((x) => x.preset === p.id);
    return [p.id, p.paper ? String(p.paper.mle) : '—', p.paper ? String(p.paper.dsbench) : '—', p.paper?.gpuHours != null ? String(p.paper.gpuHours) : '—',
      s ? s.seeds.length.toString() : '0', formatInterval(s?.metrics[PRIMARY_METRIC], 2), formatInterval(s?.metrics.busyTotal, 0)];
  });
  const sft = summaries.find((x) => x.preset === SFT_PRESET);
  if (sft) rows.unshift([SFT_PRESET, '—', '—', '—', sft.seeds.length.toString(), `${formatInterval(sft.metrics.heldOut, 2)} (before training)`, '—']);
  lines.push(table(['row', 'paper MLE-bench', 'paper DSBench', 'paper GPU-h', 'our seeds', `ours: ${labelOf(PRIMARY_METRIC)}`, 'ours: busy s'], rows));
  return lines.join('\n');
}

/** The controls experiment (docs/results.md, "Does the world model earn its place? Plan"), decided by its plan. */
export function controlsSection(runs: readonly RunResult[], twinRuns: readonly RunResult[] = []): string {
  const decided = decideControls(runs);
  const progress = planProgress(CONTROLS_ROWS, (preset, seed) => (runs.some((r) => r.preset === preset && r.seed === seed && r.status === 'ok') ? 'ok' : null));
  const complete = planComplete(progress);
  const counts = progressCounts(progress);
  const det = plannedDetectable();
  const primary = decided.find((t) => t.family === 'primary')!;
  const atMeasured = measuredDetectable(primary);
  const lines = ['## Does the world model earn its place? Decided by the plan', '',
    `The primary test stands alone (two-sided paired t-test at ${CONTROLS_ALPHA}); the four secondary tests are Holm-corrected together at a familywise ${CONTROLS_ALPHA} (a test without a p counts as p = 1). `
      + `Non-inferiority (S1) reads "holds" when its Holm p is below ${CONTROLS_ALPHA}, that is when the Holm-adjusted interval's lower end is above -5. `
      + `Planned detectable differences (80% power, 16 seeds, at main-v3's SD of ${MAIN_V3_SD}): ${det.primary.toFixed(1)} points for the primary test, ${det.firstSecondary.toFixed(1)} for the family's first Holm step.`
      + (atMeasured ? ` At the SD of the primary test's paired differences measured so far (${atMeasured.sd.toFixed(1)} over ${primary.seeds.length} seeds), the primary test would detect ${atMeasured.detectable.toFixed(1)} points at ${atMeasured.seeds} seeds.` : ''),
    '',
    complete ? 'Every row has a finished run at every planned seed: the verdicts are final.' : `In progress: ${counts.done} of ${counts.planned} planned runs finished. A reading is provisional until every row it waits for has all its planned seeds: the primary test its own two rows, a secondary test every row of the family (Holm adjusts each p by the others').`,
    '',
    table(['row', 'finished seeds'], progress.map((r) => [r.preset, `${r.done.length} of ${r.planned.length}${r.done.length > 0 ? ` (${r.done.join(', ')})` : ''}`])),
    '',
    ...(controlsPrimaryCurveRows(runs).length > 0 ? [`The primary pair's held-out score against cumulative training busy time (mean over seeds, shaded: 95% interval; every row in curve.svg):`, '', `![held-out score against training busy time, the primary pair](${PRIMARY_CURVE_FILE})`, ''] : []),
    table(['test', 'contrast', 'measure', 'seeds', 'mean [95% interval]', 'p', 'Holm p', 'reading'], decided.map((t) => [
      t.id, `${t.a} - ${t.b}`, t.measure === 'gap-slope' ? 'slope of the held-out gap, points per 5 steps' : labelOf(t.measure.metric),
      String(t.seeds.length), formatInterval(t.interval, 2), formatP(t.p), t.family === 'primary' ? '(alone)' : formatP(t.pAdjusted), controlsReading(t, progress),
    ])),
    '',
    ...CONTROLS_TESTS.map((t) => `- ${t.id}: ${t.statement}.`),
  ];
  const twins = twinAgreement(runs, twinRuns);
  if (twins.length > 0) {
    const same = twins.filter((t) => t.firstDifference === null);
    lines.push('', `Descriptive check, no test: the first 20 steps against ${CONTROLS_TWIN_FOLDER}'s twins (same seeds; nothing in a run depends on its total step count). `
      + `Held-out score equal at every shared checkpoint: ${same.length} of ${twins.length} runs`
      + `${same.length < twins.length ? `; differing: ${twins.filter((t) => t.firstDifference !== null).map((t) => `${t.preset} seed ${t.seed} from step ${t.firstDifference}`).join(', ')}` : ''}.`);
  }
  return lines.join('\n');
}

export function renderReport(input: ReportInput): string {
  const { runs } = input;
  const summaries = summarisePresets(runs, input.presets);
  const ok = runs.filter((r) => r.status === 'ok');
  const train = ok.find((r) => r.kind === 'train') ?? ok[0];
  const lines: string[] = [`# ${input.title}`, ''];
  if (input.command) lines.push(`Command: \`${input.command}\``, '');
  const source = sourceLine(runs.map((r) => r.provenance));
  if (source) lines.push(source, '');
  if (train) {
    const c = train.request.config;
    const e = train.environment;
    const evalTasks = train.evaluation ? train.evaluation.tasks.map((t) => t.taskId) : [];
    lines.push(
      `Setup: ${c.steps} steps, B = ${c.groupsPerStep} groups x n = ${c.groupSize} programs, max ${c.sampling.maxNewTokens} new tokens, temperature ${c.sampling.temperature}, lr ${c.lr}, KL beta ${c.klBeta}${c.rho > 0 && c.rho < 1 ? `, rho ${c.rho}` : ''}.`,
      `Held-out evaluation: avg@${train.request.evalK} on ${evalTasks.length} task(s) (${evalTasks.join(', ')}), the same sampling seeds before and after training.`,
    );
    if (e) lines.push(`Models: ${e.modelsLabel}. Policy: ${e.policy.backend} (${e.policy.numParameters} parameters; ${e.policy.reason}). World model: ${e.worldModel.backend} (${e.worldModel.reason}). Sandbox pool: ${e.poolSize} worker(s). Browser: ${e.userAgent}, hardwareConcurrency ${e.hardwareConcurrency}.`);
    lines.push('');
  }
  const maxN = Math.max(0, ...summaries.map((s) => s.seeds.length));
  const tNote = maxN >= 2 ? ` (t quantile ${studentTQuantile(0.975, maxN - 1).toFixed(3)} for ${maxN} seeds)` : '';
  lines.push(
    `Cells: mean [95% interval] over seeds: two-sided Student-t interval, mean +- t(0.975, n-1) s / sqrt(n)${tNote}. "(n=1)": one seed, no interval.`,
    `"${SFT_PRESET}" is the starting (SFT) policy evaluated before any training (the no-RL row). Compute columns are training only (evaluation excluded); busy time is summed per component (sandbox over workers), the analogue of GPU-hours.`,
    '',
    '## Held-out score',
    '',
  );
  const cell = (s: PresetSummary, key: MetricKey) => formatInterval(s.metrics[key], digitsOf(key));
  const hasSft = runs.some((r) => r.preset === SFT_PRESET && r.status === 'ok');
  // columns that only some experiments have: the checkpoint mean (--eval-every) and the ladder (runs on the authors' reward)
  const optional = (['heldOutCheckpointMean', 'heldOutLadder'] as const).filter((k) => summaries.some((s) => s.metrics[k] !== undefined));
  lines.push(table(
    ['preset', 'seeds', labelOf('heldOut'), ...(hasSft ? ['minus SFT (paired)'] : []), ...optional.map(labelOf), labelOf('medalRate'), labelOf('anyMedalRate'), labelOf('validRunRate')],
    summaries.map((s) => [
      s.preset, seedsCell(s), cell(s, 'heldOut'),
      ...(hasSft ? [s.preset === SFT_PRESET ? '—' : formatInterval(pairedComparison(runs, s.preset, SFT_PRESET, 'heldOut', 'difference').interval, 2)] : []),
      ...optional.map((k) => cell(s, k)),
      cell(s, 'medalRate'), cell(s, 'anyMedalRate'), cell(s, 'validRunRate'),
    ]),
  ));
  const curve = curveRows(runs, input.presets);
  if (curve.length > 0) {
    lines.push('', '## Held-out score along training', '', 'Evaluated during training (`--eval-every`), the same evaluation seeds at every point; step 0 is the SFT row of the same seed. Busy time is training only, summed per component.', '');
    lines.push(table(['preset', 'step', 'seeds', 'training busy s', labelOf('heldOut')], curve.map((c) => [c.preset, String(c.step), String(c.heldOut.n), formatInterval(c.busySeconds, 0), formatInterval(c.heldOut, 2)])));
    lines.push('', collapsesTable(runs, summaries));
  }
  lines.push('', '## Compute (training)', '');
  const computeKeys: MetricKey[] = ['busy.policySampling', 'busy.worldModel', 'busy.verifier', 'busy.sandbox', 'busy.sandboxStart', 'busy.policyUpdate', 'busyTotal', 'trainWall', 'executions', 'worldModelForwards', 'meanAnchorWeight', 'meanAuthorsWeight', 'anchorUpdateShare', 'hostLoad'];
  lines.push(table(['preset', ...computeKeys.map(labelOf)], summaries.filter((s) => s.kind === 'train').map((s) => [s.preset, ...computeKeys.map((k) => cell(s, k))])));
  lines.push('', '## Training signals (first and last step)', '');
  const signalKeys: MetricKey[] = ['wmScoreFirst', 'wmScoreLast', 'tokensFirst', 'tokensLast', 'wmPairwiseAccuracy', 'wmValidityAccuracy'];
  lines.push(table(['preset', ...signalKeys.map(labelOf)], summaries.filter((s) => s.kind === 'train').map((s) => [s.preset, ...signalKeys.map((k) => cell(s, k))])));
  lines.push('', '## Why the anchors\' programs fail', '', 'Over every executed anchor program of a run: the share that does not compile (a SyntaxError, from the interpreter or the static check; what a free verifier rejects), the share that fails when run (an error, a timeout, a cap), and the mean raw world-model score of the failed ones minus that of the valid ones (near 0 or above: the world model does not see the failure).', '');
  const failKeys: MetricKey[] = ['anchorNoCompile', 'anchorRunFail', 'wmFailedMinusValid'];
  lines.push(table(['preset', ...failKeys.map(labelOf)], summaries.filter((s) => s.kind === 'train').map((s) => [s.preset, ...failKeys.map((k) => cell(s, k))])));
  const mainTablePresets = new Set(MAIN_TABLE_TESTS.flatMap((t) => [t.a, t.b]).filter((p) => p.startsWith('paper-')));
  // A rerun folder holds a few of the plan's runs again: it is read against its twins, not against the plan.
  const decidedByPlan = !input.rerun && (input.plan !== undefined || runs.some((r) => r.status === 'ok' && mainTablePresets.has(r.preset)));
  if (decidedByPlan) lines.push('', input.plan === CONTROLS_PLAN ? controlsSection(runs, input.twinRuns) : mainTableSection(runs, input.worldModelBuild));
  if (input.rerun) lines.push('', rerunSection(input.rerun));
  // A folder the main table's plan decides is not also read by our older claim rules: their presets (wmrl,
  // sft-larger, wmrl-static ...) appear there only as rows of the plan, and a second, rule-less verdict would contradict it.
  const ourClaimPresets = new Set(decidedByPlan ? [] : CLAIMS.flatMap((c) => c.tests.flatMap((t) => [t.a, t.b])));
  ourClaimPresets.delete(SFT_PRESET);
  if (runs.some((r) => r.status === 'ok' && ourClaimPresets.has(r.preset))) lines.push('', '## The claims, decided', '', 
    'Each claim of method.md 5 as paired, seed-by-seed comparisons (mean [95% interval]). A test holds when its whole interval lies on the claim\'s side of the bound, fails when it lies on the other side of the failure bound; a claim holds when all its tests hold and fails when one fails (src/experiments/claims.ts).',
    '',
    claimsTable(evaluateClaims(runs)),
  );
  const has = (p: string) => runs.some((r) => r.preset === p && r.status === 'ok');
  if (runs.some((r) => r.status === 'ok' && ourClaimPresets.has(r.preset))) lines.push('', '## Claims measured in this invocation', '');
  if (has('grpo-all-real') && has('wmrl')) {
    lines.push('Claim 1 (compute): total busy time of all-real GRPO over WMRL, same steps, B and n.', '', comparisonLine(pairedComparison(runs, 'grpo-all-real', 'wmrl', 'busyTotal', 'ratio'), 2));
    lines.push(comparisonLine(pairedComparison(runs, 'grpo-all-real', 'wmrl', 'trainWall', 'ratio'), 2), '');
  } else if (runs.some((r) => r.status === 'ok' && ourClaimPresets.has(r.preset))) lines.push('Claim 1 needs grpo-all-real and wmrl in the same invocation; not both ran.', '');
  const claim2 = [['wmrl', 'grpo-all-real'], ['world-model-only', 'grpo-all-real'], ['wmrl', 'world-model-only']].filter(([a, b]) => has(a) && has(b));
  if (claim2.length > 0) {
    lines.push('Claim 2 (held-out score, x100), paired differences:', '');
    for (const [a, b] of claim2) lines.push(comparisonLine(pairedComparison(runs, a, b, 'heldOut', 'difference'), 2));
    lines.push('');
  }
  const ablations = ['ablation-neither', 'ablation-denoise-only', 'ablation-debias-only', 'ablation-both'].filter(has);
  if (ablations.length > 1) {
    lines.push('Claim 3 (ablations, held-out x100), paired differences against ablation-neither:', '');
    for (const a of ablations.filter((x) => x !== 'ablation-neither')) if (has('ablation-neither')) lines.push(comparisonLine(pairedComparison(runs, a, 'ablation-neither', 'heldOut', 'difference'), 2));
    lines.push('');
  }
  if (has('wmrl') && has('wmrl-unreadable')) {
    lines.push(
      'Claim 5 (fallback where the score is not readable from the code): WMRL with shuffled world-model scores against WMRL, paired differences of the mean anchor-stream weight w_A, of the share of the update on anchor groups and of the held-out score (x100):',
      '',
      comparisonLine(pairedComparison(runs, 'wmrl-unreadable', 'wmrl', 'meanAnchorWeight', 'difference'), 3),
      comparisonLine(pairedComparison(runs, 'wmrl-unreadable', 'wmrl', 'anchorUpdateShare', 'difference'), 3),
      comparisonLine(pairedComparison(runs, 'wmrl-unreadable', 'wmrl', 'heldOut', 'difference'), 2),
    );
    if (has('grpo-all-real')) lines.push(comparisonLine(pairedComparison(runs, 'wmrl-unreadable', 'grpo-all-real', 'heldOut', 'difference'), 2));
    lines.push('');
  }
  if (has('wmrl') && has('wmrl-static')) {
    lines.push(
      'Beyond the paper: WMRL with the free verifier (rejected programs get 0 unscored and unrun) against WMRL, paired differences of the held-out score (x100) and the ratio of total busy time:',
      '',
      comparisonLine(pairedComparison(runs, 'wmrl-static', 'wmrl', 'heldOut', 'difference'), 2),
      comparisonLine(pairedComparison(runs, 'wmrl-static', 'wmrl', 'busyTotal', 'ratio'), 2),
      '',
    );
  }
  const failed = runs.filter((r) => r.status !== 'ok');
  if (failed.length > 0) {
    lines.push('## Failed runs', '');
    for (const r of failed) lines.push(`- ${r.preset} seed ${r.seed}: ${r.error ?? 'unknown error'}`);
    lines.push('');
  }
  return lines.join('\n');
}
