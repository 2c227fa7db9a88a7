import { describe, expect, it } from 'vitest';
import { claimsRan, curveLines, defaultEntry, finishedOfPlanned, formatInterval, formatSigned, ourRows, planView, type ExperimentSummary, type ResultsIndex } from '../../../src/ui/companion/our-results.ts';
import { decideMainTable, largerSftAgainstSft, MAIN_TABLE_ROWS, mainTableProgress } from '../../../src/experiments/main-table.ts';
import { curveRows } from '../../../src/experiments/aggregate.ts';
import { curveGapTrend } from '../../../src/experiments/controls-table.ts';
import { evaluateClaims } from '../../../src/experiments/claims.ts';
import { evaluation, run } from '../experiments/run-fixtures.ts';

/** A trained run evaluated at steps 5..20 (the plan's endpoint averages those checkpoints). */
function trained(preset: string, seed: number, avg: number) {
  const r = run(preset, seed, avg, null);
  r.curve = [5, 10, 15, 20].map((step) => ({ step, trainingBusyMs: 0, avgAtK: avg, evaluation: evaluation(avg) }));
  return r;
}
import { tInterval } from '../../../src/experiments/interval.ts';

describe("the companion's table of our results", () => {
  it('shows mean and interval, or the mean alone for one seed', () => {
    expect(formatInterval(tInterval([10, 20, 30]))).toMatch(/^20\.0 \[-4\.8, 44\.8\]$/);
    expect(formatInterval(tInterval([7]))).toBe('7.0');
    expect(formatInterval(null)).toBe('–');
  });

  it('keeps the summary order and reads the metrics it has', () => {
    const summary: ExperimentSummary = {
      format: 'wmrl-experiment-summary', version: 1, command: 'npm run experiment',
      presets: [
        { preset: 'sft', kind: 'sft', seeds: [1, 2], failedSeeds: [], metrics: { heldOut: tInterval([10, 12]) } },
        { preset: 'wmrl', kind: 'train', seeds: [1, 2], failedSeeds: [], metrics: { heldOut: tInterval([14, 16]), heldOutCheckpointMean: tInterval([13, 15]), busyTotal: tInterval([30, 34]), executions: tInterval([16, 16]) } },
      ],
    };
    const rows = ourRows(summary);
    expect(rows.map((r) => r.preset)).toEqual(['sft', 'wmrl']);
    expect(rows[0].busyTotal).toBeNull();
    expect(rows[1].heldOut?.mean).toBe(15);
    expect(rows[1].seeds).toBe(2);
    // the plan's endpoint where the summary has it; none for a row without checkpoints
    expect(rows[1].heldOutCheckpointMean?.mean).toBe(14);
    expect(rows[0].heldOutCheckpointMean).toBeNull();
  });

  it("says a row's seeds as finished of planned until it is done", () => {
    expect(finishedOfPlanned({ done: [3, 4, 5], planned: [3, 4, 5] })).toBe('3');
    expect(finishedOfPlanned({ done: [3], planned: [3, 4, 5, 6, 7] })).toBe('1 of 5');
    expect(finishedOfPlanned({ done: [], planned: [3, 4] })).toBe('0 of 2');
  });

  it('shows the main experiment first when it is published, else the first one', () => {
    const entry = (name: string) => ({ name, file: `${name}.json`, command: '', presets: [] });
    const index = (...names: string[]): ResultsIndex => ({ format: 'wmrl-results-index', version: 1, results: names.map(entry) });
    expect(defaultEntry(index('a-first', 'main', 'sensitivity-lr'))?.name).toBe('main');
    expect(defaultEntry(index('main', 'claim4-medium', 'main-v2'))?.name).toBe('main-v2');
    expect(defaultEntry(index('main', 'main-v2', 'main-v3', 'claim4-medium-v3'))?.name).toBe('main-v3');
    expect(defaultEntry(index('sensitivity-kl', 'sensitivity-lr'))?.name).toBe('sensitivity-kl');
    expect(defaultEntry(index())).toBeNull();
  });

  it("draws the headline picture from the summary's curve rows: x is mean busy time, the band the score's interval", () => {
    const row = (preset: string, step: number, held: number[], busy: number[]) => ({ preset, step, heldOut: tInterval(held), busySeconds: tInterval(busy) });
    const summary: ExperimentSummary = {
      format: 'wmrl-experiment-summary', version: 1, command: '', presets: [],
      curve: [row('wmrl', 5, [20, 30], [100, 120]), row('wmrl', 0, [10, 12], [0, 0]), row('grpo-all-real', 0, [10], [0])],
    };
    const [wmrl, grpo] = curveLines(summary);
    expect(wmrl.preset).toBe('wmrl');
    // sorted by step, whatever the file's order
    expect(wmrl.mean).toEqual([[0, 11], [110, 25]]);
    expect(wmrl.low![1][1]).toBeCloseTo(tInterval([20, 30]).low!, 12);
    expect(wmrl.seeds).toBe(2);
    // one seed: the mean line alone
    expect(grpo.low).toBeNull();
    expect(curveLines({ ...summary, curve: undefined })).toEqual([]);
  });

  it("shows the plan's decision only where a test of it ran, and says whether the table is complete", () => {
    const base: ExperimentSummary = { format: 'wmrl-experiment-summary', version: 1, command: '', presets: [] };
    // an experiment of our presets: every plan test reads "not run", so no plan table; its own claims ran
    const ours = [1, 2].flatMap((s) => [run('wmrl', s, 0.5 + s / 100, null), run('grpo-all-real', s, 0.5, null)]);
    const older = { ...base, mainTable: decideMainTable(ours), mainTableProgress: mainTableProgress(ours), claims: evaluateClaims(ours) };
    expect(planView(older)).toBeNull();
    expect(claimsRan(older)).toBe(true);
    expect(planView(base)).toBeNull();
    // the plan's presets: its decision, progress counted over the plan's rows; the older claims all "not run", so hidden
    const planned = [3, 4].flatMap((s) => [trained('paper-wmrl', s, 0.5 + s / 100), trained('paper-grpo-all-real', s, 0.5)]);
    const v = planView({ ...base, mainTable: decideMainTable(planned), mainTableProgress: mainTableProgress(planned), claims: evaluateClaims(planned) })!;
    expect(v.primary.id).toBe('primary');
    expect(v.primary.comparison.seeds).toEqual([3, 4]);
    expect(v.tests.map((t) => t.family)).not.toContain('primary');
    expect(v.runsDone).toBe(4);
    expect(v.runsPlanned).toBe(MAIN_TABLE_ROWS.reduce((n, r) => n + r.seeds.length, 0));
    expect(v.complete).toBe(false);
    expect(v.primaryAwaits).toEqual(['paper-wmrl', 'paper-grpo-all-real']);
    expect(v.familyAAwaits).toContain('sft-larger');
    expect(claimsRan({ ...base, claims: evaluateClaims(planned) })).toBe(false);
    // every planned run finished: complete
    const all = MAIN_TABLE_ROWS.flatMap((r) => r.seeds.map((s) => trained(r.preset, s, 0.5)));
    const whole = planView({ ...base, mainTable: decideMainTable(all), mainTableProgress: mainTableProgress(all) })!;
    expect(whole.complete).toBe(true);
    expect([whole.primaryAwaits, whole.familyAAwaits]).toEqual([[], []]);
  });

  it("says beside the verdict what the summary also gives: the primary gap's trend (its curve), claim 4's comparator (A8 - A6)", () => {
    const base: ExperimentSummary = { format: 'wmrl-experiment-summary', version: 1, command: '', presets: [] };
    const seeds = [3, 4, 5];
    const runs = [
      ...seeds.map((s) => trained('paper-grpo-all-real', s, 0.5)),
      ...seeds.map((s) => trained('paper-wmrl', s, 0.55)),
      ...seeds.map((s) => run('sft', s, 0.45, null)),
      ...seeds.map((s) => run('sft-larger', s, 0.42 + s / 1000, null)),
    ];
    // WMRL's lead shrinks by 2 points per checkpoint
    for (const r of runs.filter((x) => x.preset === 'paper-wmrl')) r.curve = r.curve!.map((p, k) => ({ ...p, avgAtK: 0.55 - 0.02 * k }));
    const table = decideMainTable(runs);
    const curve = curveRows(runs, ['paper-grpo-all-real', 'paper-wmrl']);
    const v = planView({ ...base, mainTable: table, mainTableProgress: mainTableProgress(runs), curve })!;
    expect(v.gapTrend).toEqual(curveGapTrend(curve, 'paper-wmrl', 'paper-grpo-all-real'));
    expect(v.gapTrend!.gap.map((x) => formatSigned(x))).toEqual(['+5.00', '+3.00', '+1.00', '-1.00']);
    expect(v.gapTrend!.gapSlope).toBeCloseTo(-2, 9);
    expect(v.largerSft).toEqual(largerSftAgainstSft(table));
    expect(v.largerSft!.interval.mean).toBeCloseTo(-3 + 4 / 10, 9);
    // no amortised ratio in the summary: no break-even; no curve: no trend
    expect(v.breakEven).toBeNull();
    expect(planView({ ...base, mainTable: table, mainTableProgress: mainTableProgress(runs) })!.gapTrend).toBeNull();
  });

  it("lists what the table falls short of: the claims' tests that ran and do not hold, with what each detects", () => {
    const base: ExperimentSummary = { format: 'wmrl-experiment-summary', version: 1, command: '', presets: [] };
    // WMRL 20 points above every other row, which differ by seed noise only (a fixed hash, up to 4 points)
    const noise = (preset: string, seed: number) => { const x = Math.sin(seed * 12.9898 + preset.length * 78.233) * 43758.5453; return (x - Math.floor(x)) * 0.04; };
    const all = MAIN_TABLE_ROWS.flatMap((r) => r.seeds.map((s) => trained(r.preset, s, 0.5 + (r.preset === 'paper-wmrl' ? 0.2 : 0) + noise(r.preset, s))));
    const table = decideMainTable(all);
    const v = planView({ ...base, mainTable: table, mainTableProgress: mainTableProgress(all) })!;
    const ids = v.shortfalls.map((s) => s.id);
    // held: the primary (non-inferiority), WMRL above SFT and above the larger SFT policy
    for (const held of ['primary', 'A6', 'A8']) {
      expect(table.find((t) => t.id === held)!.verdict, held).toBe('holds');
      expect(ids).not.toContain(held);
    }
    // the world model alone against all-real GRPO: noise only, so undecided, with what it could detect at its 10 seeds
    const a2 = v.shortfalls.find((s) => s.id === 'A2')!;
    expect(a2).toMatchObject({ verdict: 'undecided', seeds: 10, digits: 2, mean: table.find((t) => t.id === 'A2')!.comparison.interval!.mean });
    expect(a2.detectable!.seeds).toBe(10);
    expect(a2.detectable!.atMeasuredSd).toBeGreaterThan(0);
    // never a held test, never family B (exploratory), never a test that did not run (no busy times, no anchor weights here)
    expect(v.shortfalls.every((s) => s.verdict !== 'holds' && !s.id.startsWith('B'))).toBe(true);
    expect(ids).not.toContain('A1');
    expect(ids).not.toContain('A7');
  });
});
