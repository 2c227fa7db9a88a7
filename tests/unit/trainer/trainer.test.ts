// The training loop's bookkeeping with the real MethodState and the real CPU engine on a tiny random
// model. The executor is a test fixture (fixtures.ts): sampled programs are never run in Node.
import { describe, expect, it } from 'vitest';
import { Trainer, tokenBudget, type StepRecord, type TrainerPorts } from '../../../src/training/trainer.ts';
import { COST_COMPONENTS } from '../../../src/training/cost.ts';
import type { TrainerConfig } from '../../../src/training/trainer.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { cpuPolicy, FIXTURE_BUSY_MS, FIXTURE_START_MS, FixedTasks, FixtureExecutor, fixtureScore, RecordingPolicy, testConfig, TinyWorldModel } from './fixtures.ts';

async function setup(config: TrainerConfig, policySeed = 3) {
  const policy = new RecordingPolicy(await cpuPolicy(policySeed));
  const worldModel = new TinyWorldModel(11);
  const executor = new FixtureExecutor();
  const ports: TrainerPorts = { policy, worldModel, executor, tasks: new FixedTasks() };
  return { trainer: new Trainer(config, ports), policy, worldModel, executor, ports };
}

async function steps(trainer: Trainer, k: number): Promise<StepRecord[]> {
  const out: StepRecord[] = [];
  for (let i = 0; i < k; i++) out.push(await trainer.step());
  return out;
}

describe('Trainer', { timeout: 30_000 }, () => {
  it('anchor counts follow rho, and exactly the anchor groups are executed and graded', async () => {
    const config = testConfig({ rho: 0.25, groupsPerStep: 3, groupSize: 2 });
    const { trainer, executor } = await setup(config);
    const records = await steps(trainer, 4);
    let groups = 0;
    let anchors = 0;
    for (const r of records) {
      groups += 3;
      anchors += r.anchorGroups;
      expect(r.anchorsSoFar).toBe(Math.round(0.25 * groups));
      expect(anchors).toBe(r.anchorsSoFar);
      expect(r.executions).toBe(r.anchorGroups * 2);
      for (const g of r.groups) {
        expect(g.realScores !== null).toBe(g.anchor);
        expect(g.wmScores).not.toBeNull();
        if (g.anchor) {
          // y is the grader's score of exactly these programs; rewards are y on anchors
          expect(g.realScores).toEqual(g.programs.map((p) => fixtureScore(g.taskId, p).score));
          expect(g.rewards).toEqual(g.realScores);
        }
      }
    }
    expect(executor.executed).toBe(2 * anchors);
    expect(anchors).toBe(3); // round(0.25 * 12)
  });

  it("worldModelReading 'shuffled' (the claim-5 control) hands the method a permutation of the same step's world-model scores", async () => {
    const plain = await setup(testConfig({ groupsPerStep: 4, groupSize: 3 }));
    const control = await setup(testConfig({ groupsPerStep: 4, groupSize: 3, worldModelReading: 'shuffled' }));
    const [a] = await steps(plain.trainer, 1);
    const [b] = await steps(control.trainer, 1);
    // Same programs, same real scores: only the world model's reading differs.
    expect(b.groups.map((g) => g.programs)).toEqual(a.groups.map((g) => g.programs));
    expect(b.groups.map((g) => g.realScores)).toEqual(a.groups.map((g) => g.realScores));
    const sa = a.groups.flatMap((g) => g.wmScores as number[]);
    const sb = b.groups.flatMap((g) => g.wmScores as number[]);
    expect([...sb].sort((x, y) => x - y)).toEqual([...sa].sort((x, y) => x - y));
    expect(sb).not.toEqual(sa);
    // The method worked on the shuffled scores: the first step's calibrator is the identity, so g(s) = s.
    for (const g of b.groups) if (!g.anchor) expect(g.wmRewards).toEqual(g.wmScores);
  });

  it('rho = 1 executes every group and never calls the world model (no forwards charged)', async () => {
    const { trainer, executor, worldModel } = await setup(testConfig({ rho: 1, fusion: 'none', debias: false }));
    const records = await steps(trainer, 2);
    expect(worldModel.calls).toEqual([]);
    expect(executor.executed).toBe(2 * 3 * 2);
    for (const r of records) {
      expect(r.worldModelCalled).toBe(false);
      expect(r.anchorGroups).toBe(3);
      expect(r.groups.every((g) => g.anchor && g.wmScores === null && g.realScores !== null)).toBe(true);
      expect(r.cost.busyMs.worldModel).toBe(0);
      expect(r.cost.counts.worldModelForwards).toBe(0);
      expect(r.theory).toBeNull();
      // all-real GRPO: the coefficients are the plain advantages of y
      for (const g of r.groups) expect(g.coefficients).toEqual(g.advantages);
    }
  });

  it('rho = 0 executes nothing and trains on world-model rewards', async () => {
    const { trainer, executor, worldModel } = await setup(testConfig({ rho: 0, debias: false, fusion: 'none' }));
    const records = await steps(trainer, 2);
    expect(executor.calls).toEqual([]);
    expect(worldModel.calls).toEqual([6, 6]);
    for (const r of records) {
      expect(r.executions).toBe(0);
      expect(r.validRunRate).toBeNull();
      expect(r.cost.busyMs.sandbox).toBe(0);
      for (const g of r.groups) {
        expect(g.anchor).toBe(false);
        expect(g.rewards).toEqual(g.wmScores);
      }
    }
  });

  it('coefficients reach the update, with the program tokens masked in and Z the token budget', async () => {
    const config = testConfig({ rho: 0.5, lr: 5e-2 });
    const { trainer, policy } = await setup(config);
    const r = await trainer.step();
    expect(policy.updates).toHaveLength(1);
    const u = policy.updates[0];
    expect(u.coefficients).toEqual(r.groups.flatMap((g) => g.coefficients));
    expect(u.normalizer).toBe(tokenBudget(config));
    expect(u.normalizer).toBe(3 * 2 * 12);
    expect(u.batch.B).toBe(6);
    const masked = Array.from(u.batch.lossMask).reduce((a, b) => a + b, 0);
    expect(masked).toBe(r.groups.flatMap((g) => g.programTokens).reduce((a, b) => a + b, 0));
    expect(r.batch.programTokens).toBe(masked);
    expect(u.coefficients.some((c) => c !== 0)).toBe(true);
    // The update moved the policy along the coefficients: sum_i c_i log p_i went up.
    const after = await policy.inner.getWeights();
    expect(after.optimizer?.step).toBe(1);
    const objective = async (params: Float32Array) => {
      const probe = await cpuPolicy(3);
      await probe.setWeights({ params, optimizer: null });
      const engineBatch = makeSequenceBatch(Array.from({ length: u.batch.B }, (_, b) => ({ tokens: Array.from(u.batch.tokens.subarray(b * u.batch.T, b * u.batch.T + u.batch.lengths[b])), programStart: Array.from(u.batch.lossMask.subarray(b * u.batch.T)).indexOf(1) })));
      const g = await (probe as unknown as { engine: { logProbs(b: typeof engineBatch): Promise<Float32Array> } }).engine.logProbs(engineBatch);
      let s = 0;
      for (let b = 0; b < engineBatch.B; b++) for (let t = 0; t < engineBatch.T; t++) s += u.coefficients[b] * g[b * engineBatch.T + t];
      await probe.dispose();
      return s;
    };
    const before = (await cpuPolicy(3)).getWeights();
    expect(await objective(after.params)).toBeGreaterThan(await objective((await before).params));
  });

  it('cost accounting: each step total is the sum of its components, and the run total sums the steps', async () => {
    const { trainer } = await setup(testConfig({ rho: 0.5 }));
    const records = await steps(trainer, 3);
    for (const r of records) {
      const sum = COST_COMPONENTS.reduce((a, c) => a + r.cost.busyMs[c], 0);
      expect(r.cost.totalBusyMs).toBeCloseTo(sum, 9);
      expect(r.cost.busyMs.sandbox).toBeCloseTo(FIXTURE_BUSY_MS * r.executions, 9);
      expect(r.cost.busyMs.sandboxStart).toBeCloseTo(FIXTURE_START_MS * r.executions, 9);
      expect(r.cost.busyMs.policySampling).toBeGreaterThan(0);
      expect(r.cost.busyMs.worldModel).toBeGreaterThan(0);
      expect(r.cost.busyMs.policyUpdate).toBeGreaterThan(0);
      expect(r.cost.counts.programsSampled).toBe(6);
      expect(r.cost.counts.executions).toBe(r.executions);
      expect(r.wallMs).toBeGreaterThan(0);
    }
    const total = trainer.totalCost;
    for (const c of COST_COMPONENTS) expect(total.busyMs[c]).toBeCloseTo(records.reduce((a, r) => a + r.cost.busyMs[c], 0), 6);
    expect(total.wallMs).toBeCloseTo(records.reduce((a, r) => a + r.wallMs, 0), 6);
    expect(records[2].cumulativeCost.totalBusyMs).toBeCloseTo(total.totalBusyMs, 6);
    expect(total.counts.executions).toBe(records.reduce((a, r) => a + r.executions, 0));
  });

  it('resuming from a checkpoint reproduces the next step exactly (records and weights)', async () => {
    const config = testConfig({ rho: 0.5, fusion: 'ivw', debias: true });
    const straight = await setup(config);
    const all = await steps(straight.trainer, 3);
    const finalStraight = await straight.policy.getWeights();

    const first = await setup(config);
    await steps(first.trainer, 2);
    // Through structured clone, as the checkpoint would go to IndexedDB.
    const checkpoint = structuredClone(await first.trainer.checkpoint());
    expect(checkpoint.step).toBe(2);
    // A fresh process: another initial policy (seed 99), fresh ports; the checkpoint must override it.
    const fresh = await setup(config, 99);
    const resumed = await Trainer.resume(checkpoint, fresh.ports);
    expect(resumed.stepsTaken).toBe(2);
    const next = await resumed.step();
    const strip = (r: StepRecord) => ({ ...r, update: { ...r.update, busyMs: 0 }, cost: null, cumulativeCost: null, wallMs: 0 });
    expect(strip(next)).toEqual(strip(all[2]));
    const finalResumed = await fresh.policy.getWeights();
    expect(Array.from(finalResumed.params)).toEqual(Array.from(finalStraight.params));
    expect(finalResumed.optimizer?.step).toBe(3);
  });

  it('run() stops at config.steps or when asked', async () => {
    const { trainer } = await setup(testConfig({ steps: 2, rho: 0 }));
    const seen: number[] = [];
    await trainer.run((r) => void seen.push(r.step));
    expect(seen).toEqual([0, 1]);
    expect(trainer.done).toBe(true);
    const other = (await setup(testConfig({ steps: 5, rho: 0 }))).trainer;
    let n = 0;
    await other.run(() => void n++, () => n >= 1);
    expect(other.stepsTaken).toBe(1);
  });

  it('rejects configurations the method cannot run', async () => {
    const { ports } = await setup(testConfig());
    expect(() => new Trainer(testConfig({ groupSize: 1 }), ports)).toThrow(/groupSize/);
    expect(() => new Trainer(testConfig({ rho: 1.5 }), ports)).toThrow(/rho/);
    expect(() => new Trainer(testConfig({ epochs: 2, clipEpsilon: 0 }), ports)).toThrow(/clipEpsilon/);
  });
});
