// The metric math of wm-eval's baseline table: the task bootstrap, the group figures, the family and
// lookup baselines, the status ladder and its reading of a scalar score.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupAuc, meanWithinSpearmanValid, pairwiseValid, type GroupItem } from '../../../src/pipeline/group-metrics.ts';
import { fitLadderReading, ladderReadingJSON, parseLadderReading, QUALITY_BUCKETS, qualityBucket, type LadderRow } from '../../../src/pipeline/ladder-reading.ts';
import { fitMeanLookup } from '../../../src/pipeline/mean-lookup.ts';
import { programFamily } from '../../../src/pipeline/program-family.ts';
import { predictorRow, populationCounts, type EvalProgram } from '../../../src/pipeline/baseline-table.ts';
import { ladderReward, ladderStatus, LADDER_STATUSES } from '../../../src/pipeline/status-ladder.ts';
import { quantileSorted, taskBootstrap } from '../../../src/pipeline/task-bootstrap.ts';
import { baselinePredictors, baselineRows, type CheckedProgram } from '../../../src/pipeline/wm-baselines.ts';

const item = fc.record({ valid: fc.boolean(), y: fc.integer({ min: 0, max: 20 }).map((v) => v / 20), predicted: fc.integer({ min: -50, max: 50 }) });
const groups = fc.array(fc.array(item, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 6 });
const mapGroups = (gs: GroupItem[][], f: (x: number) => number): GroupItem[][] => gs.map((g) => g.map((i) => ({ ...i, predicted: f(i.predicted) })));

describe('group figures', () => {
  it('AUC, within-task Spearman and pairwise accuracy are invariant to a strictly increasing map of the score', () => {
    fc.assert(
      fc.property(groups, (gs) => {
        const up = mapGroups(gs, (x) => Math.exp(x / 20) * 3 - 7);
        for (const f of [groupAuc, meanWithinSpearmanValid, (g: GroupItem[][]) => pairwiseValid(g).accuracy]) {
          const a = f(gs);
          const b = f(up);
          if (Number.isNaN(a)) expect(b).toBeNaN();
          else expect(b).toBeCloseTo(a, 10);
        }
      }),
    );
  });

  it('a decreasing map turns AUC a into 1 - a', () => {
    fc.assert(
      fc.property(groups, (gs) => {
        const a = groupAuc(gs);
        fc.pre(!Number.isNaN(a));
        expect(groupAuc(mapGroups(gs, (x) => -x))).toBeCloseTo(1 - a, 10);
      }),
    );
  });

  it('a perfect ranker has pairwise accuracy 1 and AUC 1; a constant one 0.5', () => {
    fc.assert(
      fc.property(groups, (gs) => {
        const perfect = gs.map((g) => g.map((i) => ({ ...i, predicted: (i.valid ? 2 : 0) + i.y })));
        const pw = pairwiseValid(perfect);
        if (pw.pairs > 0) expect(pw.accuracy).toBe(1);
        const auc = groupAuc(perfect);
        if (!Number.isNaN(auc)) expect(auc).toBe(1);
        const constant = gs.map((g) => g.map((i) => ({ ...i, predicted: 0.3 })));
        if (pw.pairs > 0) expect(pairwiseValid(constant).accuracy).toBe(0.5);
        if (!Number.isNaN(auc)) expect(groupAuc(constant)).toBe(0.5);
      }),
    );
  });

  it('pairs never cross tasks and failures never enter the ranking figures', () => {
    const a: GroupItem[] = [
      { valid: true, y: 0.2, predicted: 1 },
      { valid: true, y: 0.8, predicted: 2 },
      { valid: false, y: 0, predicted: 9 },
    ];
    const b: GroupItem[] = [
      { valid: true, y: 0.1, predicted: 5 },
      { valid: true, y: 0.9, predicted: 0 },
    ];
    // within a: right; within b: wrong; across (not counted) would add more
    expect(pairwiseValid([a, b])).toEqual({ accuracy: 0.5, pairs: 2 });
    expect(meanWithinSpearmanValid([a, b])).toBeNaN(); // no task has 3 valid programs
    expect(meanWithinSpearmanValid([[...a, { valid: true, y: 0.5, predicted: 1.5 }]])).toBeCloseTo(1, 12);
  });
});

describe('task bootstrap', () => {
  it('is seeded, ordered, and brackets the figure when every task agrees', () => {
    fc.assert(
      fc.property(groups, fc.integer({ min: 0, max: 1000 }), (gs, seed) => {
        const f = (g: readonly (readonly GroupItem[])[]) => g.flat().reduce((s, i) => s + i.y, 0) / g.flat().length;
        const r1 = taskBootstrap(gs, f, { seed, resamples: 50 });
        const r2 = taskBootstrap(gs, f, { seed, resamples: 50 });
        expect(r1).toEqual(r2);
        expect(r1.low).toBeLessThanOrEqual(r1.high);
        const same = gs.map(() => gs[0]);
        const r3 = taskBootstrap(same, f, { seed, resamples: 50 });
        expect(r3.low).toBeCloseTo(r3.value, 12);
        expect(r3.high).toBeCloseTo(r3.value, 12);
      }),
    );
  });

  it('resamples whole tasks: a task drawn twice is two groups, and undefined resamples are counted out', () => {
    const seen: number[] = [];
    const r = taskBootstrap([[1], [2], [3]], (g) => (seen.push(g.length), g.some((x) => x[0] === 1) ? 1 : Number.NaN), { seed: 3, resamples: 200 });
    expect(seen.every((n) => n === 3)).toBe(true);
    expect(r.defined).toBeLessThan(200);
    expect(r.defined).toBeGreaterThan(100); // P(task 1 drawn) = 1 - (2/3)^3 = 0.70
    expect(() => taskBootstrap([[1]], () => 1, { seed: 1, level: 1 })).toThrow(/level/);
  });

  it('quantiles interpolate between order statistics', () => {
    expect(quantileSorted([0, 10], 0.25)).toBe(2.5);
    expect(quantileSorted([], 0.5)).toBeNaN();
  });
});

describe('family and lookups', () => {
  it('reads the family from the constructors a program calls', () => {
    const prog = (m: string) => `import toolkit as tk\ntask = tk.load_task()\npre = tk.Preprocessor(impute='median')\nmodel = ${m}\n`;
    expect(programFamily(prog('tk.RandomForestClassifier(n_trees=30)'))).toBe('forest');
    expect(programFamily(prog('tk.TargetTransform(tk.Ridge(alpha=1.0), "log1p")'))).toBe('ridge');
    expect(programFamily(prog('{"a": lambda: tk.Ridge(), "b": lambda: tk.KNeighborsRegressor(k=5)}'))).toBe('several');
    expect(programFamily(prog('None'))).toBe('none');
  });

  it('a lookup predicts the mean of its most specific key seen, then falls back', () => {
    const l = fitMeanLookup([
      { keys: ['forest|binary', 'forest'], y: 1 },
      { keys: ['forest|regression', 'forest'], y: 0 },
      { keys: ['knn|binary', 'knn'], y: 0.5 },
    ]);
    expect(l.predict(['forest|binary', 'forest'])).toBe(1);
    expect(l.predict(['forest|multiclass', 'forest'])).toBe(0.5);
    expect(l.predict(['gbm|binary', 'gbm'])).toBe(0.5);
    expect(() => fitMeanLookup([])).toThrow(/no fitting/);
  });
});

describe('status ladder', () => {
  it('orders what became of a program and pays the authors reward', () => {
    expect(ladderStatus('  \n', true, 'error')).toBe('malformed');
    expect(ladderStatus('x = (', false, 'error')).toBe('syntax error');
    expect(ladderStatus('x = 1', true, 'timeout')).toBe('runtime error');
    expect(ladderStatus('x = 1', true, 'error')).toBe('runtime error');
    expect(ladderStatus('x = 1', true, 'invalid')).toBe('ran without submission');
    expect(ladderStatus('x = 1', true, 'ok')).toBe('valid');
    expect(LADDER_STATUSES.map((s) => (s === 'valid' ? ladderReward(s, 0.5) : ladderReward(s, 0)))).toEqual([0, 0, 0.1, 0.2, 0.75]);
    expect(ladderReward('valid', 1)).toBe(1);
    expect(() => ladderReward('valid', Number.NaN)).toThrow(/position/);
  });

  const row = (score: number, status: LadderRow['status'], y = 0.5): LadderRow => ({ score, status, reward: ladderReward(status, y), compiles: status !== 'syntax error', blank: false });

  it('a reading fitted on separable scores reads each status back, and its reward never falls as the score rises', () => {
    const rows = [...Array.from({ length: 30 }, (_, i) => row(i / 100, 'syntax error')), ...Array.from({ length: 30 }, (_, i) => row(0.4 + i / 100, 'runtime error')), ...Array.from({ length: 40 }, (_, i) => row(0.8 + i / 200, 'valid', i / 40))];
    const r = fitLadderReading(rows);
    for (const x of rows) expect(r.read(x.score, x).statuses[0]).toBe(x.status);
    fc.assert(
      fc.property(fc.double({ min: -1, max: 2, noNaN: true }), fc.double({ min: -1, max: 2, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(r.read(lo, { compiles: true, blank: false }).reward).toBeLessThanOrEqual(r.read(hi, { compiles: true, blank: false }).reward + 1e-12);
      }),
    );
  });

  it('the second guess is another status, and the gate answers before the score', () => {
    const rows = [row(0, 'valid'), row(0, 'valid'), row(0, 'runtime error'), row(1, 'valid'), row(5, 'syntax error')];
    const open = fitLadderReading(rows, { bins: 2 });
    for (const s of [-1, 0, 1, 9]) {
      const g = open.read(s, { compiles: true, blank: false });
      expect(g.statuses[0]).not.toBe(g.statuses[1]);
    }
    const gated = fitLadderReading(rows, { bins: 2, gate: true });
    expect(gated.read(9, { compiles: false, blank: false })).toEqual({ statuses: ['syntax error', 'malformed'], reward: 0, quality: null });
    expect(gated.read(9, { compiles: true, blank: true }).statuses[0]).toBe('malformed');
    // the gate keeps non-compiling programs out of the fit: score 5 now reads as the valid programs' reward
    expect(gated.read(5, { compiles: true, blank: false }).reward).toBeGreaterThan(0.5);
    expect(() => fitLadderReading([row(1, 'syntax error')], { gate: true })).toThrow(/gate/);
  });

  it('a valid first guess carries the quality bucket of the position it reads; other guesses carry none', () => {
    expect(QUALITY_BUCKETS.map((_, i) => qualityBucket(i / 4 + 0.01))).toEqual(['low', 'fair', 'mid', 'high']);
    expect(qualityBucket(1)).toBe('high');
    expect(() => qualityBucket(1.5)).toThrow(/position/);
    // valid programs whose position rises with the score, failures below them
    const rows = [...Array.from({ length: 20 }, (_, i) => row(i / 100, 'runtime error')), ...Array.from({ length: 40 }, (_, i) => row(0.5 + i / 100, 'valid', i / 39))];
    const r = fitLadderReading(rows, { bins: 4 });
    expect(r.read(0.05, { compiles: true, blank: false }).quality).toBeNull();
    expect(r.read(0.52, { compiles: true, blank: false }).quality).toBe('low');
    expect(r.read(0.89, { compiles: true, blank: false }).quality).toBe('high');
  });

  it('a reading written as JSON reads back the same guesses, and a broken file is refused by name', () => {
    const rows = [...Array.from({ length: 30 }, (_, i) => row(i / 100, 'syntax error')), ...Array.from({ length: 30 }, (_, i) => row(0.4 + i / 100, 'ran without submission')), ...Array.from({ length: 40 }, (_, i) => row(0.8 + i / 200, 'valid', i / 40))];
    for (const gate of [false, true]) {
      const r = fitLadderReading(rows, { gate });
      const file = ladderReadingJSON(r, 'test');
      const back = parseLadderReading(JSON.stringify(file), 'x.json');
      expect(back.fittedOn).toBe('test');
      fc.assert(
        fc.property(fc.double({ min: -1, max: 2, noNaN: true }), fc.boolean(), (s, compiles) => {
          expect(back.reading.read(s, { compiles, blank: false })).toEqual(r.read(s, { compiles, blank: false }));
        }),
      );
    }
    const good = ladderReadingJSON(fitLadderReading(rows), 'test');
    expect(() => parseLadderReading('{', 'm/ladder-reading.json')).toThrow(/m\/ladder-reading.json: not a ladder reading \(not JSON/);
    expect(() => parseLadderReading(JSON.stringify({ ...good, version: 2 }), 'f')).toThrow(/format or version/);
    expect(() => parseLadderReading(JSON.stringify({ ...good, cuts: [...good.cuts].reverse() }), 'f')).toThrow(/cuts must increase|one bin/);
    expect(() => parseLadderReading(JSON.stringify({ ...good, bins: good.bins.slice(1) }), 'f')).toThrow(/one bin more/);
    expect(() => parseLadderReading(JSON.stringify({ ...good, bins: good.bins.map((b) => ({ ...b, statuses: ['valid', 'winning'] })) }), 'f')).toThrow(/bin 0/);
    expect(() => parseLadderReading(JSON.stringify({ ...good, reward: { x: good.reward.x, y: good.reward.y.map((v) => 1 - v) } }), 'f')).toThrow(/reward.y must rise/);
    expect(() => parseLadderReading(JSON.stringify({ ...good, position: { x: [1, 0], y: [0, 1] } }), 'f')).toThrow(/position/);
  });
});

describe('predictor row', () => {
  const programs: EvalProgram[] = [
    { taskId: 'a', valid: true, y: 0.9, status: 'valid', reward: 0.95 },
    { taskId: 'a', valid: true, y: 0.1, status: 'valid', reward: 0.55 },
    { taskId: 'a', valid: false, y: 0, status: 'syntax error', reward: 0 },
    { taskId: 'b', valid: true, y: 0.7, status: 'valid', reward: 0.85 },
    { taskId: 'b', valid: true, y: 0.3, status: 'valid', reward: 0.65 },
    { taskId: 'b', valid: false, y: 0, status: 'runtime error', reward: 0.1 },
  ];
  it('scores the truth itself perfectly, counts programs and statuses, and refuses misaligned input', () => {
    const truth = programs.map((p) => p.reward);
    const r = predictorRow('oracle', programs, truth, programs.map((p) => ({ statuses: [p.status, 'malformed'], reward: p.reward })), { seed: 1, resamples: 20 });
    expect(r.auc.value).toBe(1);
    expect(r.pairwise.value).toBe(1);
    expect(r.statusAt1.value).toBe(1);
    expect(r.ladderMae.value).toBe(0);
    expect(populationCounts(programs)).toMatchObject({ programs: 6, failed: 2, tasks: 2, pairs: 2, statuses: { valid: 4, 'syntax error': 1, 'runtime error': 1 } });
    expect(() => predictorRow('short', programs, [1], [], { seed: 1 })).toThrow(/6 programs/);
  });
});

describe('the baseline predictors', () => {
  const prog = (m: string) => `import toolkit as tk\ntask = tk.load_task()\nmodel = ${m}\n`;
  const cp = (taskId: string, model: string, valid: boolean, y: number, wm: number, compiles = true): CheckedProgram => {
    const status = ladderStatus(prog(model), compiles, valid ? 'ok' : 'error');
    return { taskId, program: prog(model), taskType: 'binary', compiles, verifierOk: compiles, valid, y, status, reward: ladderReward(status, y), wm };
  };
  const fit = [cp('f1', 'tk.RandomForestClassifier()', true, 0.9, 0.8), cp('f1', 'tk.GaussianNB()', true, 0.2, 0.3), cp('f2', 'tk.RandomForestClassifier()', true, 0.7, 0.7), cp('f2', 'tk.GaussianNB(', false, 0, 0.1, false)];
  const population = [
    cp('h1', 'tk.RandomForestClassifier(n_trees=10)', true, 0.8, 0.2),
    cp('h1', 'tk.GaussianNB()', true, 0.1, 0.6),
    cp('h1', 'tk.KNeighborsClassifier(k=5)', true, 0.5, 0.4),
    cp('h1', 'tk.GaussianNB(', false, 0, 0.9, false),
    cp('h2', 'tk.RandomForestClassifier()', true, 0.6, 0.5),
    cp('h2', 'tk.GaussianNB()', true, 0.3, 0.1),
    cp('h2', 'tk.Ridge(', false, 0, 0.05, false),
  ];

  it('lookups learn from the fitting set only, and the gates stop what does not compile', () => {
    const names = baselinePredictors(fit).map((p) => p.name);
    expect(names[0]).toMatch(/constant/);
    const byName = Object.fromEntries(baselinePredictors(fit).map((p) => [p.name, p]));
    // forest 0.8 and naive Bayes 0.1 on the fitting set; kNN unseen there: the overall mean
    expect(byName['model-family lookup'].score(population[0])).toBeCloseTo(0.8, 12);
    expect(byName['model-family lookup'].score(population[2])).toBeCloseTo((0.9 + 0.2 + 0.7 + 0) / 4, 12);
    expect(byName['**world model behind `compile()`**'].score(population[3])).toBeLessThan(0);
    const rows = Object.fromEntries(baselineRows(fit, population, { seed: 1, resamples: 30 }).map((r) => [r.name, r]));
    expect(rows['`compile()`'].auc.value).toBe(1);
    // the world model orders h1's three valid programs backwards (0 of 3 pairs) and h2's two right
    expect(rows['**world model**'].pairwise.value).toBeCloseTo(1 / 4, 12);
    expect(rows['**world model behind `compile()`**'].auc.value).toBe(1);
    expect(rows['model-family lookup'].pairwise.value).toBeGreaterThan(rows['**world model**'].pairwise.value);
    // behind the gate, a non-compiling program reads as a syntax error: status right on both failures
    expect(rows['**world model behind `compile()`**'].statusAt1.value).toBeGreaterThanOrEqual(2 / 7);
  });
});
