// World-model targets of reference programs: percentile on the task's own leaderboard, ties half,
// failed programs 0, programs absent from the leaderboard skipped; length-grouped batches.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lengthGroupedBatches, learningRate } from '../../../src/pipeline/batches.ts';
import { referenceExamples, worldModelTasks } from '../../../src/pipeline/wm-data.ts';
import type { CorpusTask } from '../../../src/pipeline/corpus.ts';
import { referencePrograms } from '../../../src/sandbox-pyodide/reference-programs.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';

const task: CorpusTask = { id: 't', split: 'train', role: 'scored', type: 'binary', metric: 'auc', card: 'card' };

describe('reference examples', () => {
  it('score each program by its entry, ties half, failures 0', () => {
    const ids = referencePrograms('binary', 'auc').map((p) => p.id);
    // entries best first (auc, higher is better): [0.9: ids 0,1], [0.7: id 2], [0.5: id 3]; id 4 failed; others absent
    const lb = {
      direction: 'higher' as const,
      entries: [
        { value: 0.9, programIds: [ids[0], ids[1]] },
        { value: 0.7, programIds: [ids[2]] },
        { value: 0.5, programIds: [ids[3]] },
      ],
      failed: [{ programId: ids[4], message: 'boom' }],
    };
    const ex = referenceExamples(task, lb);
    const y = new Map(ex.map((e) => [e.programId, e.y]));
    expect(ex).toHaveLength(5);
    expect(y.get(ids[0])).toBeCloseTo((2 + 0.5) / 3, 12);
    expect(y.get(ids[1])).toBeCloseTo(2.5 / 3, 12);
    expect(y.get(ids[2])).toBeCloseTo(1.5 / 3, 12);
    expect(y.get(ids[3])).toBeCloseTo(0.5 / 3, 12);
    expect(y.get(ids[4])).toBe(0);
    expect(ex.every((e) => e.card === 'card' && e.origin === 'reference')).toBe(true);
  });

  it('learns from scored training tasks only', () => {
    const tasks: CorpusTask[] = [
      { ...task, id: 'b' },
      { ...task, id: 'h', split: 'heldout' },
      { ...task, id: 's', role: 'smoke' },
      { ...task, id: 'a' },
    ];
    expect(worldModelTasks(tasks).map((t) => t.id)).toEqual(['a', 'b']);
  });
});

describe('batches', () => {
  it('cover every index once per epoch, at most batchSize each', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 20 }), fc.integer(), (lengths, bs, seed) => {
        const batches = lengthGroupedBatches(lengths, bs, mulberry32(seed));
        expect(batches.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
        for (const b of batches) expect(b.length).toBeLessThanOrEqual(bs);
        expect(lengthGroupedBatches(lengths, bs, mulberry32(seed))).toEqual(batches);
      }),
    );
  });

  it('learning rate warms up to the peak and decays to the floor', () => {
    expect(learningRate(0, 100, 1, 10)).toBeCloseTo(0.1, 12);
    expect(learningRate(9, 100, 1, 10)).toBeCloseTo(1, 12);
    expect(learningRate(10, 100, 1, 10)).toBeCloseTo(1, 12);
    expect(learningRate(100, 100, 1, 10)).toBeCloseTo(0.1, 12);
  });
});
