// The authors' compile gate and reward ladder in the loop: a program that is empty or does not
// compile is not scored on world-model groups (reward 0) but still runs on anchor groups, where its
// real ladder reward pairs with the gate's s = 0.
import { describe, expect, it } from 'vitest';
import { Trainer, type TrainerPorts } from '../../../src/training/trainer.ts';
import { realReward, rungOf } from '../../../src/training/execution-rung.ts';
import type { ExecutionRequest, ExecutionResult, StaticCheck, VerifierPort } from '../../../src/training/ports.ts';
import { cpuPolicy, FixedTasks, fixtureScore, RecordingPolicy, testConfig, TinyWorldModel } from './fixtures.ts';

/** TEST FIXTURE verifier: length % 3 == 0 does not compile, == 1 has a bad keyword, else passes. */
class ThreeWayVerifier implements VerifierPort {
  static kind(p: string): 'no-compile' | 'keyword' | 'ok' {
    return p.length % 3 === 0 ? 'no-compile' : p.length % 3 === 1 ? 'keyword' : 'ok';
  }
  async check(programs: readonly string[]): Promise<{ results: StaticCheck[]; busyMs: number }> {
    return {
      results: programs.map((p) => {
        const k = ThreeWayVerifier.kind(p);
        return k === 'ok' ? { ok: true } : { ok: false, reason: k === 'no-compile' ? 'does not compile: SyntaxError: invalid syntax (line 1)' : "Model(...) takes no keyword 'x' (line 1)" };
      }),
      busyMs: 1,
    };
  }
}

/** TEST FIXTURE executor on the same rule: a non-compiling program fails with a SyntaxError, others by fixtureScore. */
class LadderExecutor {
  readonly calls: ExecutionRequest[][] = [];
  async run(requests: readonly ExecutionRequest[]): Promise<ExecutionResult[]> {
    this.calls.push([...requests]);
    return requests.map((r) => {
      if (ThreeWayVerifier.kind(r.program) === 'no-compile') return { score: 0, status: 'error', medal: null, busyMs: 1, startMs: 0, workerId: 0, message: 'SyntaxError: invalid syntax' };
      const f = fixtureScore(r.taskId, r.program);
      const status = f.ok ? 'ok' : r.program.length % 2 === 0 ? 'invalid' : 'error';
      return { score: f.score * (f.ok ? 1 : 0), status, medal: f.medal, busyMs: 1, startMs: 0, workerId: 0, message: f.ok ? undefined : 'ValueError: boom' };
    });
  }
}

describe("the authors' compile gate and ladder in the trainer", { timeout: 60_000 }, () => {
  it('gates world-model groups, still runs anchors, and rewards anchors on the ladder', async () => {
    const config = testConfig({ rho: 0.5, groupsPerStep: 4, groupSize: 3, wmGate: 'compile', reward: 'ladder', debias: true, fusion: 'none' });
    const worldModel = new TinyWorldModel(11);
    const executor = new LadderExecutor();
    const ports: TrainerPorts = { policy: new RecordingPolicy(await cpuPolicy(3)), worldModel, executor, tasks: new FixedTasks(), verifier: new ThreeWayVerifier() };
    const trainer = new Trainer(config, ports);
    let gated = 0;
    let anchorPrograms = 0;
    for (let k = 0; k < 3; k++) {
      const r = await trainer.step();
      const programs = r.groups.flatMap((g) => g.programs);
      const passing = programs.filter((p) => ThreeWayVerifier.kind(p) !== 'no-compile' && p.trim() !== '');
      expect(worldModel.calls[k]).toBe(passing.length); // a bad keyword is not the compile gate's business
      for (const g of r.groups) {
        g.programs.forEach((p, i) => {
          const stopped = ThreeWayVerifier.kind(p) === 'no-compile' || p.trim() === '';
          // the record says which programs the gate stopped and why (the Train view's compile column)
          expect(g.gate![i] !== null).toBe(stopped);
          if (stopped) expect(g.gate![i]).toMatch(/does not compile|empty program/);
          if (stopped) {
            gated++;
            expect(g.wmScores![i]).toBe(0);
          }
          if (!g.anchor && stopped) expect(g.rewards[i]).toBe(0);
          if (g.anchor) expect(g.rewards[i]).toBe(g.realScores![i]);
        });
        if (!g.anchor) continue;
        anchorPrograms += g.programs.length;
        // every anchor program ran, and its reward sits on the ladder
        g.realScores!.forEach((y) => expect([0, 0.1, 0.2].includes(y) || (y >= 0.5 && y <= 1)).toBe(true));
        g.statuses!.forEach((st, i) => {
          if (st === 'ok') expect(g.realScores![i]).toBeGreaterThanOrEqual(0.5);
          if (st === 'invalid') expect(g.realScores![i]).toBe(0.2);
        });
      }
      expect(r.calibration.pairs).toBe(anchorPrograms); // gated anchors pair (0, y) too
    }
    expect(executor.calls.flat()).toHaveLength(anchorPrograms);
    expect(gated).toBeGreaterThan(0);
  });

  it('reads the rung from the status and the message', () => {
    expect(rungOf({ status: 'error', message: 'File "program.py", line 3\nSyntaxError: invalid syntax' })).toBe('no-compile');
    expect(rungOf({ status: 'error', message: 'static check: does not compile: ValueError: source code string cannot contain null bytes' })).toBe('no-compile');
    expect(rungOf({ status: 'error', message: "static check: Model(...) takes no keyword 'x'" })).toBe('failed');
    expect(rungOf({ status: 'timeout' })).toBe('failed');
    expect(rungOf({ status: 'memory' })).toBe('failed');
    expect(rungOf({ status: 'invalid' })).toBe('no-submission');
    expect(realReward({ score: 0.6, status: 'ok' }, 'ladder')).toBeCloseTo(0.8, 12);
    expect(realReward({ score: 0.6, status: 'ok' }, 'percentile')).toBe(0.6);
  });

  it('refuses two gates at once and an anchor weight without constants', () => {
    expect(() => new Trainer(testConfig({ wmGate: 'compile', staticCheck: true }), {} as TrainerPorts)).toThrow(/two different gates/);
    expect(() => new Trainer(testConfig({ fusion: 'anchor-weight' }), {} as TrainerPorts)).toThrow(/anchorWeight/);
  });
});

describe("the authors' constants unscaled (negative control)", { timeout: 120_000 }, () => {
  it('train exactly like the no-correction ablation over a short run: neither correction switches on', async () => {
    const { presetConfig } = await import('../../../src/training/presets.ts');
    const shape = { seed: 3, steps: 4, groupsPerStep: 4, groupSize: 3, sampling: { maxNewTokens: 12, temperature: 1, topK: 0 } };
    const run = async (id: 'paper-wmrl-unscaled' | 'paper-ablation-neither') => {
      const ports: TrainerPorts = { policy: new RecordingPolicy(await cpuPolicy(3)), worldModel: new TinyWorldModel(11), executor: new LadderExecutor(), tasks: new FixedTasks(), verifier: new ThreeWayVerifier() };
      const t = new Trainer(presetConfig(id, shape), ports);
      const out = [];
      for (let k = 0; k < shape.steps; k++) {
        const r = await t.step();
        out.push({ rewards: r.groups.map((g) => g.rewards), coefficients: r.groups.map((g) => g.coefficients), knots: r.calibration.knots, w: r.fusion.anchorWeight ?? 1 });
      }
      return out;
    };
    const unscaled = await run('paper-wmrl-unscaled');
    const neither = await run('paper-ablation-neither');
    // what the policy is trained on is the same; the ablation's calibrator still learns for the charts
    const trained = (r: typeof unscaled) => r.map((s) => ({ rewards: s.rewards, coefficients: s.coefficients }));
    expect(trained(unscaled)).toEqual(trained(neither));
    for (const s of unscaled) {
      expect(s.knots.x).toEqual([]);
      expect(s.w).toBe(1);
    }
  });
});
