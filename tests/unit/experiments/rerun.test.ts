import { describe, expect, it } from 'vitest';
import { compareRerun } from '../../../src/experiments/rerun.ts';
import { renderReport } from '../../../src/experiments/report.ts';
import type { RunResult } from '../../../src/experiments/run-result.ts';
import { cost, run } from './run-fixtures.ts';

/** A training run whose busy time is `busySeconds` (all of it sampling) at `load` per core. */
function train(preset: string, seed: number, busySeconds: number, load: number, avg = 0.5): RunResult {
  const r = run(preset, seed, avg, cost({ policySampling: busySeconds * 1000, worldModel: 0, sandbox: 0, policyUpdate: 0 }, busySeconds * 1000, 8, 0));
  return { ...r, host: { cpus: 2, samples: 10, meanLoad1: 2 * load, maxLoad1: 2 * load } };
}

const round = (xs: number[]) => xs.map((x) => Math.round(x * 1e9) / 1e9);

// The table: two seeds of the pair measured beside other work (slow, uneven); the reruns alone.
const table = [
  train('paper-grpo-all-real', 3, 500, 3), train('paper-wmrl', 3, 100, 3),
  train('paper-grpo-all-real', 4, 300, 2), train('paper-wmrl', 4, 150, 2),
  train('paper-ablation-neither', 3, 120, 3),
];
const alone = [
  train('paper-grpo-all-real', 3, 330, 1.1), train('paper-wmrl', 3, 100, 1.2),
  train('paper-grpo-all-real', 4, 320, 1.3), train('paper-wmrl', 4, 80, 1.1),
];

describe('a rerun folder against the folder it reruns', () => {
  it('gives the compute ratio alone and in the table on the same seeds, with the load of each', () => {
    const c = compareRerun('results/main-v3', alone, table);
    expect(c.compared).toBe(4);
    expect(c.differences).toEqual([]);
    expect(c.withoutTwin).toEqual([]);
    expect(c.compute!.alone.seeds).toEqual([3, 4]);
    expect(round(c.compute!.alone.perSeed)).toEqual([3.3, 4]);
    expect(round(c.compute!.table.perSeed)).toEqual([5, 2]);
    expect(c.compute!.alone.a).toBe('paper-grpo-all-real');
    expect(round(c.compute!.loadAlone!)).toEqual([1.1, 1.3]);
    expect(round(c.compute!.loadTable!)).toEqual([2, 3]);
  });

  it('reads the table only on the seeds rerun', () => {
    const c = compareRerun('results/main-v3', alone.filter((r) => r.seed === 3), table);
    expect(c.compute!.table.seeds).toEqual([3]);
    expect(round(c.compute!.table.perSeed)).toEqual([5]);
  });

  it('names a rerun that did something else than its twin (here: another held-out score), and one without a twin', () => {
    const changed = [...alone.slice(0, 3), train('paper-wmrl', 4, 80, 1.1, 0.75), train('paper-wmrl', 9, 80, 1)];
    const c = compareRerun('results/main-v3', changed, table);
    expect(c.differences.length).toBeGreaterThan(0);
    expect(c.differences[0]).toMatch(/^paper-wmrl seed 4: evaluation\./);
    expect(c.withoutTwin).toEqual(['paper-wmrl seed 9']);
    expect(c.compared).toBe(4);
  });

  it('has no compute ratio without both rows of a pair', () => {
    const c = compareRerun('results/main-v3', alone.filter((r) => r.preset === 'paper-wmrl'), table);
    expect(c.compute).toBeNull();
    expect(c.differences).toEqual([]);
  });

  it('the report reads a rerun folder against its twins and does not decide the plan on it', () => {
    const rerun = compareRerun('results/main-v3', alone, table);
    const md = renderReport({ title: 't', runs: alone, presets: ['paper-grpo-all-real', 'paper-wmrl'], rerun });
    expect(md).toContain('## Reruns of results/main-v3, alone on the machine');
    expect(md).toContain('Same as their twins: yes, all 4.');
    expect(md).toMatch(/\| 3 \| 3\.30 \| 5\.00 \|/);
    expect(md).toContain('host load per core over a run: alone 1.10 to 1.30, in results/main-v3 2.00 to 3.00');
    expect(md).not.toContain('decided by its plan');
    // the same runs without --rerun-of are decided by the plan, as a table in progress
    expect(renderReport({ title: 't', runs: alone, presets: ['paper-grpo-all-real', 'paper-wmrl'] })).toContain('decided by its plan');
  });
});
