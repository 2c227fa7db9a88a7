// The robot table's decision from run files (docs/results.md, "The robot table: plan"): the pooled
// endpoint, the primary test decided by its interval alone, family R Holm-corrected over every test it
// names (a test without a p counts as 1), verdicts on the paper's side.
// The second plan, robot-table-v2 (issue 46's DRAFT), is decided by the same code from its own data.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROBOT_PRESET_IDS } from '../../../src/embodied/robot-presets.ts';
import type { RobotRunResult } from '../../../src/embodied/robot-run.ts';
import { ROBOT_TABLE_PLANS, ROBOT_TABLE_ROWS, ROBOT_TABLE_TESTS, ROBOT_TABLE_V1, ROBOT_TABLE_V2, decideRobotTable, robotRunMetrics, robotTableMarkdown, robotTableProgress, robotTableSummary, summariseRobotRows } from '../../../src/experiments/robot-table.ts';

/** A run file with what the table reads: the preset, the seed, its evaluation and its steps' training success. */
function run(preset: string, seed: number, train: [number, number], heldoutTasks: [number, number], stepsSuccess: number[] = preset === 'robot-sft' ? [] : [0.25, 0.3]): RobotRunResult {
  return {
    format: 'wmrl-robot-run', version: 1,
    request: { preset, seed, evaluation: { statesPerTask: 3, temperature: 1, trials: 4 } },
    steps: stepsSuccess.map((successRate) => ({ successRate })),
    evaluation: { statesPerTask: 3, temperature: 1, trials: 4, trainTasksHeldoutStates: { successes: train[0], episodes: train[1], rate: train[0] / train[1], byTask: {} }, heldoutTasksHeldoutStates: { successes: heldoutTasks[0], episodes: heldoutTasks[1], rate: 0, byTask: {} }, ms: 1 },
    wallMs: 60_000, machine: 'test',
  } as unknown as RobotRunResult;
}

describe('the robot table', () => {
  it('the endpoint pools both held-out sets; training success is the steps\' mean, none for SFT', () => {
    const m = robotRunMetrics(run('robot-wmrl', 1, [60, 240], [15, 60], [0.2, 0.4]));
    expect(m.heldOut).toBeCloseTo(25, 12);
    expect(m.trainTasksHeldoutStates).toBeCloseTo(25, 12);
    expect(m.heldoutTasks).toBeCloseTo(25, 12);
    expect(m.training).toBeCloseTo(30, 12);
    expect(robotRunMetrics(run('robot-sft', 1, [30, 240], [0, 60])).training).toBeNull();
    expect(robotRunMetrics(run('robot-sft', 1, [30, 240], [0, 60])).heldOut).toBeCloseTo(10, 12);
  });

  it('plans the primary test and ten family tests: progress alone, wmrl against each correction set, each RL row against SFT', () => {
    expect(ROBOT_TABLE_TESTS.filter((t) => t.family === 'primary').map((t) => [t.a, t.b])).toEqual([['robot-wmrl', 'robot-grpo-sparse']]);
    const family = ROBOT_TABLE_TESTS.filter((t) => t.family === 'R');
    expect(family).toHaveLength(10);
    expect(family.filter((t) => t.b === 'robot-sft').map((t) => t.a).sort()).toEqual(ROBOT_TABLE_ROWS.filter((p) => p !== 'robot-sft').slice().sort());
  });

  it('the primary test: holds when the interval is above 0, fails below, undecided across, not run without pairs', () => {
    const primary = (diffs: number[]) => {
      const runs = diffs.flatMap((d, i) => [run('robot-wmrl', i + 1, [100 + d * 3, 300], [0, 0] as [number, number]), run('robot-grpo-sparse', i + 1, [100, 300], [0, 0] as [number, number])]);
      return decideRobotTable(runs.map((r) => ({ ...r, evaluation: { ...r.evaluation, heldoutTasksHeldoutStates: { ...r.evaluation.heldoutTasksHeldoutStates, episodes: 0 } } })) as RobotRunResult[]).find((t) => t.id === 'primary')!;
    };
    expect(primary([3, 4, 5, 4, 3]).verdict).toBe('holds');
    expect(primary([-3, -4, -5, -4, -3]).verdict).toBe('fails');
    expect(primary([3, -4, 5, -4, 1]).verdict).toBe('undecided');
    expect(primary([4]).verdict).toBe('undecided');
    expect(decideRobotTable([]).find((t) => t.id === 'primary')!.verdict).toBe('not run');
  });

  it('family R is corrected over all ten tests even when only one has run: p x 10 below 0.05 holds, above does not', () => {
    // R1 alone with two seeds: one pair of differences with p x 10 below 0.05, one above.
    const decideWith = (d1: number, d2: number) => {
      const runs = [
        run('robot-progress-only', 1, [100 + d1, 300], [0, 1]), run('robot-grpo-sparse', 1, [100, 300], [0, 1]),
        run('robot-progress-only', 2, [100 + d2, 300], [0, 1]), run('robot-grpo-sparse', 2, [100, 300], [0, 1]),
      ];
      return decideRobotTable(runs).find((t) => t.id === 'R1')!;
    };
    const strong = decideWith(30, 30.06);
    const weak = decideWith(30, 31.5);
    expect(strong.p! * 10).toBeLessThan(0.05);
    expect(strong.pHolm).toBeCloseTo(Math.min(1, strong.p! * 10), 12);
    expect(strong.verdict).toBe('holds');
    expect(weak.p! * 10).toBeGreaterThan(0.05);
    expect(weak.verdict).toBe('undecided');
  });

  it('Holm never lowers a p, and a verdict is never "holds" on the wrong side (property)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -30, max: 30 }), { minLength: 2, maxLength: 6 }), fc.array(fc.integer({ min: -30, max: 30 }), { minLength: 2, maxLength: 6 }), (da, db) => {
      const runs: RobotRunResult[] = [];
      da.forEach((d, i) => runs.push(run('robot-wmrl', i, [150 + d, 300], [0, 1]), run('robot-sft', i, [150, 300], [0, 1]), run('robot-grpo-sparse', i, [150 + (db[i] ?? 0), 300], [0, 1])));
      for (const t of decideRobotTable(runs)) {
        if (t.p !== null && t.pHolm !== null) expect(t.pHolm).toBeGreaterThanOrEqual(t.p - 1e-15);
        if (t.verdict === 'holds') expect(t.comparison.interval!.mean).toBeGreaterThan(0);
        if (t.verdict === 'fails') expect(t.comparison.interval!.mean).toBeLessThan(0);
      }
    }));
  });

  it('summary rows in the plan\'s order, each seed once; the markdown carries the paper\'s Table 3 beside', () => {
    const runs = [1, 2, 3].flatMap((s) => [run('robot-sft', s, [40, 240], [2, 60]), run('robot-wmrl', s, [50 + s, 240], [3, 60])]);
    const rows = summariseRobotRows(runs);
    expect(rows.map((r) => r.preset)).toEqual([...ROBOT_TABLE_ROWS]);
    expect(rows.find((r) => r.preset === 'robot-wmrl')!.seeds).toEqual([1, 2, 3]);
    expect(rows.find((r) => r.preset === 'robot-neither')!.heldOut).toBeNull();
    const md = robotTableMarkdown(runs, 'npm run experiment -- --domain robot');
    expect(md).toMatch(/\| robot-wmrl \| 3 \| [\d.]+ \[[\d.-]+, [\d.-]+\] \|.*\| 41\.2 \(Table 3\) \|/);
    expect(md).toMatch(/\| R6 \| robot-progress-only - robot-sft \| 0 \| - \| - \| - \| not run \|/);
    // run files without provenance (those committed before it) give no source line
    expect(md).not.toMatch(/^Source:/m);
  });

  it('the markdown names the commits the runs ran and warns of a dirty tree, under the command', () => {
    const provenance = (dirty: boolean) => ({ commit: 'c'.repeat(40), dirty, gitError: null, toolkitHash: 'd'.repeat(64), startedAt: '2026-02-01T10:00:00.000Z', finishedAt: '2026-02-01T11:00:00.000Z' });
    const runs = [1, 2].map((s) => ({ ...run('robot-wmrl', s, [50, 240], [3, 60]), provenance: provenance(s === 2) }));
    expect(robotTableMarkdown(runs, 'npm run experiment -- --domain robot')).toMatch(/file\(s\) by `npm run experiment -- --domain robot`\. Plan: .*\nSource: commit ccccccc \(2 runs\)\. \*\*Warning: 1 run started from a dirty tree/);
  });
});

describe('robot table v2 (issue 46), a plan as data', () => {
  it("has the DRAFT's rows and tests (docs/results.md): primary WMRL - sparse GRPO, R1-R4 each trained row - SFT, R5 the anchor regimes, R6 progress - sparse", () => {
    expect(ROBOT_TABLE_V2.rows).toEqual(['robot-sft', 'robot-paper-grpo-sparse', 'robot-paper-wmrl', 'robot-paper-wmrl-anchors', 'robot-paper-progress-only']);
    for (const row of ROBOT_TABLE_V2.rows) expect(ROBOT_PRESET_IDS).toContain(row);
    expect(ROBOT_TABLE_V2.tests.map((t) => [t.id, t.family, t.a, t.b])).toEqual([
      ['primary', 'primary', 'robot-paper-wmrl', 'robot-paper-grpo-sparse'],
      ['R1', 'R', 'robot-paper-grpo-sparse', 'robot-sft'],
      ['R2', 'R', 'robot-paper-wmrl', 'robot-sft'],
      ['R3', 'R', 'robot-paper-wmrl-anchors', 'robot-sft'],
      ['R4', 'R', 'robot-paper-progress-only', 'robot-sft'],
      ['R5', 'R', 'robot-paper-wmrl', 'robot-paper-wmrl-anchors'],
      ['R6', 'R', 'robot-paper-progress-only', 'robot-paper-grpo-sparse'],
    ]);
    // beside its rows, Table 3's three figures and nothing else
    expect(Object.fromEntries(ROBOT_TABLE_V2.rows.map((r) => [r, ROBOT_TABLE_V2.paper[r]?.success ?? null]))).toEqual({
      'robot-sft': 37.4, 'robot-paper-grpo-sparse': 38.3, 'robot-paper-wmrl': 41.2, 'robot-paper-wmrl-anchors': null, 'robot-paper-progress-only': null,
    });
    // v1 is today's table
    expect([ROBOT_TABLE_V1.rows, ROBOT_TABLE_V1.tests]).toEqual([ROBOT_TABLE_ROWS, ROBOT_TABLE_TESTS]);
  });

  it('each plan names a section of docs/results.md and a distinct name', () => {
    const headings = readFileSync(join(import.meta.dirname, '../../../docs/results.md'), 'utf8').split('\n').filter((l) => l.startsWith('## '));
    for (const plan of ROBOT_TABLE_PLANS) expect(headings.some((h) => h.startsWith(`## ${plan.section}`)), plan.section).toBe(true);
    expect(new Set(ROBOT_TABLE_PLANS.map((p) => p.name)).size).toBe(ROBOT_TABLE_PLANS.length);
  });

  it("decides v2's tests from its own data: the primary by its interval alone, family R Holm over six tests", () => {
    // five seeds: sparse GRPO about 10 points above SFT, WMRL 1 to 2 points above sparse GRPO
    const runs = [11, 12, 13, 14, 15].flatMap((s) => [
      run('robot-sft', s, [100, 300], [0, 1]),
      run('robot-paper-grpo-sparse', s, [130 + (s % 2), 300], [0, 1]),
      run('robot-paper-wmrl', s, [134 + (s % 3), 300], [0, 1]),
    ]);
    const decided = decideRobotTable(runs, ROBOT_TABLE_V2.tests);
    const byId = (id: string) => decided.find((t) => t.id === id)!;
    expect(byId('primary').comparison.seeds).toEqual([11, 12, 13, 14, 15]);
    expect(byId('primary').comparison.interval!.low!).toBeGreaterThan(0);
    expect(byId('primary').pHolm).toBe(byId('primary').p);
    expect(byId('primary').verdict).toBe('holds');
    // R1 and R2 have p; R3 to R6 count as 1: R1's adjusted p is Holm's over six, never v1's ten
    const [r1, r2] = [byId('R1'), byId('R2')];
    const [lo, hi] = r1.p! <= r2.p! ? [r1, r2] : [r2, r1];
    expect(lo.pHolm).toBeCloseTo(Math.min(1, lo.p! * 6), 12);
    expect(hi.pHolm).toBeCloseTo(Math.max(lo.pHolm!, Math.min(1, hi.p! * 5)), 12);
    expect([r1.verdict, r2.verdict]).toEqual(['holds', 'holds']);
    for (const id of ['R3', 'R4', 'R5', 'R6']) expect(byId(id).verdict).toBe('not run');
    // the same runs under v1 meet none of its rows
    expect(decideRobotTable(runs).every((t) => t.verdict === 'not run')).toBe(true);
    // the summary and the markdown follow the plan: its rows, its title, its name in summary.json
    const summary = robotTableSummary(runs, 'cmd', ROBOT_TABLE_V2);
    expect([summary.plan, summary.rows.map((r) => r.preset), summary.tests.length]).toEqual(['robot-table-v2', ROBOT_TABLE_V2.rows, 7]);
    expect(robotTableSummary(runs, 'cmd').plan).toBeUndefined();
    const md = robotTableMarkdown(runs, 'cmd', ROBOT_TABLE_V2);
    expect(md.split('\n')[0]).toBe('# Robot table v2 (issue 46, `--plan robot-table-v2`)');
    expect(md).toContain('Plan: docs/results.md, "Robot table v2 (issue 46): plan".');
    expect(md).toMatch(/^\| robot-paper-wmrl \| 5 \| .*\| 41\.2 \(Table 3\) \|/m);
    expect(md).toMatch(/^\| robot-paper-wmrl-anchors \| 0 \| .*\| - \| - \|$/m);
    // 15 of the 50 planned runs: every decided verdict says it is provisional, in the markdown and summary.json
    expect(md).toMatch(/^\| R1 \| robot-paper-grpo-sparse - robot-sft \| 5 \| .*\| holds \(provisional\) \|$/m);
    expect(md).toMatch(/^\| primary \| .*\| holds \(provisional\) \|$/m);
    expect(md).toContain('In progress: 15 of the 50 planned runs (seeds 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 for every row) have finished; the table gives each row\'s seeds so far.');
    expect(md).toMatch(/^\| R3 \| .*\| not run \|$/m);
    expect(summary.tests.find((t) => t.id === 'R1')!.awaits).toEqual(['robot-paper-grpo-sparse', 'robot-sft', 'robot-paper-wmrl', 'robot-paper-wmrl-anchors', 'robot-paper-progress-only']);
    expect(summary.tests.find((t) => t.id === 'primary')!.awaits).toEqual(['robot-paper-wmrl', 'robot-paper-grpo-sparse']);
  });

  it('a verdict is final once the rows it waits for have every planned seed: the primary its own two, family R all of its rows', () => {
    const seeds = ROBOT_TABLE_V2.seeds;
    expect(seeds).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    const rows = (presets: readonly string[]) => seeds.flatMap((s) => presets.map((p) => run(p, s, [p === 'robot-sft' ? 100 : 130 + (s % 2) + (p === 'robot-paper-wmrl' ? 4 + (s % 3) : 0), 300], [0, 1])));
    // the primary pair and SFT complete, the other two rows not started: the primary is final, R1 is not
    const three = rows(['robot-sft', 'robot-paper-grpo-sparse', 'robot-paper-wmrl']);
    const progress = robotTableProgress(three, ROBOT_TABLE_V2);
    expect(progress.map((r) => [r.preset, r.done.length, r.planned.length])).toEqual([['robot-sft', 10, 10], ['robot-paper-grpo-sparse', 10, 10], ['robot-paper-wmrl', 10, 10], ['robot-paper-wmrl-anchors', 0, 10], ['robot-paper-progress-only', 0, 10]]);
    const partial = robotTableMarkdown(three, 'cmd', ROBOT_TABLE_V2);
    expect(partial).toMatch(/^\| primary \| .*\| holds \|$/m);
    expect(partial).toMatch(/^\| R1 \| .*\| holds \(provisional\) \|$/m);
    expect(partial).toContain('In progress: 30 of the 50 planned runs (seeds 11');
    // a run outside the planned seeds completes nothing
    expect(robotTableProgress([...three, run('robot-paper-wmrl-anchors', 1, [100, 300], [0, 1])], ROBOT_TABLE_V2)[3].done).toEqual([]);
    // every row at every seed: final, and no verdict carries the mark
    const all = robotTableMarkdown(rows(ROBOT_TABLE_V2.rows), 'cmd', ROBOT_TABLE_V2);
    expect(all).toContain('Every row has a finished run at each of its 10 planned seeds: the verdicts are final.');
    expect(all).not.toContain('provisional');
    expect(all).toMatch(/^\| R1 \| .*\| holds \|$/m);
  });
});
