// The corpus: deterministic per seed, training tasks only, composed programs in the toolkit's language.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCorpus, corpusTexts, trainingTasks, type CorpusTask } from '../../../src/pipeline/corpus.ts';
import { composeProgram, familiesFor, pythonLiteral } from '../../../src/pipeline/program-composer.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';
import type { TaskIndex } from '../../../src/tasks/task-index.ts';

const index = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../public/tasks/index.json'), 'utf8')) as TaskIndex;

describe('corpus', () => {
  it('is the same for the same seed and differs for another seed', () => {
    const a = buildCorpus(index.tasks, { seed: 5, composedPerTask: 6 });
    const b = buildCorpus(index.tasks, { seed: 5, composedPerTask: 6 });
    const c = buildCorpus(index.tasks, { seed: 6, composedPerTask: 6 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
    // references do not depend on the seed, composed programs do
    expect(a.filter((e) => e.origin === 'reference')).toEqual(c.filter((e) => e.origin === 'reference'));
  });

  it('does not depend on the order of the index', () => {
    const a = buildCorpus(index.tasks, { seed: 2, composedPerTask: 3 });
    const b = buildCorpus([...index.tasks].reverse(), { seed: 2, composedPerTask: 3 });
    expect(b).toEqual(a);
  });

  it('uses training tasks only (held-out cards never appear)', () => {
    const corpus = buildCorpus(index.tasks, { seed: 1, composedPerTask: 2 });
    const split = new Map(index.tasks.map((t) => [t.id, t.split]));
    const heldoutCards = new Set(index.tasks.filter((t) => t.split === 'heldout').map((t) => t.card));
    expect(heldoutCards.size).toBeGreaterThan(0);
    expect(new Set(corpus.map((e) => split.get(e.taskId)))).toEqual(new Set(['train']));
    expect(corpus.some((e) => heldoutCards.has(e.card))).toBe(false);
    expect(corpusTexts(corpus).some((t) => heldoutCards.has(t))).toBe(false);
    expect(new Set(corpus.map((e) => e.taskId)).size).toBe(trainingTasks(index.tasks).length);
  });

  it('composes the requested number of distinct programs per task, none equal to a reference', () => {
    const corpus = buildCorpus(index.tasks, { seed: 3, composedPerTask: 10 });
    for (const t of trainingTasks(index.tasks)) {
      const mine = corpus.filter((e) => e.taskId === t.id);
      const composed = mine.filter((e) => e.origin === 'composed');
      expect(composed).toHaveLength(10);
      expect(new Set(mine.map((e) => e.source)).size).toBe(mine.length);
    }
  });

  it('a fake held-out task with a training-like card is ignored', () => {
    const fake: CorpusTask[] = [
      { id: 'a', split: 'train', role: 'scored', type: 'binary', metric: 'auc', card: 'card a' },
      { id: 'b', split: 'heldout', role: 'scored', type: 'binary', metric: 'auc', card: 'card b' },
    ];
    const corpus = buildCorpus(fake, { seed: 1, composedPerTask: 1 });
    expect(corpus.every((e) => e.taskId === 'a' && e.card === 'card a')).toBe(true);
  });
});

describe('program composer', () => {
  it('writes a model of the task type with the toolkit header and write-out (any seed)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.constantFrom('regression', 'binary', 'multiclass' as const), (seed, type) => {
        const p = composeProgram(type, type === 'regression' ? 'rmsle' : 'auc', mulberry32(seed));
        expect(p.source.startsWith('import toolkit as tk\n\ntask = tk.load_task()\n')).toBe(true);
        expect(p.source).toContain('tk.write_predictions(task, tk.task_outputs(model, X_test, task))');
        const classes = familiesFor(type).map((f) => f.classes[type] as string);
        const used = [...p.source.matchAll(/tk\.([A-Z][A-Za-z]+)\(/g)].map((m) => m[1]).filter((c) => c !== 'Preprocessor' && c !== 'TargetTransform');
        expect(used.length).toBeGreaterThan(0);
        for (const c of used) expect(classes).toContain(c);
        if (type !== 'regression') expect(p.source).not.toContain('TargetTransform');
        // MajorityClassifier takes no arguments
        expect(p.source).not.toMatch(/MajorityClassifier\([^)]/);
      }),
      { numRuns: 200 },
    );
  });

  it('formats Python literals', () => {
    expect(pythonLiteral(null)).toBe('None');
    expect(pythonLiteral('sqrt')).toBe("'sqrt'");
    expect(pythonLiteral(1e-9)).toBe('1e-9');
    expect(pythonLiteral(0.33)).toBe('0.33');
    expect(() => pythonLiteral(Number.NaN)).toThrow();
  });
});
