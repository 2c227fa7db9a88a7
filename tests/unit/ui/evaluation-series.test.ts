// Held-out evaluations along a run as the Train view plots them.
import { describe, expect, it } from 'vitest';
import type { RunEvaluation } from '../../../src/app/run-store.ts';
import { emptyCost } from '../../../src/training/cost.ts';
import type { EvaluationResult } from '../../../src/training/evaluate.ts';
import { band, comparableEvaluations, evaluationPoint, sftBaseline } from '../../../src/ui/train/evaluation-series.ts';
import { tInterval } from '../../../src/experiments/interval.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HELD_OUT_TASKS } from '../../../src/ui/train/settings.ts';

function evaluation(step: number, avgs: number[], k = 2): RunEvaluation {
  const result: EvaluationResult = {
    k, seed: 1, avgAtK: avgs.reduce((a, b) => a + b, 0) / avgs.length, medalRate: 0, anyMedalRate: 0, validRunRate: 1, cost: emptyCost(),
    tasks: avgs.map((avg, i) => ({ taskId: `t${i}`, scores: [avg], statuses: ['ok'], medals: [null], avg, anyMedal: false })),
  };
  return { step, tasks: avgs.length, result, busySeconds: step * 10 };
}

describe('evaluation along the run', () => {
  it('is avg@k x 100 with the t interval over tasks; a task without a score is left out', () => {
    const p = evaluationPoint(evaluation(3, [0.4, 0.6, Number.NaN]))!;
    const iv = tInterval([40, 60]);
    expect(p).toMatchObject({ step: 3, mean: 50, low: iv.low, high: iv.high, tasks: 2, k: 2, busySeconds: 30 });
    expect(evaluationPoint(evaluation(1, [Number.NaN]))).toBeNull();
    expect(evaluationPoint(evaluation(1, [0.5]))).toMatchObject({ mean: 50, low: null, high: null });
  });

  it('compares like with like: only evaluations of the latest k and task count, the latest per step, by step', () => {
    const pts = comparableEvaluations([evaluation(0, [0.4, 0.5]), evaluation(2, [0.1, 0.2, 0.3]), evaluation(2, [0.6, 0.7]), evaluation(1, [0.5, 0.5], 4), evaluation(1, [0.45, 0.55])]);
    expect(pts.map((p) => [p.step, +p.mean.toFixed(6)])).toEqual([[0, 45], [1, 50], [2, 65]]);
    expect(sftBaseline(pts)?.mean).toBeCloseTo(45);
    expect(sftBaseline(comparableEvaluations([evaluation(1, [0.5, 0.6])]))).toBeNull();
    expect(comparableEvaluations([])).toEqual([]);
  });

  it('draws an interval as two lines in one series, broken between them', () => {
    const b = band(40, 50, 0, 3);
    expect(b.filter((p) => Number.isFinite(p[1])).map((p) => p[1])).toEqual([40, 40, 50, 50]);
    expect(Number.isNaN(b[2][0])).toBe(true);
  });
});

it("the form's largest task count is the committed suite's held-out tasks", () => {
  const index = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../public/tasks/index.json'), 'utf8')) as { tasks: { split: string }[] };
  expect(index.tasks.filter((t) => t.split === 'heldout').length).toBe(HELD_OUT_TASKS);
});
