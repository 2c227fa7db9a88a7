// The main table's plan, decided: the primary non-inferiority test alone, families A and B each
// Holm-corrected, the SFT row read on its one evaluation, and the amortised compute ratio.
import { describe, expect, it } from 'vitest';
import { amortisedComputeRatio, breakEvenFromRatios, breakEvenRuns, decideMainTable, largerSftAgainstSft, familyDetectable, MAIN_TABLE_ROWS, MAIN_TABLE_TESTS, mainTableProgress, primaryCurveRows, seedSpan } from '../../../src/experiments/main-table.ts';
import { planComplete, rowsAwaited, rowsDecidingTest } from '../../../src/experiments/plan-progress.ts';
import { holmAdjust, tTestP } from '../../../src/experiments/multiplicity.ts';
import { mainTableSection, renderReport } from '../../../src/experiments/report.ts';
import { minimumDetectableDifference } from '../../../src/experiments/power.ts';
import { pairedComparison } from '../../../src/experiments/aggregate.ts';
import type { RunResult } from '../../../src/experiments/run-result.ts';
import { cost, evaluation, run } from './run-fixtures.ts';

/** A training run whose checkpoints (steps 5..20) score `points` (x100), with a busy time and executions. */
function trained(preset: string, seed: number, points: number[], busyS = 100, executions = 10, sandboxS = 40): RunResult {
  const r = run(preset, seed, points.at(-1)! / 100, cost({ policySampling: 1000 * (busyS - sandboxS), worldModel: 0, sandbox: 1000 * sandboxS, policyUpdate: 0 }, 1000 * busyS, executions, 0));
  r.curve = points.map((p, i) => ({ step: 5 * (i + 1), trainingBusyMs: 0, avgAtK: p / 100, evaluation: evaluation(p / 100) }));
  return r;
}

const test = (runs: RunResult[], id: string) => decideMainTable(runs).find((t) => t.id === id)!;

describe('the main table, decided by its plan', () => {
  it('the primary test is non-inferiority at -5 on the checkpoint mean', () => {
    const grpo = [50, 52, 54, 56, 58, 60].map((m, i) => trained('paper-grpo-all-real', i + 1, [m - 2, m, m, m + 2]));
    // WMRL 1 to 3 points below, tightly: the interval sits above -5
    const close = [49, 50, 52, 54, 57, 57].map((m, i) => trained('paper-wmrl', i + 1, [m, m, m, m]));
    const t = test([...grpo, ...close], 'primary');
    expect(t.comparison.interval!.mean).toBeCloseTo(-11 / 6, 9);
    expect(t.verdict).toBe('holds');
    // 10 points below: the interval is below 0
    const far = [40, 42, 44, 46, 48, 50].map((m, i) => trained('paper-wmrl', i + 1, [m, m, m, m]));
    expect(test([...grpo, ...far], 'primary').verdict).toBe('fails');
    // one seed: no interval, no verdict
    expect(test([grpo[0], close[0]], 'primary').verdict).toBe('undecided');
    expect(test(grpo, 'primary').verdict).toBe('not run');
  });

  it("family A's p values are Holm-adjusted together, and a test holds only on the claim's side", () => {
    const seeds = [1, 2, 3, 4, 5];
    const runs = [
      ...seeds.map((s) => trained('paper-grpo-all-real', s, [60, 60, 60, 60 + s], 400)),
      ...seeds.map((s) => trained('paper-wmrl', s, [58, 58, 58, 58 + s], 100 + s)),
      // world model only clearly below GRPO: the claim's side
      ...seeds.map((s) => trained('paper-world-model-only', s, [40, 40, 40, 40 + s], 90)),
      // "removing denoising lowers the score", but the ablation is clearly above: fails
      ...seeds.map((s) => trained('paper-ablation-debias-only', s, [70, 71, 70, 70 + 2 * s], 100)),
      ...seeds.map((s) => run('sft', s, 0.4 + s / 1000, null)),
    ];
    const decided = decideMainTable(runs);
    const a = decided.filter((t) => t.family === 'A');
    expect(a.map((t) => t.id)).toEqual(['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9']);
    // the adjustment is Holm's over the whole family: a test without a p counts as 1 and reports none
    expect(a.map((t) => t.pHolm)).toEqual(holmAdjust(a.map((t) => t.p ?? 1)).map((q, i) => (a[i].p === null ? null : q)));
    expect(a.find((t) => t.id === 'A4')!.pHolm).toBeNull();
    expect(a.find((t) => t.id === 'A1')!.p).toBe(tTestP(seeds.map((s) => 400 / (100 + s)), 1));
    expect(a.find((t) => t.id === 'A1')!.verdict).toBe('holds');
    expect(a.find((t) => t.id === 'A2')!.verdict).toBe('holds');
    expect(a.find((t) => t.id === 'A3')!.verdict).toBe('fails');
    expect(a.find((t) => t.id === 'A4')!.verdict).toBe('not run');
    // the SFT row has no checkpoints: its one evaluation stands in, paired by seed
    const a8 = a.find((t) => t.id === 'A8')!;
    expect(a8.comparison.seeds).toEqual(seeds);
    expect(a8.comparison.perSeed[0]).toBeCloseTo((58 * 3 + 59) / 4 - 40.1, 9);
    expect(a8.verdict).toBe('holds');
    // family B: exploratory, no verdict, adjusted within its own family only
    expect(decided.filter((t) => t.family === 'B').every((t) => t.verdict === null)).toBe(true);
  });

  it('a table decided in pieces is corrected over the whole family, not over the tests run so far', () => {
    const seeds = [1, 2, 3, 4];
    const runs = [
      ...seeds.map((s) => trained('paper-grpo-all-real', s, [50, 50, 50, 50 + s])),
      ...seeds.map((s) => trained('paper-world-model-only', s, [40, 40, 40, 42 - s * 1.5])),
    ];
    const a2 = test(runs, 'A2');
    expect(a2.p!).toBeGreaterThan(0);
    // the only family-A test with a p so far: multiplied by the family's 9 tests, not by 1
    expect(a2.pHolm).toBeCloseTo(Math.min(1, 9 * a2.p!), 12);
  });

  it('a p just under 0.05 alone does not survive the family: Holm multiplies it', () => {
    const tests = MAIN_TABLE_TESTS.filter((t) => t.id === 'A2' || t.id === 'A9');
    // A2: a weak effect, the family's smallest p; A9 weaker still. Alone, A2 would pass at 0.05; first of two, it is doubled.
    const seeds = [1, 2, 3, 4, 5, 6];
    const wmOnly = [-1.2, -3.1, 0.4, -2.2, -0.3, -1.9];
    const sftBelow = [3, -2, 4, 1, -1, 2];
    const runs = [
      ...seeds.map((s) => trained('paper-grpo-all-real', s, [50, 50, 50, 50])),
      ...seeds.map((s, i) => trained('paper-world-model-only', s, [50 + wmOnly[i], 50 + wmOnly[i], 50 + wmOnly[i], 50 + wmOnly[i]])),
      ...seeds.map((s, i) => run('sft', s, (50 - sftBelow[i]) / 100, null)),
    ];
    const decided = decideMainTable(runs, tests);
    expect(decided.find((t) => t.id === 'A9')!.p!).toBeGreaterThan(decided.find((t) => t.id === 'A2')!.p!);
    const a2 = decided.find((t) => t.id === 'A2')!;
    expect(a2.p!).toBeLessThan(0.05);
    expect(a2.pHolm!).toBeGreaterThan(0.05);
    expect(a2.verdict).toBe('undecided');
  });

  it("says what an undecided test can detect: its planned seeds, its measured SD, Holm's level for the family's next test", () => {
    const seeds = [1, 2, 3, 4];
    const spread = [-6, 2, -9, 1];
    const runs = [
      // A1 holds (all-real costs four times as much): one family-A test decided, so the next one faces 0.05 / 8
      ...seeds.map((s) => trained('paper-grpo-all-real', s, [50, 50, 50, 50], 400 + s)),
      ...seeds.map((s) => trained('paper-wmrl', s, [50, 50, 50, 50], 100)),
      // A2: the world model alone a little below, noisily: undecided
      ...seeds.map((s, i) => trained('paper-world-model-only', s, Array(4).fill(50 + spread[i]))),
    ];
    const decided = decideMainTable(runs);
    const a1 = decided.find((t) => t.id === 'A1')!;
    const a2 = decided.find((t) => t.id === 'A2')!;
    expect(a1.verdict).toBe('holds');
    expect(familyDetectable(a1, decided)).toBeNull();
    expect(a2.verdict).toBe('undecided');
    const d = familyDetectable(a2, decided)!;
    // planned at the fewer of its rows' seeds: world-model-only's 10, not all-real's 16, not the 4 run so far
    expect(d.seeds).toBe(10);
    expect(d.level).toBeCloseTo(0.05 / 8, 12);
    expect(d.sd).toBeCloseTo(a2.comparison.interval!.sd!, 12);
    expect(d.atMeasuredSd).toBeCloseTo(minimumDetectableDifference(d.sd, 10, 0.05 / 8), 12);
    // stricter than the uncorrected test at the same seeds
    expect(d.atMeasuredSd).toBeGreaterThan(minimumDetectableDifference(d.sd, 10));
    // two seeds' SD says next to nothing: no figure
    expect(familyDetectable(decideMainTable(runs.filter((r) => r.seed <= 2)).find((t) => t.id === 'A2')!, decided)).toBeNull();
    expect(familyDetectable(decideMainTable(runs.filter((r) => r.seed <= 3)).find((t) => t.id === 'A2')!, decided)).not.toBeNull();
    // the report prints it beside the verdict
    expect(mainTableSection(runs)).toMatch(new RegExp(`\\| A2 \\| .*\\| undecided \\| ${d.atMeasuredSd.toFixed(2)} \\(10 seeds, level 0\\.006\\) \\|`));
    expect(mainTableSection(runs)).toMatch(/\| A1 \| .*\| holds \| — \|/);
  });

  it("the amortised ratio prices the world model's build at the seed's own cost per execution", () => {
    const runs = [trained('paper-grpo-all-real', 1, [50, 50, 50, 50], 1000, 100, 500), trained('paper-wmrl', 1, [50, 50, 50, 50], 200)];
    const r = amortisedComputeRatio(runs, { executions: 3595, trainingSeconds: 600, amortisedOver: 10 });
    // 5 s an execution: (3595 x 5 + 600) / 10 = 1857.5 s a run
    expect(r.sharePerRun[0]).toBeCloseTo(1857.5, 9);
    expect(r.perSeed[0]).toBeCloseTo(1000 / (200 + 1857.5), 9);
    // amortised over more runs, the ratio rises toward the plain one
    const many = amortisedComputeRatio(runs, { executions: 3595, trainingSeconds: 600, amortisedOver: 1000 });
    expect(many.perSeed[0]).toBeGreaterThan(r.perSeed[0]);
    expect(many.perSeed[0]).toBeLessThan(1000 / 200);
  });

  it("the break-even: the runs the world model's build must be shared over before WMRL with its share costs less than all-real GRPO", () => {
    const build = { executions: 3595, trainingSeconds: 600 };
    const runs = [
      trained('paper-grpo-all-real', 1, [50, 50, 50, 50], 1000, 100, 500), trained('paper-wmrl', 1, [50, 50, 50, 50], 200),
      trained('paper-grpo-all-real', 2, [50, 50, 50, 50], 900, 100, 300), trained('paper-wmrl', 2, [50, 50, 50, 50], 250),
    ];
    const b = breakEvenRuns(runs, build);
    // seed 1: 5 s an execution, (3595 x 5 + 600) / (1000 - 200) = 23.22 runs; seed 2: 3 s, 11385 / 650
    expect(b.seeds).toEqual([1, 2]);
    expect(b.perSeed[0]).toBeCloseTo(18575 / 800, 9);
    expect(b.perSeed[1]).toBeCloseTo(11385 / 650, 9);
    expect(b.interval!.mean).toBeCloseTo((18575 / 800 + 11385 / 650) / 2, 9);
    // shared over exactly that many runs, the amortised ratio is 1: the two cost the same
    const at = amortisedComputeRatio(runs.slice(0, 2), { ...build, amortisedOver: b.perSeed[0] });
    expect(at.perSeed[0]).toBeCloseTo(1, 9);
    // the page has ratios only (A1 and the amortised ratio at 10 runs): it finds the same figures
    const plain = pairedComparison(runs, 'paper-grpo-all-real', 'paper-wmrl', 'busyTotal', 'ratio');
    const fromRatios = breakEvenFromRatios(plain, amortisedComputeRatio(runs, { ...build, amortisedOver: 10 }), 10);
    expect(fromRatios.seeds).toEqual([1, 2]);
    fromRatios.perSeed.forEach((x, i) => expect(x).toBeCloseTo(b.perSeed[i], 9));
    // a seed where WMRL is not cheaper never pays back, and the mean then says nothing
    const never = breakEvenRuns([...runs, trained('paper-grpo-all-real', 3, [50, 50, 50, 50], 200, 100, 100), trained('paper-wmrl', 3, [50, 50, 50, 50], 250)], build);
    expect(never.perSeed[2]).toBe(Number.POSITIVE_INFINITY);
    expect(never.interval).toBeNull();
  });

  it("claim 4's comparator against the small SFT policy, from A8 and A6 alone, is sft-larger - sft seed by seed", () => {
    const seeds = [1, 2, 3, 4];
    const runs = [
      ...seeds.map((s) => trained('paper-wmrl', s, [50, 52, 54, 50 + s])),
      ...seeds.map((s) => run('sft', s, 0.45 + s / 100, null)),
      ...seeds.map((s) => run('sft-larger', s, 0.44 - s / 200, null)),
    ];
    const c = largerSftAgainstSft(decideMainTable(runs))!;
    const direct = pairedComparison(runs, 'sft-larger', 'sft', 'heldOut', 'difference');
    expect(c.seeds).toEqual(direct.seeds);
    c.perSeed.forEach((x, i) => expect(x).toBeCloseTo(direct.perSeed[i], 9));
    expect(c.interval.mean).toBeCloseTo(direct.interval!.mean, 9);
    // without the larger policy's row there is nothing to say
    expect(largerSftAgainstSft(decideMainTable(runs.filter((r) => r.preset !== 'sft-larger')))).toBeNull();
  });

  it('the report section carries the verdicts, the Holm p and the paper beside ours', () => {
    const runs = [1, 2, 3].flatMap((s) => [trained('paper-grpo-all-real', s, [50, 51, 52, 53 + s], 400), trained('paper-wmrl', s, [49, 50, 51, 52 + s], 100)]);
    const md = mainTableSection(runs, { executions: 3595, trainingSeconds: 600, amortisedOver: 10 });
    expect(md).toMatch(/Primary: paper-wmrl - paper-grpo-all-real.*-1\.00 \[-1\.00, -1\.00\] over 3 seed\(s\).*\*\*holds\*\*/s);
    expect(md).toMatch(/\| A1 \| paper-grpo-all-real \/ paper-wmrl > 1 .*\| 3 \| 4\.00 \[4\.00, 4\.00\] \| < 0\.001 \| < 0\.001 \| holds \|/);
    expect(md).toMatch(/\| paper-wmrl \| 16\.4 \| 28\.8 \| 286 \| 3 \|/);
    expect(md).toMatch(/shared over 10 runs/);
    expect(md).toMatch(/this table measures the method with that world model/);
    expect(md).toContain('![held-out score against training busy time, paper-grpo-all-real and paper-wmrl](curve-primary.svg)');
    // other rows evaluated along training are not in the primary pair's picture
    const more = [...runs, trained('paper-world-model-only', 1, [40, 40, 40, 40])];
    expect([...new Set(primaryCurveRows(more).map((r) => r.preset))]).toEqual(['paper-grpo-all-real', 'paper-wmrl']);
    // no curve (runs evaluated only at the end): no picture to link
    expect(mainTableSection(runs.map((r) => ({ ...r, curve: undefined })))).not.toContain('curve-primary.svg');
  });

  it("the report says what the primary test can detect: the plan's 11.0 points, and the same at the SD measured", () => {
    // checkpoint means 51, 53, 55 against 50.5, 50.5, 50.5 + ... : differences -2, 0, 2 (SD 2)
    const runs = [1, 2, 3].flatMap((s) => [trained('paper-grpo-all-real', s, [52, 52, 52, 52], 400), trained('paper-wmrl', s, [50, 50, 50, 50 + 8 * (s - 2) + 8], 100)]);
    const md = mainTableSection(runs);
    expect(md).toMatch(/-0\.00 \[|0\.00 \[/);
    expect(md).toContain('Minimum detectable difference (80% power, two-sided 5%, paired t over 16 seeds): 11.0 points at the pilot\'s SD of 14.7 (the plan\'s figure), 1.5 at the SD measured here (2.0 over 3 seeds).');
  });

  it("a folder the plan decides carries no second verdict by the older claim rules (their presets are rows of the plan)", () => {
    const runs = [1, 2].flatMap((s) => [trained('paper-grpo-all-real', s, [50, 51, 52, 53]), trained('paper-wmrl', s, [49, 50, 51, 52]), trained('wmrl-static', s, [40, 41, 42, 43]), run('sft-larger', s, 0.4, null)]);
    const md = renderReport({ title: 't', runs, presets: ['paper-grpo-all-real', 'paper-wmrl', 'wmrl-static'] });
    expect(md).toContain('## The main table, decided by its plan');
    expect(md).not.toContain('## The claims, decided');
    expect(md).not.toContain('## Claims measured in this invocation');
    // without the plan's presets the older rules still read the folder
    expect(renderReport({ title: 't', runs: runs.filter((r) => !r.preset.startsWith('paper-')), presets: ['wmrl-static'] })).toContain('## The claims, decided');
  });

  it("counts the plan's rows: finished seeds, failed ones without a finished rerun, and never a seed the plan does not name", () => {
    const failed = trained('paper-wmrl', 4, [50, 50, 50, 50]);
    failed.status = 'failed';
    const runs = [
      trained('paper-grpo-all-real', 3, [50, 50, 50, 50]), trained('paper-wmrl', 3, [50, 50, 50, 50]), failed,
      // seed 2 is not in the plan; seed 8 of family B is past its 5 planned seeds
      trained('paper-wmrl', 2, [50, 50, 50, 50]), trained('wmrl-static', 8, [50, 50, 50, 50]), trained('wmrl-static', 5, [50, 50, 50, 50]),
    ];
    const progress = mainTableProgress(runs);
    expect(progress.map((r) => r.preset)).toEqual(MAIN_TABLE_ROWS.map((r) => r.preset));
    const row = (preset: string) => progress.find((r) => r.preset === preset)!;
    expect(row('paper-wmrl')).toEqual({ preset: 'paper-wmrl', planned: seedsFrom(3, 18), done: [3], failed: [4] });
    expect(row('paper-grpo-all-real').done).toEqual([3]);
    expect(row('wmrl-static')).toEqual({ preset: 'wmrl-static', planned: [3, 4, 5, 6, 7], done: [5], failed: [] });
    expect(row('paper-ablation-neither').planned).toEqual(seedsFrom(3, 12));
    expect(MAIN_TABLE_ROWS.reduce((n, r) => n + r.seeds.length, 0)).toBe(4 * 16 + 5 * 10 + 7 * 5);
    expect(planComplete(progress)).toBe(false);
    // every planned seed of every row finished: complete; one missing: not
    const all = MAIN_TABLE_ROWS.flatMap((r) => r.seeds.map((s) => trained(r.preset, s, [50, 50, 50, 50])));
    expect(planComplete(mainTableProgress(all))).toBe(true);
    expect(planComplete(mainTableProgress(all.slice(1)))).toBe(false);
    // the report says how far the table has come
    const md = mainTableSection(runs);
    expect(md).toMatch(/In progress: 3 of 149 planned runs finished/);
    expect(md).toMatch(/\| paper-wmrl \| 3-18 \| 1 of 16 \| 4 \| 4-18 \|/);
  });

  it("the primary verdict is final once its own two rows are complete; a family's waits for every row the family names (Holm)", () => {
    const primary = MAIN_TABLE_TESTS.find((t) => t.id === 'primary')!;
    const a6 = MAIN_TABLE_TESTS.find((t) => t.id === 'A6')!;
    expect(rowsDecidingTest(primary, MAIN_TABLE_TESTS).sort()).toEqual(['paper-grpo-all-real', 'paper-wmrl']);
    // A6 compares paper-wmrl with the larger SFT policy, yet its Holm p moves with every test of family A
    expect(rowsDecidingTest(a6, MAIN_TABLE_TESTS).sort()).toEqual(['paper-ablation-debias-only', 'paper-ablation-denoise-only', 'paper-grpo-all-real', 'paper-world-model-only', 'paper-wmrl', 'paper-wmrl-unreadable', 'sft', 'sft-larger'].sort());
    const pair = ['paper-grpo-all-real', 'paper-wmrl'].flatMap((p) => seedsFrom(3, 18).map((s) => trained(p, s, [50, 50, 50, 50 + (s % 3)])));
    const progress = mainTableProgress(pair);
    expect(rowsAwaited(primary, progress, MAIN_TABLE_TESTS)).toEqual([]);
    expect(rowsAwaited(a6, progress, MAIN_TABLE_TESTS)).toEqual(['paper-world-model-only', 'paper-ablation-debias-only', 'paper-ablation-denoise-only', 'sft-larger', 'paper-wmrl-unreadable', 'sft']);
    // one seed short of the plan: the primary test waits for that row
    expect(rowsAwaited(primary, mainTableProgress(pair.slice(1)), MAIN_TABLE_TESTS)).toEqual(['paper-grpo-all-real']);
    const md = mainTableSection(pair);
    expect(md).toContain('**holds** (final: both its rows are at their planned seeds).');
    expect(md).toMatch(/### Family A\n\nThis family's figures are provisional until these rows reach their planned seeds: paper-world-model-only, .*sft\./);
    expect(mainTableSection(pair.slice(1))).toContain('(provisional until these rows reach their planned seeds: paper-grpo-all-real).');
    const all = MAIN_TABLE_ROWS.flatMap((r) => r.seeds.map((s) => trained(r.preset, s, [50, 50, 50, 50])));
    expect(mainTableSection(all)).toContain("### Family B (exploratory)\n\nThis family's figures are final: every row it names is at its planned seeds.");
  });

  it('reports collapses the last evaluation can miss: the lowest valid share over checkpoints, and the seeds below half', () => {
    const withValid = (r: RunResult, valid: number[]) => ({ ...r, curve: r.curve!.map((c, i) => ({ ...c, evaluation: { ...c.evaluation, validRunRate: valid[i] } })) });
    const runs = [
      withValid(trained('paper-wmrl', 3, [50, 50, 50, 50]), [1, 0.9, 0.3, 1]), // fell at step 15, recovered by 20
      withValid(trained('paper-wmrl', 4, [50, 50, 50, 50]), [1, 1, 0.8, 0.9]),
      withValid(trained('paper-grpo-all-real', 3, [50, 50, 50, 50]), [1, 1, 1, 1]),
    ];
    const md = renderReport({ title: 't', runs, presets: ['paper-grpo-all-real', 'paper-wmrl'] });
    expect(md).toMatch(/\| paper-wmrl \| 2 \| 55\.0 \[[^\]]*\] \| 1 of 2 \(3\) \|/);
    expect(md).toMatch(/\| paper-grpo-all-real \| 1 \| 100\.0 \(n=1\) \| 0 of 1 \|/);
  });

  it('writes a run of seeds as a span and anything else as a list', () => {
    expect(seedSpan([3, 4, 5, 6])).toBe('3-6');
    expect(seedSpan([3, 4, 5], '–')).toBe('3–5');
    expect(seedSpan([3, 4])).toBe('3, 4');
    expect(seedSpan([3, 5, 6])).toBe('3, 5, 6');
    expect(seedSpan([])).toBe('');
  });
});

const seedsFrom = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
