// The world model's data from the policy's own distribution: the outcome store (resumable, reused),
// synthetic cards (type and metric kept, nuisance statistics varied), the card-aware corpus, the
// wrong-task-type detector, and the validation table's metrics against hand values.
import fc from 'fast-check';
import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCorpus, trainingTasks } from '../../../src/pipeline/corpus.ts';
import type { GradedRun } from '../../../src/pipeline/graded-runs.ts';
import { executeWithStore, OutcomeStore, outcomeKey } from '../../../src/pipeline/outcome-store.ts';
import { WORK_RULE } from '../../../src/sandbox-pyodide/work-rule.ts';
import { programTaskKind } from '../../../src/pipeline/program-kind.ts';
import { rocAuc, reliabilityTable } from '../../../src/pipeline/rank-metrics.ts';
import { cardTaskType, sampleSummary } from '../../../src/pipeline/sample-summary.ts';
import { syntheticCard } from '../../../src/pipeline/synthetic-card.ts';
import { worldModelReport } from '../../../src/pipeline/wm-report.ts';
import { readExecutedSamples, toExecutedSample, writeExecutedSamples } from '../../../src/pipeline/executed-samples.ts';
import { composeProgram } from '../../../src/pipeline/program-composer.ts';
import { MUTATION_KINDS, mutantsOf, mutateProgram, spliceMutant, spliceMutantsOf, syntaxMutantsOf, wrongTypeMutant, wrongTypeMutantsOf } from '../../../src/pipeline/program-mutants.ts';
import { programFamilies } from '../../../src/sandbox-pyodide/reference-programs.ts';
import { referencePrograms } from '../../../src/sandbox-pyodide/reference-programs.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';
import index from '../../../public/tasks/index.json' with { type: 'json' };
import type { MetricName, TaskType } from '../../../src/tasks/task-types.ts';
import { tempFolders } from '../../temp-folders.ts';

const tmp = tempFolders('wmrl-policy-data-');

const ok = (y: number): GradedRun => ({ taskId: 't', status: 'ok', y, seconds: 1, workRule: WORK_RULE });

describe('outcome store', () => {
  it('runs each distinct (task, program) once, resumes after an interruption, and reuses stored outcomes', async () => {
    const path = join(tmp(), 'outcomes.jsonl');
    const programs = ['a', 'b', 'a', 'c', 'd', 'e'].map((p) => ({ taskId: 't', program: p }));
    const ran: string[] = [];
    const runner = (fail: string | null) => async (chunk: readonly { program: string }[]) => {
      if (fail && chunk.some((c) => c.program === fail)) throw new Error('interrupted');
      ran.push(...chunk.map((c) => c.program));
      return chunk.map((c) => ok(c.program.charCodeAt(0) / 200));
    };
    // The chunk holding 'd' dies: what ran before it is on disk.
    await expect(executeWithStore(new OutcomeStore(path), programs, 1000, runner('d'), { chunk: 2 })).rejects.toThrow('interrupted');
    expect(ran).toEqual(['a', 'b']);
    const runs = await executeWithStore(new OutcomeStore(path), programs, 1000, runner(null), { chunk: 2 });
    expect(ran).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(runs.map((r) => r.y)).toEqual(['a', 'b', 'a', 'c', 'd', 'e'].map((p) => p.charCodeAt(0) / 200));
    await executeWithStore(new OutcomeStore(path), programs, 1000, runner(null));
    expect(ran).toHaveLength(5);
    // Another time budget is another experiment.
    await executeWithStore(new OutcomeStore(path), programs.slice(0, 1), 2000, runner(null));
    expect(ran).toHaveLength(6);
    expect(outcomeKey('t', 'a', 1000)).not.toBe(outcomeKey('u', 'a', 1000));
  });

  it('survives a line cut by an interrupted write at the end, refuses damage in the middle', () => {
    const path = join(tmp(), 'outcomes.jsonl');
    const store = new OutcomeStore(path);
    store.add([{ key: 'k1', taskId: 't', timeoutMs: 1, run: ok(0.5) }]);
    appendFileSync(path, '{"key":"k2","taskId');
    expect(new OutcomeStore(path).size).toBe(1);
    writeFileSync(path, 'garbage\n' + readFileSync(path, 'utf8').split('\n')[0] + '\n');
    expect(() => new OutcomeStore(path)).toThrow(/line 1 is not JSON/);
  });
});

const combos: [TaskType, MetricName][] = [
  ['regression', 'rmse'],
  ['regression', 'rmsle'],
  ['binary', 'auc'],
  ['multiclass', 'accuracy'],
  ['multiclass', 'macro_f1'],
];

describe('synthetic cards', () => {
  it('state the task type and metric and vary the rest (any seed)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.constantFrom(...combos), (seed, [type, metric]) => {
        const rng = mulberry32(seed);
        const a = syntheticCard(type, metric, rng);
        const b = syntheticCard(type, metric, rng);
        expect(cardTaskType(a)).toBe(type);
        const real = index.tasks.find((t) => t.type === type && t.metric === metric)!.card;
        // Same first sentence (type and metric) as a real card of this combination.
        expect(a.split('.')[0] + a.split('.')[1]).toBe(real.split('.')[0] + real.split('.')[1]);
        expect(a).not.toBe(b);
        if (metric === 'rmsle') expect(a).toContain('non-negative');
      }),
      { numRuns: 200 },
    );
  });

  it('the corpus balances task types and pairs the asked share of composed programs with synthetic cards', () => {
    const corpus = buildCorpus(index.tasks as never, { seed: 4, composedPerTask: 10, balanceTypes: true, syntheticCardShare: 0.5 });
    const typeOf = new Map(index.tasks.map((t) => [t.id, t.type]));
    const composed = corpus.filter((e) => e.origin === 'composed');
    const per = (ty: string): number => composed.filter((e) => typeOf.get(e.taskId) === ty).length;
    const counts = ['regression', 'binary', 'multiclass'].map(per);
    expect(Math.max(...counts) / Math.min(...counts)).toBeLessThan(1.15);
    const synthetic = composed.filter((e) => e.syntheticCard);
    expect(synthetic.length / composed.length).toBeGreaterThan(0.4);
    expect(synthetic.length / composed.length).toBeLessThan(0.6);
    expect(synthetic.every((e) => cardTaskType(e.card) === typeOf.get(e.taskId))).toBe(true);
    const heldoutCards = new Set(index.tasks.filter((t) => t.split === 'heldout').map((t) => t.card));
    expect(corpus.some((e) => heldoutCards.has(e.card))).toBe(false);
    expect(new Set(corpus.map((e) => e.taskId)).size).toBe(trainingTasks(index.tasks as never).length);
    // The composed programs themselves do not depend on the synthetic-card share.
    const plain = buildCorpus(index.tasks as never, { seed: 4, composedPerTask: 10, balanceTypes: true });
    expect(plain.map((e) => e.source)).toEqual(corpus.map((e) => e.source));
  });
});

describe('program kind', () => {
  it('reads regressors and classifiers from the constructors a program calls', () => {
    for (const ty of ['regression', 'binary', 'multiclass'] as const) {
      for (const p of referencePrograms(ty)) {
        const kind = programTaskKind(p.source);
        if (kind !== null) expect(kind).toBe(ty === 'regression' ? 'regression' : 'classification');
      }
      const rng = mulberry32(7);
      for (let i = 0; i < 50; i++) {
        const kind = programTaskKind(composeProgram(ty, ty === 'regression' ? 'rmse' : 'auc', rng).source);
        expect(kind).toBe(ty === 'regression' ? 'regression' : 'classification');
      }
    }
    expect(programTaskKind('model = tk.RandomForestClassifier(n_trees=10)')).toBe('classification');
    expect(programTaskKind('import toolkit as tk\nx = 1')).toBeNull();
  });

  it('the summary counts a classifier on a regression card as the wrong task type', () => {
    const card = index.tasks.find((t) => t.type === 'regression')!.card;
    const s = sampleSummary([
      { taskId: 'r', card, program: 'm = tk.Ridge(alpha=1)', stopped: true, run: ok(0.5) },
      { taskId: 'r', card, program: 'm = tk.GaussianNB()', stopped: true, run: { ...ok(0), status: 'error' } },
    ]);
    expect(s.wrongTaskTypeRate).toBe(0.5);
    expect(s.validRunRate).toBe(0.5);
    expect(s.avgAtK).toBe(0.25);
  });
});

describe('validation table', () => {
  it('AUC against hand values: perfect, reversed, ties half', () => {
    expect(rocAuc([0.9, 0.8, 0.1, 0.2], [true, true, false, false])).toBe(1);
    expect(rocAuc([0.1, 0.2, 0.9, 0.8], [true, true, false, false])).toBe(0);
    expect(rocAuc([0.5, 0.5], [true, false])).toBe(0.5);
    // one positive above one of two negatives, below the other
    expect(rocAuc([0.5, 0.9, 0.1], [true, false, false])).toBe(0.5);
    expect(rocAuc([0.5], [true])).toBeNaN();
  });

  it('AUC is invariant to increasing maps and flips under negation (any data)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -50, max: 50 }), fc.boolean()), { minLength: 2, maxLength: 40 }), (rows) => {
        const s = rows.map((r) => r[0]);
        const l = rows.map((r) => r[1]);
        const a = rocAuc(s, l);
        if (Number.isNaN(a)) return;
        expect(rocAuc(s.map((x) => 3 * x + 7), l)).toBeCloseTo(a, 12);
        expect(rocAuc(s.map((x) => -x), l)).toBeCloseTo(1 - a, 12);
      }),
    );
  });

  it('reliability bins hold every prediction once, the last bin includes 1', () => {
    const t = reliabilityTable([0, 1, 1, 0.5], [0, 0.99, 1, 0.5], 2);
    expect(t.map((b) => b.n)).toEqual([1, 3]);
    expect(t[1].meanTrue).toBeCloseTo(2.5 / 3, 12);
  });

  it('the report: pairwise accuracy among valid programs only, within tasks only', () => {
    const r = worldModelReport([
      { taskId: 'a', valid: true, y: 0.9, predicted: 0.8 },
      { taskId: 'a', valid: true, y: 0.3, predicted: 0.6 },
      { taskId: 'a', valid: false, y: 0, predicted: 0.95 },
      { taskId: 'b', valid: true, y: 0.5, predicted: 0.1 },
      { taskId: 'b', valid: false, y: 0, predicted: 0.2 },
    ]);
    expect(r.pairwiseValid).toEqual({ accuracy: 1, pairs: 1 });
    expect(r.valid).toBe(3);
    // valid scores 0.8, 0.6, 0.1 against failed 0.95, 0.2: 0.8 and 0.6 beat one of two, 0.1 none -> 2/6
    expect(r.aucValidVsFailed).toBeCloseTo(2 / 6, 12);
  });

  it('executed samples round-trip through their file, and a broken line is named', () => {
    const path = join(tmp(), 's.jsonl');
    const s = toExecutedSample({ taskId: 't', card: 'c', index: 0, temperature: 0.6, program: 'p', stopped: true, run: ok(0.25) });
    writeExecutedSamples(path, [s, s]);
    expect(readExecutedSamples(path)).toEqual([s, s]);
    appendFileSync(path, '{oops\n');
    expect(() => readExecutedSamples(path)).toThrow(/line 3 is not JSON/);
  });
});

describe('programs broken on purpose', () => {
  it('each mutant is one edit away from a corpus program, distinct, and seeded', () => {
    const rng = mulberry32(5);
    const originals = Array.from({ length: 6 }, () => composeProgram('binary', 'auc', rng).source);
    const a = mutantsOf(originals, 30, mulberry32(9));
    const b = mutantsOf(originals, 30, mulberry32(9));
    expect(a).toEqual(b);
    expect(a.length).toBe(30);
    expect(new Set(a.map((m) => m.source)).size).toBe(30);
    for (const m of a) expect(originals).not.toContain(m.source);
    expect(new Set(a.map((m) => m.kind))).toEqual(new Set(MUTATION_KINDS));
    const dup = a.find((m) => m.kind === 'duplicate-keyword')!;
    const repeated = [...dup.source.matchAll(/tk\.[A-Z]\w+\(([^()]*)\)/g)].some((c) => {
      const kws = c[1].split(',').map((x) => x.split('=')[0].trim()).filter(Boolean);
      return new Set(kws).size < kws.length;
    });
    expect(repeated).toBe(true);
  });

  it('a duplicated keyword and a dropped line are real failures in Python terms', () => {
    const src = 'model = tk.Ridge(alpha=1)\n';
    const m = mutateProgram(src, 'duplicate-keyword', mulberry32(1))!;
    expect(m.source).toBe('model = tk.Ridge(alpha=1, alpha=1)\n');
    expect(mutateProgram('import toolkit as tk\n', 'drop-line', mulberry32(1))).toBeNull();
  });

  it('a wrong-type mutant swaps one model for a class written for another task type, arguments kept', () => {
    const forType = (type: TaskType) => new Set(programFamilies.map((f) => f.classes[type]).filter(Boolean));
    for (const type of ['regression', 'binary', 'multiclass'] as const) {
      const rng = mulberry32(3);
      const originals = Array.from({ length: 8 }, () => composeProgram(type, type === 'regression' ? 'rmse' : 'accuracy', rng).source);
      const ms = wrongTypeMutantsOf(originals, type, 12, mulberry32(4));
      expect(ms.length).toBeGreaterThan(0);
      expect(wrongTypeMutantsOf(originals, type, 12, mulberry32(4))).toEqual(ms);
      for (const m of ms) {
        expect(m.kind).toBe('wrong-type');
        const names = [...m.source.matchAll(/tk\.([A-Z]\w+)\(/g)].map((x) => x[1]).filter((n) => n !== 'Preprocessor' && n !== 'TargetTransform');
        // at least one model no longer fits the task's type
        expect(names.some((n) => !forType(type).has(n))).toBe(true);
      }
    }
    expect(wrongTypeMutant('model = tk.Ridge(alpha=1)\n', 'regression', mulberry32(1))!.source).toMatch(/^model = tk\.\w+Classifier\(alpha=1\)|^model = tk\.(LogisticRegression|GaussianNB)\(alpha=1\)/);
    expect(wrongTypeMutant('model = tk.RandomForestRegressor(n_trees=10)\n', 'regression', mulberry32(1))!.source).toBe('model = tk.RandomForestClassifier(n_trees=10)\n');
  });

  it('a syntax mutant is one seeded character-level edit of a program (whether it still parses is learnt by running it)', () => {
    const rng = mulberry32(6);
    const originals = Array.from({ length: 6 }, () => composeProgram('regression', 'rmse', rng).source);
    const ms = syntaxMutantsOf(originals, 40, mulberry32(7));
    expect(ms.length).toBe(40);
    expect(syntaxMutantsOf(originals, 40, mulberry32(7))).toEqual(ms);
    for (const m of ms) {
      expect(m.kind).toBe('syntax');
      expect(originals).not.toContain(m.source);
      const near = originals.some((o) => Math.abs(o.length - m.source.length) <= 1);
      expect(near).toBe(true);
    }
  });
  it('a splice mutant skips or repeats the text between two nearby occurrences of one short context, seeded', () => {
    const rng = mulberry32(8);
    const originals = Array.from({ length: 6 }, () => composeProgram('binary', 'auc', rng).source);
    const ms = spliceMutantsOf(originals, 40, mulberry32(9));
    expect(ms.length).toBe(40);
    expect(spliceMutantsOf(originals, 40, mulberry32(9))).toEqual(ms);
    for (const m of ms) {
      expect(m.kind).toBe('splice');
      expect(originals).not.toContain(m.source);
      // one span of at most 80 characters, removed or written twice: the rest is the original's
      const explained = originals.some((o) => {
        const d = m.source.length - o.length;
        if (d === 0 || Math.abs(d) > 80) return false;
        let p = 0;
        while (p < Math.min(o.length, m.source.length) && o[p] === m.source[p]) p++;
        let q = 0;
        while (q < Math.min(o.length, m.source.length) - p && o[o.length - 1 - q] === m.source[m.source.length - 1 - q]) q++;
        return p + q >= Math.min(o.length, m.source.length);
      });
      expect(explained).toBe(true);
    }
    // a program with no repeated context offers no place for a splice
    expect(spliceMutant('abcdefg', mulberry32(1))).toBeNull();
  });
});
