// The controls of issue 44 on the authors' rules: anchors-only trains on exactly the groups a
// paper-wmrl run executes (same tasks, same anchor choice, same programs) and nothing else, and the
// matched GRPO differs from all-real GRPO in B alone. A control that is secretly paper-wmrl fails here.
import { describe, expect, it } from 'vitest';
import { presetConfig, presetById, MATCHED_GROUPS, PRESETS } from '../../../src/training/presets.ts';
import { Trainer, tokenBudget, validateTrainerConfig, type TrainerConfig, type TrainerPorts } from '../../../src/training/trainer.ts';
import { cpuPolicy, FixedTasks, FixtureExecutor, FixtureVerifier, RecordingPolicy, TASKS, TinyWorldModel } from './fixtures.ts';
import { LookupWorldModel } from '../../../src/app/ports-browser.ts';
import { fitFamilyTypeLookup, scoreWithLookup } from '../../../src/pipeline/family-type-lookup.ts';

/** The presets at a size the tiny fixture policy runs in seconds (their switches untouched). */
function small(id: Parameters<typeof presetConfig>[0], over: Partial<TrainerConfig> = {}): TrainerConfig {
  return presetConfig(id, { seed: 5, steps: 3, groupSize: 2, sampling: { maxNewTokens: 10, temperature: 1, topK: 0 }, ...over });
}

async function ports(): Promise<TrainerPorts & { policy: RecordingPolicy; worldModel: TinyWorldModel; executor: FixtureExecutor }> {
  return { policy: new RecordingPolicy(await cpuPolicy(3)), worldModel: new TinyWorldModel(11), executor: new FixtureExecutor(), tasks: new FixedTasks(), verifier: new FixtureVerifier() };
}

describe('paper-anchors-only', { timeout: 120_000 }, () => {
  it("differs from paper-wmrl in what a run without the world model must change, and nothing else", () => {
    const wmrl = presetById('paper-wmrl').config;
    const only = presetById('paper-anchors-only').config;
    expect(only.anchorsOnly).toBe(true);
    expect({ rho: only.rho, perStep: only.perStepAnchors, adv: only.advantageMode, reward: only.reward, B: only.groupsPerStep })
      .toEqual({ rho: wmrl.rho, perStep: wmrl.perStepAnchors, adv: wmrl.advantageMode, reward: wmrl.reward, B: wmrl.groupsPerStep });
    // no second stream: nothing to calibrate, weigh or gate
    expect([only.debias, only.fusion, only.wmGate]).toEqual([false, 'none', undefined]);
    expect(tokenBudget(only)).toBe(tokenBudget(wmrl));
  });

  it("samples, runs and learns from paper-wmrl's anchor groups alone, and never asks the world model", async () => {
    const p = await ports();
    const q = await ports();
    const only = new Trainer(small('paper-anchors-only'), p);
    const wmrl = new Trainer(small('paper-wmrl'), q);
    const a = await only.step();
    const b = await wmrl.step();
    expect(p.worldModel.calls).toEqual([]);
    expect(a.worldModelCalled).toBe(false);
    // one anchor group of the 8 drawn (the authors' 10% with a floor of 1), sampled, run and in the update
    const anchorsOfWmrl = b.groups.filter((g) => g.anchor);
    expect(a.groups).toHaveLength(1);
    expect(anchorsOfWmrl).toHaveLength(1);
    expect(a.groups[0].taskId).toBe(anchorsOfWmrl[0].taskId);
    // the same policy at step 0 writes the same programs for that group: they are seeded by the drawn group's index
    expect(a.groups[0].programs).toEqual(anchorsOfWmrl[0].programs);
    expect(p.executor.executed).toBe(2);
    expect(p.policy.updates[0].batch.B).toBe(2);
    expect(p.policy.updates[0].normalizer).toBe(q.policy.updates[0].normalizer);
    expect(a.groups[0].realScores).toEqual(anchorsOfWmrl[0].realScores);
    expect(a.cost.counts.programsSampled).toBe(2);
  });

  it('resumes from a checkpoint onto the same anchor groups as the uninterrupted run', async () => {
    const whole = new Trainer(small('paper-anchors-only'), await ports());
    const ids: string[] = [];
    for (let k = 0; k < 3; k++) ids.push((await whole.step()).groups[0].taskId);
    const first = new Trainer(small('paper-anchors-only'), await ports());
    await first.step();
    await first.step();
    const resumed = await Trainer.resume(await first.checkpoint(), await ports());
    expect((await resumed.step()).groups[0].taskId).toBe(ids[2]);
  });

  it('refuses the switches that need a world-model stream, and an anchor share of 0 or 1', () => {
    const base = presetById('paper-anchors-only').config;
    expect(() => validateTrainerConfig({ ...base, debias: true })).toThrow(/no world-model stream/);
    expect(() => validateTrainerConfig({ ...base, fusion: 'anchor-weight', anchorWeight: presetById('paper-wmrl').config.anchorWeight })).toThrow(/no world-model stream/);
    expect(() => validateTrainerConfig({ ...base, rho: 1, perStepAnchors: undefined })).toThrow(/rho must lie in \(0, 1\)/);
  });
});

describe('paper-wmrl-lookup', { timeout: 60_000 }, () => {
  it('is paper-wmrl with the scorer switched, and nothing else', () => {
    const w = presetById('paper-wmrl').config;
    const l = presetById('paper-wmrl-lookup').config;
    expect({ ...l, name: w.name, scorer: undefined }).toEqual({ ...w, scorer: undefined });
    expect(l.scorer).toBe('lookup');
  });

  it("scores every program with the lookup in a step, the world model's forward never run", async () => {
    const FIT = [
      { program: 'model = tk.Ridge(alpha=1.0)\n', taskType: 'regression', y: 0.4 },
      { program: 'model = tk.RandomForestClassifier(n_trees=5)\n', taskType: 'binary', y: 0.8 },
    ];
    const lookup = fitFamilyTypeLookup(FIT);
    const p = await ports();
    const trainer = new Trainer(small('paper-wmrl-lookup'), { ...p, worldModel: new LookupWorldModel(lookup) });
    const r = await trainer.step();
    expect(p.worldModel.calls).toEqual([]);
    expect(r.worldModelCalled).toBe(true);
    const cards = new Map(TASKS.map((t) => [t.id, t.card]));
    for (const g of r.groups) g.programs.forEach((prog, i) => g.gate![i] === null && expect(g.wmScores![i]).toBe(scoreWithLookup(lookup, cards.get(g.taskId)!, prog)));
    expect(r.cost.counts.worldModelForwards).toBe(0);
  });

  it('needs a run that asks the world model', () => {
    expect(() => validateTrainerConfig({ ...presetById('paper-grpo-all-real').config, scorer: 'lookup' })).toThrow(/world model's place/);
    expect(() => validateTrainerConfig({ ...presetById('paper-anchors-only').config, scorer: 'lookup' })).toThrow(/world model's place/);
  });
});

describe('paper-grpo-matched', () => {
  it('is paper-grpo-all-real with B fixed at the compute-matched value', () => {
    const all = presetById('paper-grpo-all-real');
    const matched = presetById('paper-grpo-matched');
    expect(matched.config.groupsPerStep).toBe(MATCHED_GROUPS);
    expect(MATCHED_GROUPS).toBeLessThan(all.config.groupsPerStep);
    expect({ ...matched.config, name: all.config.name, groupsPerStep: all.config.groupsPerStep }).toEqual(all.config);
    expect(matched.fixedB).toBeTruthy();
    // only the matched preset fixes its B
    expect(PRESETS.filter((p) => p.fixedB).map((p) => p.id)).toEqual(['paper-grpo-matched']);
  });
});
