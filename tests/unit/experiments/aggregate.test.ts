import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { curveRows, METRICS, pairedComparison, runMetrics, summarisePresets } from '../../../src/experiments/aggregate.ts';
import { csvValue, runsCsv } from '../../../src/experiments/csv.ts';
import { parseCsvRecords, writeCsv } from '../../../src/tasks/csv.ts';
import { formatInterval, renderReport } from '../../../src/experiments/report.ts';
import { isRunResult, runFileName, trimRecord, SFT_PRESET, type RunResult } from '../../../src/experiments/run-result.ts';
import { cost, evaluation, run } from './run-fixtures.ts';
import type { StepRecord } from '../../../src/training/trainer.ts';

const grpoCost = (s: number) => cost({ policySampling: 1000 * s, worldModel: 0, sandbox: 9000 * s, policyUpdate: 2000 * s }, 10_000 * s, 96, 0);
const wmrlCost = (s: number) => cost({ policySampling: 1000 * s, worldModel: 500 * s, sandbox: 1000 * s, policyUpdate: 1500 * s }, 4000 * s, 12, 3);

const RUNS: RunResult[] = [
  run(SFT_PRESET, 1, 0.1, null), run(SFT_PRESET, 2, 0.2, null), run(SFT_PRESET, 3, 0.3, null),
  run('grpo-all-real', 1, 0.2, grpoCost(1)), run('grpo-all-real', 2, 0.3, grpoCost(2)), run('grpo-all-real', 3, 0.4, grpoCost(3)),
  run('wmrl', 1, 0.25, wmrlCost(1)), run('wmrl', 2, 0.35, wmrlCost(2)), run('wmrl', 3, 0.3, null, 'failed'),
];

describe('aggregation', () => {
  it('held-out score against training compute: per preset and step, over the seeds that have the point, the SFT row at step 0', () => {
    const withCurve = (preset: string, seed: number, points: [number, number, number][]): RunResult => ({
      ...run(preset, seed, points[points.length - 1][1], wmrlCost(seed)),
      curve: points.map(([step, avg, busyMs]) => ({ step, avgAtK: avg, trainingBusyMs: busyMs, evaluation: evaluation(avg) })),
    });
    const runs = [
      run(SFT_PRESET, 1, 0.1, null), run(SFT_PRESET, 2, 0.2, null),
      withCurve('wmrl', 1, [[5, 0.2, 10_000], [10, 0.3, 20_000]]),
      withCurve('wmrl', 2, [[5, 0.4, 30_000], [10, 0.5, 40_000]]),
      // a run without evaluations along the way has no curve and adds no point
      run('wmrl', 3, 0.9, wmrlCost(3)),
      withCurve('grpo-all-real', 1, [[10, 0.6, 90_000]]),
    ];
    // another policy's SFT row (claim 4's sft-larger) is not this seed's step 0
    runs.push(run('sft-larger', 1, 0.9, null));
    const rows = curveRows(runs, ['grpo-all-real', 'wmrl']);
    expect(rows.map((r) => [r.preset, r.step, r.heldOut.n])).toEqual([
      ['grpo-all-real', 0, 1], ['grpo-all-real', 10, 1],
      ['wmrl', 0, 2], ['wmrl', 5, 2], ['wmrl', 10, 2],
    ]);
    const w5 = rows.find((r) => r.preset === 'wmrl' && r.step === 5)!;
    expect(w5.heldOut.mean).toBeCloseTo(30, 12);
    expect(w5.busySeconds.mean).toBeCloseTo(20, 12);
    expect(rows.find((r) => r.preset === 'wmrl' && r.step === 0)!.heldOut.mean).toBeCloseTo(15, 12);
    expect(rows.find((r) => r.preset === 'wmrl' && r.step === 0)!.busySeconds.mean).toBe(0);
    expect(renderReport({ title: 't', runs, presets: ['grpo-all-real', 'wmrl'] })).toMatch(/## Held-out score along training[\s\S]*\| wmrl \| 5 \| 2 \| 20 \[/);
    expect(renderReport({ title: 't', runs: RUNS, presets: ['grpo-all-real', 'wmrl'] })).not.toMatch(/along training/);
  });

  it('turns a run into table units: percent, seconds, counts', () => {
    const m = runMetrics(RUNS[3]);
    expect(m.heldOut).toBeCloseTo(20, 12);
    expect(m['busy.sandbox']).toBeCloseTo(9, 12);
    expect(m.busyTotal).toBeCloseTo(12, 12);
    expect(m.trainWall).toBeCloseTo(10, 12);
    expect(m.executions).toBe(96);
    expect(runMetrics(RUNS[0]).busyTotal).toBeUndefined();
    expect(runMetrics(RUNS[8])).toEqual({});
    // the host's load is per core; a run file from before it was recorded has none
    expect(runMetrics({ ...RUNS[3], host: { cpus: 2, samples: 3, meanLoad1: 3, maxLoad1: 4 } }).hostLoad).toBe(1.5);
    expect(runMetrics(RUNS[3]).hostLoad).toBeUndefined();
  });

  it('reads the first and last step: mean raw world-model score and program length, none without the world model', () => {
    const step = (wm: number[] | null, tokens: number[], wA: number) => ({ fusion: { wA }, groups: [{ wmScores: wm, programTokens: tokens, coefficients: tokens.map(() => 0) }] }) as unknown as RunResult['records'][number];
    const r = { ...run('world-model-only', 1, 0, wmrlCost(1)), records: [step([0.2, 0.4], [10, 20], 0), step([0.5, 0.9], [30, 50], 0.5), step([0.8, 1.0], [40, 60], 1)] };
    const m = runMetrics(r);
    expect(m.wmScoreFirst).toBeCloseTo(0.3, 12);
    expect(m.wmScoreLast).toBeCloseTo(0.9, 12);
    expect(m.tokensFirst).toBe(15);
    expect(m.tokensLast).toBe(50);
    expect(m.meanAnchorWeight).toBeCloseTo(0.5, 12);
    const g = runMetrics({ ...r, records: [step(null, [5, 7], 1)] });
    expect(g.wmScoreFirst).toBeUndefined();
    expect(g.tokensLast).toBe(6);
  });

  it('summarises per preset over successful seeds, SFT first, failures listed', () => {
    const s = summarisePresets(RUNS, ['grpo-all-real', 'wmrl']);
    expect(s.map((x) => x.preset)).toEqual([SFT_PRESET, 'grpo-all-real', 'wmrl']);
    const wmrl = s[2];
    expect(wmrl.seeds).toEqual([1, 2]);
    expect(wmrl.failedSeeds).toEqual([3]);
    expect(wmrl.metrics.heldOut?.mean).toBeCloseTo(30, 12);
    // two seeds: t(0.975, 1) = 12.706; sd of (25, 35) = 7.071
    expect(wmrl.metrics.heldOut?.halfWidth).toBeCloseTo((12.7062047 * Math.SQRT2 * 5) / Math.SQRT2, 3);
    expect(s[0].metrics.busyTotal).toBeUndefined();
    expect(s[1].metrics.heldOut?.n).toBe(3);
  });

  it('pairs seeds for ratios and differences, skipping seeds without both runs', () => {
    const r = pairedComparison(RUNS, 'grpo-all-real', 'wmrl', 'busyTotal', 'ratio');
    expect(r.seeds).toEqual([1, 2]);
    expect(r.perSeed[0]).toBeCloseTo(12 / 4, 12);
    expect(r.perSeed[1]).toBeCloseTo(3, 12);
    expect(r.ofMeans).toBeCloseTo(36 / 12, 12);
    const d = pairedComparison(RUNS, 'grpo-all-real', SFT_PRESET, 'heldOut', 'difference');
    expect(d.perSeed.map((x) => Math.round(x * 1e9) / 1e9)).toEqual([10, 10, 10]);
    expect(d.interval?.halfWidth).toBeCloseTo(0, 9);
    expect(pairedComparison(RUNS, 'wmrl', 'nope', 'heldOut', 'difference').interval).toBeNull();
  });

  it('paired differences equal the difference of means over the paired seeds (property)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 6 }), (pairs) => {
      const runs = pairs.flatMap(([a, b], i) => [run('wmrl', i + 1, a, wmrlCost(1)), run('grpo-all-real', i + 1, b, grpoCost(1))]);
      const d = pairedComparison(runs, 'wmrl', 'grpo-all-real', 'heldOut', 'difference');
      expect(d.interval?.mean ?? NaN).toBeCloseTo(d.ofMeans ?? NaN, 9);
      expect(d.seeds).toHaveLength(pairs.length);
    }));
  });
});

describe('report and CSV', () => {
  it('formats intervals', () => {
    expect(formatInterval({ n: 3, mean: 1.234, sd: 1, halfWidth: 0.5, low: 0.734, high: 1.734, level: 0.95, method: 'student-t' }, 2)).toBe('1.23 [0.73, 1.73]');
    expect(formatInterval({ n: 1, mean: 2, sd: null, halfWidth: null, low: null, high: null, level: 0.95, method: 'student-t' }, 1)).toBe('2.0 (n=1)');
    expect(formatInterval(undefined, 1)).toBe('—');
  });

  it('renders the tables, the claim-1 ratio and the failures', () => {
    const md = renderReport({ title: 'Test', runs: RUNS, presets: ['grpo-all-real', 'wmrl'] });
    expect(md).toContain('## Held-out score');
    expect(md).toMatch(/\| grpo-all-real \| 1,2,3 \| 30\.00 \[/);
    expect(md).toContain('| wmrl | 1,2 (failed: 3) | 30.00 [');
    expect(md).toContain('Student-t');
    expect(md).toContain('t quantile 4.303 for 3 seeds');
    expect(md).toMatch(/grpo-all-real \/ wmrl \(total busy s\), per seed: seed 1: 3\.00; seed 2: 3\.00/);
    expect(md).toContain('## Failed runs');
    // the claims table: claim 1 decided from the two paired seeds, claim 4 lacks its larger SFT row
    expect(md).toMatch(/\| 1 \| WMRL needs less compute[^\n]*grpo-all-real \/ wmrl > 1: 3\.00 \[3\.00, 3\.00\], holds[^\n]*\| 2 \| holds \|/);
    expect(md).toMatch(/\| 4 \| [^\n]*\| not run \(no run of sft-larger\) \|/);
    expect(md).toContain('## Training signals (first and last step)');
    // the SFT row has no compute row
    const compute = md.split('## Compute (training)')[1].split('## Claims')[0];
    expect(compute).not.toContain(`| ${SFT_PRESET} |`);
  });

  it("says why the anchors' programs fail and whether the world model sees it", () => {
    const group = (statuses: string[] | null, messages: (string | null)[] | null, wm: number[] | null) => ({ realScores: statuses ? statuses.map(() => 0) : null, wmScores: wm, statuses, messages, programTokens: statuses?.map(() => 1) ?? [1], coefficients: statuses?.map(() => 0) ?? [0] });
    const records = [
      { step: 0, fusion: { wA: 0.5 }, groups: [
        group(['ok', 'error', 'error', 'timeout'], [null, 'File "program.py", line 3\nSyntaxError: invalid syntax', 'static check: does not compile: SyntaxError: unmatched \')\'', 'interrupted after 20000 ms'], [0.2, 0.5, 0, 0.4]),
        group(null, null, [0.9]), // not an anchor: never ran, counts for nothing
      ] },
      { step: 1, fusion: { wA: 0.5 }, groups: [group(['ok', 'error', 'ok', 'ok'], [null, 'TypeError: NotASyntaxError', null, null], [0.4, 0.1, 0.3, 0.3])] },
    ] as unknown as RunResult['records'];
    const m = runMetrics({ ...run('wmrl', 1, 0.3, wmrlCost(1)), records });
    expect(m.anchorNoCompile).toBeCloseTo(25, 12); // 2 of 8
    expect(m.anchorRunFail).toBeCloseTo(25, 12); // the timeout and the TypeError
    // the program the static check rejected was never scored (its s is a placeholder 0): left out of the gap
    expect(m.wmFailedMinusValid).toBeCloseTo((0.5 + 0.4 + 0.1) / 3 - (0.2 + 0.4 + 0.3 + 0.3) / 4, 12);
    // and of the failed-vs-valid pairs: step 0 has (0.5, 0.4 failed) against 0.2 valid, both wrong; step 1 has 0.1 failed against 0.4, 0.3, 0.3, all right
    expect(m.wmValidityAccuracy).toBeCloseTo(3 / 5, 12);
    // world-model-only executes nothing: no anchor programs, no figures
    const none = runMetrics({ ...run('world-model-only', 1, 0.3, wmrlCost(1)), records: [{ step: 0, fusion: { wA: 0 }, groups: [group(null, null, [0.5])] }] as unknown as RunResult['records'] });
    expect([none.anchorNoCompile, none.anchorRunFail, none.wmFailedMinusValid]).toEqual([undefined, undefined, undefined]);
    // all-valid anchors: 0% failures, and no gap to measure
    const clean = runMetrics({ ...run('grpo-all-real', 1, 0.3, grpoCost(1)), records: [{ step: 0, fusion: { wA: 1 }, groups: [group(['ok', 'ok'], [null, null], null)] }] as unknown as RunResult['records'] });
    expect([clean.anchorNoCompile, clean.anchorRunFail, clean.wmFailedMinusValid]).toEqual([0, 0, undefined]);
    expect(renderReport({ title: 't', runs: [...RUNS.slice(0, 6), { ...run('wmrl', 1, 0.3, wmrlCost(1)), records }], presets: ['grpo-all-real', 'wmrl'] })).toMatch(/## Why the anchors' programs fail[\s\S]*\| wmrl \| 25\.0 \(n=1\) \| 25\.0 \(n=1\) \| 0\.033 \(n=1\) \|/);
  });

  it("measures how much of the update the anchor groups carry, sign aside", () => {
    const group = (anchor: boolean, coefficients: number[]) => ({ anchor, coefficients, realScores: null, wmScores: null, statuses: null, programTokens: coefficients.map(() => 1) });
    const records = [
      { step: 0, fusion: { wA: 0.5 }, groups: [group(true, [0.3, -0.3]), group(false, [0.1, -0.1])] },
      { step: 1, fusion: { wA: 0.5 }, groups: [group(true, [0, 0]), group(false, [-0.2, 0.2])] },
    ] as unknown as RunResult['records'];
    expect(runMetrics({ ...run('wmrl', 1, 0.3, wmrlCost(1)), records }).anchorUpdateShare).toBeCloseTo(0.6 / 1.2, 12);
    // a run whose every coefficient is 0 (a flat calibrator, no anchor spread) has no share to report
    const flat = [{ step: 0, fusion: { wA: 0.5 }, groups: [group(true, [0, 0]), group(false, [0, 0])] }] as unknown as RunResult['records'];
    expect(runMetrics({ ...run('wmrl', 1, 0.3, wmrlCost(1)), records: flat }).anchorUpdateShare).toBeUndefined();
    const md = renderReport({ title: 't', runs: [...RUNS.slice(0, 6), { ...run('wmrl', 1, 0.3, wmrlCost(1)), records }], presets: ['grpo-all-real', 'wmrl'] });
    expect(md.split('## Compute (training)')[1].split('## Training signals')[0]).toMatch(/\| wmrl \|[^\n]*\| 0\.500 \(n=1\) \|[^\n]*\|\n/);
  });

  it("measures the world model's within-group ranking on anchor groups only", () => {
    const group = (real: number[] | null, wm: number[] | null, statuses = ['error', 'ok', 'ok']) => ({ realScores: real, wmScores: wm, statuses, programTokens: [1, 1, 1], coefficients: [0, 0, 0] });
    const records = [
      { step: 0, fusion: { wA: 0.5 }, groups: [group([0, 0.5, 0.9], [0.2, 0.6, 0.4]), group(null, [0.9, 0.1, 0.5])] },
      { step: 1, fusion: { wA: 0.5 }, groups: [group([0.3, 0.3, 0.3], [0.1, 0.2, 0.3])] }, // no pair with different y
    ] as unknown as RunResult['records'];
    const m = runMetrics({ ...run('wmrl', 1, 0.3, wmrlCost(1)), records });
    expect(m.wmPairwiseAccuracy).toBeCloseTo(2 / 3, 12); // (0, 0.5) and (0, 0.9) ordered right, (0.5, 0.9) wrong
    // failed vs valid: the failed program (s 0.2) against both valid ones (0.6, 0.4): both right; step 1 adds (s 0.1 failed vs 0.2, 0.3): both right
    expect(m.wmValidityAccuracy).toBe(1);
    const noWm = [{ step: 0, fusion: { wA: 1 }, groups: [group([0.1, 0.5, 0.9], null)] }] as unknown as RunResult['records'];
    expect(runMetrics({ ...run('grpo-all-real', 1, 0.3, grpoCost(1)), records: noWm }).wmPairwiseAccuracy).toBeUndefined();
  });

  it('renders claim 5 (shuffled world-model scores against WMRL) when both ran', () => {
    const withWeights = (r: RunResult, wA: number[]): RunResult => ({ ...r, records: wA.map((w) => ({ fusion: { wA: w }, groups: [] }) as unknown as RunResult['records'][number]) });
    const runs = [1, 2, 3].flatMap((seed) => [
      withWeights(run('wmrl', seed, 0.3, wmrlCost(1)), [0.5, 0.6]),
      withWeights(run('wmrl-unreadable', seed, 0.2, wmrlCost(1)), [0.8, 0.9]),
    ]);
    const md = renderReport({ title: 'Test', runs, presets: ['wmrl', 'wmrl-unreadable'] });
    expect(md).toContain('Claim 5');
    expect(md).toMatch(/wmrl-unreadable - wmrl \(mean anchor weight w_A\), per seed: seed 1: 0\.300; seed 2: 0\.300; seed 3: 0\.300/);
    expect(md).toMatch(/wmrl-unreadable - wmrl \(held-out avg@k x100\), per seed: seed 1: -10\.00/);
    expect(renderReport({ title: 'Test', runs: RUNS, presets: ['grpo-all-real', 'wmrl'] })).not.toContain('Claim 5');
  });

  it('writes one CSV row per run that parses back, with quoting', () => {
    const csv = runsCsv(RUNS);
    const rows = parseCsvRecords(csv);
    expect(rows).toHaveLength(RUNS.length + 1);
    const header = rows[0];
    expect(header).toContain('heldOut');
    expect(header.length).toBe(rows[1].length);
    for (const spec of METRICS) expect(header).toContain(spec.key);
    const failed = rows[RUNS.length];
    expect(failed[header.indexOf('status')]).toBe('failed');
    expect(failed[header.indexOf('error')]).toBe('boom, "quoted"\nsecond line');
    expect(Number(rows[4][header.indexOf('busyTotal')])).toBeCloseTo(12, 12);
    expect(csvValue(Number.NaN)).toBe('');
    expect(csvValue(null)).toBe('');
    fc.assert(fc.property(fc.array(fc.string(), { minLength: 2, maxLength: 5 }), (fields) => {
      expect(parseCsvRecords(writeCsv(fields, [fields]))).toEqual([fields, fields]);
    }));
  });
});

describe('run results', () => {
  it('trims program texts but keeps their lengths, unless asked to keep them', () => {
    const group = { taskId: 't', anchor: true, programs: ['abc', 'de'], programTokens: [3, 2], stopped: [true, true], wmScores: null, wmRewards: null, realScores: [0, 1], statuses: null, rewards: [0, 1], advantages: [-0.5, 0.5], coefficients: [-0.5, 0.5] };
    const record = { step: 0, groups: [group] } as unknown as StepRecord;
    const t = trimRecord(record, false);
    expect(t.groups[0].programs).toBeUndefined();
    expect(t.groups[0].programChars).toEqual([3, 2]);
    expect(t.groups[0].rewards).toEqual([0, 1]);
    expect(trimRecord(record, true).groups[0].programs).toEqual(['abc', 'de']);
    expect(JSON.stringify(t)).not.toContain('abc');
  });

  it('names files safely and recognises its own format', () => {
    expect(runFileName('wmrl', 2)).toBe('wmrl-seed2.json');
    expect(runFileName('wmrl', 2, true)).toBe('wmrl-seed2.failed.json');
    expect(() => runFileName('../x', 1)).toThrow(RangeError);
    expect(isRunResult(RUNS[0])).toBe(true);
    expect(isRunResult({ format: 'other' })).toBe(false);
  });
});
