// A run the sandbox's backstop stopped twice (status 'unscored', the machine's doing) is left out of
// its group's update and of evaluation averages, and counted: never read as a failure scored 0.
import { describe, expect, it } from 'vitest';
import { Trainer, type TrainerPorts } from '../../../src/training/trainer.ts';
import { evaluatePolicy } from '../../../src/training/evaluate.ts';
import type { ExecutionRequest, ExecutionResult } from '../../../src/training/ports.ts';
import { cpuPolicy, FixedTasks, fixtureScore, HELD_OUT, RecordingPolicy, testConfig, TinyWorldModel } from './fixtures.ts';

/** TEST FIXTURE executor: every third job is 'unscored', the rest graded by fixtureScore. */
class SometimesUnscored {
  private n = 0;
  async run(requests: readonly ExecutionRequest[]): Promise<ExecutionResult[]> {
    return requests.map((r) => {
      const f = fixtureScore(r.taskId, r.program);
      if (this.n++ % 3 === 2) return { score: 0, status: 'unscored', medal: null, busyMs: 1, startMs: 0, workerId: 0, message: 'stopped by the wall-clock backstop twice' };
      return { score: f.score, status: f.ok ? 'ok' : 'error', medal: f.medal, busyMs: 1, startMs: 0, workerId: 0 };
    });
  }
}

describe('unscored runs', { timeout: 60_000 }, () => {
  it('get coefficient 0, join no calibration pair, and are counted in the step record', async () => {
    const ports: TrainerPorts = { policy: new RecordingPolicy(await cpuPolicy(3)), worldModel: new TinyWorldModel(11), executor: new SometimesUnscored(), tasks: new FixedTasks() };
    const t = new Trainer(testConfig({ rho: 1, groupsPerStep: 3, groupSize: 3, debias: false, fusion: 'none' }), ports);
    let unscored = 0;
    let scored = 0;
    for (let k = 0; k < 2; k++) {
      const r = await t.step();
      for (const g of r.groups) g.statuses!.forEach((st, i) => {
        if (st === 'unscored') {
          unscored++;
          expect(g.coefficients[i]).toBe(0);
          expect(g.advantages[i]).toBe(0);
        } else scored++;
      });
      expect(r.unscored ?? 0).toBe(r.groups.flatMap((g) => g.statuses!).filter((s) => s === 'unscored').length);
      expect(r.calibration.pairs).toBe(scored);
    }
    expect(unscored).toBeGreaterThan(0);
  });

  it('are left out of the evaluation averages and counted', async () => {
    const policy = await cpuPolicy(3);
    const e = await evaluatePolicy(policy, new SometimesUnscored(), HELD_OUT, { k: 3, seed: 1, sampling: { maxNewTokens: 8, temperature: 1, topK: 0 } });
    expect(e.unscored).toBe(HELD_OUT.length); // one of every three, k = 3
    for (const task of e.tasks) {
      const kept = task.scores.filter((_, i) => task.statuses[i] !== 'unscored');
      expect(task.avg).toBeCloseTo(kept.reduce((a, b) => a + b, 0) / kept.length, 12);
    }
  });
});
