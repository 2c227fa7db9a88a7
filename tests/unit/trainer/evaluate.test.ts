// Held-out evaluation (avg@k, medal rate) with the real CPU engine and the fixture executor (which
// never runs programs), plus the 95% interval helper.
import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from '../../../src/training/evaluate.ts';
import { cpuPolicy, FIXTURE_BUSY_MS, FIXTURE_START_MS, FixtureExecutor, fixtureScore, HELD_OUT } from './fixtures.ts';

const sampling = { maxNewTokens: 10, temperature: 1, topK: 0 };

describe('evaluatePolicy', { timeout: 30_000 }, () => {
  it('samples k programs per task, executes all, averages percentiles per task then over tasks', async () => {
    const policy = await cpuPolicy(5);
    const executor = new FixtureExecutor();
    const k = 4;
    const res = await evaluatePolicy(policy, executor, HELD_OUT, { k, seed: 3, sampling });
    expect(executor.executed).toBe(k * HELD_OUT.length);
    expect(res.tasks.map((t) => t.taskId)).toEqual(HELD_OUT.map((t) => t.id));
    // Recompute from what was executed: the fixture's score of each program.
    const perTask = HELD_OUT.map((t) => {
      const runs = executor.calls.flat().filter((r) => r.taskId === t.id);
      expect(runs).toHaveLength(k);
      return runs.map((r) => fixtureScore(r.taskId, r.program));
    });
    const avgs = perTask.map((xs) => xs.reduce((a, x) => a + x.score, 0) / k);
    res.tasks.forEach((t, i) => expect(t.avg).toBeCloseTo(avgs[i], 12));
    expect(res.avgAtK).toBeCloseTo(avgs.reduce((a, b) => a + b, 0) / avgs.length, 12);
    const all = perTask.flat();
    expect(res.medalRate).toBeCloseTo(all.filter((x) => x.medal !== null).length / all.length, 12);
    expect(res.anyMedalRate).toBeCloseTo(perTask.filter((xs) => xs.some((x) => x.medal !== null)).length / perTask.length, 12);
    expect(res.validRunRate).toBeCloseTo(all.filter((x) => x.ok).length / all.length, 12);
    expect(res.cost.busyMs.sandbox).toBeCloseTo(FIXTURE_BUSY_MS * k * HELD_OUT.length, 9);
    expect(res.cost.busyMs.sandboxStart).toBeCloseTo(FIXTURE_START_MS * k * HELD_OUT.length, 9);
    expect(res.cost.busyMs.policySampling).toBeGreaterThan(0);
    expect(res.cost.busyMs.worldModel).toBe(0);

    // Seeded: the same weights and seed give the same programs and numbers; another seed other programs.
    const again = await evaluatePolicy(policy, new FixtureExecutor(), HELD_OUT, { k, seed: 3, sampling });
    expect(again.tasks.map((t) => t.scores)).toEqual(res.tasks.map((t) => t.scores));
    const otherExec = new FixtureExecutor();
    await evaluatePolicy(policy, otherExec, HELD_OUT, { k, seed: 4, sampling });
    expect(otherExec.calls.flat().map((r) => r.program)).not.toEqual(executor.calls.flat().map((r) => r.program));
    await policy.dispose();
  });

  it('rejects k < 1 and an empty task list', async () => {
    const policy = await cpuPolicy(5);
    await expect(evaluatePolicy(policy, new FixtureExecutor(), HELD_OUT, { k: 0, seed: 1, sampling })).rejects.toThrow(/k must/);
    await expect(evaluatePolicy(policy, new FixtureExecutor(), [], { k: 2, seed: 1, sampling })).rejects.toThrow(/no held-out/);
    await policy.dispose();
  });
});
