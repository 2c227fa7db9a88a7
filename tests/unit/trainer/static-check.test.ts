// wmrl-static in the loop: a program the verifier rejects gets reward 0, is neither scored by the
// world model nor run, and never reaches the calibrator; the verifier's time is charged.
import { describe, expect, it } from 'vitest';
import { Trainer, type TrainerPorts } from '../../../src/training/trainer.ts';
import { presetConfig } from '../../../src/training/presets.ts';
import { cpuPolicy, FIXTURE_VERIFIER_MS, FixedTasks, FixtureExecutor, FixtureVerifier, RecordingPolicy, testConfig, TinyWorldModel } from './fixtures.ts';

describe('the static check (wmrl-static)', { timeout: 60_000 }, () => {
  it('rejected programs get 0 without being scored or run, and the verifier is charged', async () => {
    const config = testConfig({ rho: 0.5, groupsPerStep: 4, groupSize: 3, staticCheck: true });
    const worldModel = new TinyWorldModel(11);
    const executor = new FixtureExecutor();
    const verifier = new FixtureVerifier();
    const ports: TrainerPorts = { policy: new RecordingPolicy(await cpuPolicy(3)), worldModel, executor, tasks: new FixedTasks(), verifier };
    const trainer = new Trainer(config, ports);
    let rejected = 0;
    let passedInAnchors = 0;
    let pairs = 0;
    for (let k = 0; k < 3; k++) {
      const r = await trainer.step();
      pairs = r.calibration.pairs;
      const programs = r.groups.flatMap((g) => g.programs);
      expect(verifier.calls[k]).toEqual(programs);
      const passing = programs.filter(FixtureVerifier.passes);
      rejected += programs.length - passing.length;
      // the record counts what the gate stopped, for the Train view
      expect(r.gateRejected).toBe(programs.length - passing.length);
      // the world model saw the passing programs only
      expect(worldModel.calls[k]).toBe(passing.length);
      for (const g of r.groups) {
        g.programs.forEach((p, i) => {
          // the gate's own verdict travels with each program, for the Train view's compile column
          expect(g.gate![i]).toBe(FixtureVerifier.passes(p) ? null : 'odd length');
          if (FixtureVerifier.passes(p)) return;
          expect(g.rewards[i]).toBe(0);
          if (g.anchor) expect(g.statuses![i]).toBe('error');
          if (g.anchor) expect(g.messages![i]).toBe('static check: odd length');
        });
        if (g.anchor) passedInAnchors += g.programs.filter(FixtureVerifier.passes).length;
      }
      expect(r.cost.busyMs.verifier).toBe(FIXTURE_VERIFIER_MS);
      expect(r.executions).toBe(r.groups.filter((g) => g.anchor).flatMap((g) => g.programs).filter(FixtureVerifier.passes).length);
    }
    // only what passed was executed, and the calibrator saw only those pairs
    expect(executor.calls.flat().every((q) => FixtureVerifier.passes(q.program))).toBe(true);
    expect(executor.executed).toBe(passedInAnchors);
    expect(pairs).toBe(passedInAnchors);
    expect(rejected).toBeGreaterThan(0);
  });

  it('the wmrl-static preset is WMRL with the check on; without a verifier port the step says so', async () => {
    const c = presetConfig('wmrl-static');
    const w = presetConfig('wmrl');
    expect({ ...c, name: 'x', staticCheck: undefined }).toEqual({ ...w, name: 'x', staticCheck: undefined });
    expect(c.staticCheck).toBe(true);
    const ports: TrainerPorts = { policy: new RecordingPolicy(await cpuPolicy(3)), worldModel: new TinyWorldModel(11), executor: new FixtureExecutor(), tasks: new FixedTasks() };
    await expect(new Trainer(testConfig({ staticCheck: true }), ports).step()).rejects.toThrow(/verifier gate needs a verifier port/);
  });
});
