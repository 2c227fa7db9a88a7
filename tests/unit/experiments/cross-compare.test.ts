import { describe, expect, it } from 'vitest';
import { compareSides, evaluationMismatch, type ComparisonSide } from '../../../src/experiments/cross-compare.ts';
import type { RunResult } from '../../../src/experiments/run-result.ts';
import { presetConfig } from '../../../src/training/presets.ts';
import { emptyCost } from '../../../src/training/cost.ts';

function run(preset: 'wmrl' | 'grpo-all-real', seed: number, avg: number, temperature = 0.6): RunResult {
  const config = presetConfig(preset, { seed, sampling: { maxNewTokens: 256, temperature, topK: 0 } });
  return {
    format: 'wmrl-experiment-run', version: 1, kind: 'train', preset, seed, status: 'ok', error: null,
    request: { kind: 'train', preset, seed, config, evalK: 4, evalTaskIds: null, models: 'committed', poolSize: null, executionTimeoutMs: 1000, keepPrograms: false },
    environment: null, records: [],
    evaluation: { k: 4, seed, tasks: [], avgAtK: avg, medalRate: 0, anyMedalRate: 0, validRunRate: 1, cost: emptyCost() },
    training: emptyCost(), startupMs: 0, wallMs: 0, startedAt: '', finishedAt: '',
  };
}

describe('comparisons across experiment folders', () => {
  it('pairs the same preset name from two folders seed by seed', () => {
    const a: ComparisonSide = { label: 'results/kl:wmrl', runs: [run('wmrl', 1, 0.3), run('wmrl', 2, 0.2), run('wmrl', 3, 0.5)] };
    const b: ComparisonSide = { label: 'results/main:wmrl', runs: [run('wmrl', 1, 0.1), run('wmrl', 2, 0.2), run('wmrl', 4, 0.9)] };
    const c = compareSides(a, b, 'heldOut', 'difference');
    expect(c.seeds).toEqual([1, 2]);
    expect(c.perSeed.map((x) => Math.round(x * 1e9) / 1e9)).toEqual([20, 0]);
    expect(c.a).toBe('results/kl:wmrl');
  });

  it('refuses sides evaluated differently (here: another sampling temperature)', () => {
    const a: ComparisonSide = { label: 'a:wmrl', runs: [run('wmrl', 1, 0.3, 1)] };
    const b: ComparisonSide = { label: 'b:grpo-all-real', runs: [run('grpo-all-real', 1, 0.1)] };
    expect(evaluationMismatch(a, b)).toMatch(/seed 1/);
    expect(() => compareSides(a, b, 'heldOut', 'difference')).toThrow(/not comparable/);
    expect(evaluationMismatch({ ...a, runs: [run('wmrl', 1, 0.3)] }, b)).toBeNull();
  });
});
