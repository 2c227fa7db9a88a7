// The robot RL step end to end with a small random policy (the project's transformer on the CPU
// engine) and the committed progress model (ONNX, wasm): the step feeds the coding domain's
// MethodState unchanged, y reaches it on the anchor group only, every step of a rollout carries its
// rollout's coefficient into the update (identical steps merged into one row with the sum of their
// weights, whose gradient is the unmerged batch's on a real step of the CLI's policy), the update
// changes the policy, and a run is a pure function of its request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EgocentricFrameTokens } from '../../../src/embodied/egocentric-frame-tokens.ts';
import { FrameTokenizer, actionOfToken } from '../../../src/embodied/frame-tokens.ts';
import { behaviourCloningExamples } from '../../../src/embodied/policy-data.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { readRobotPolicy } from '../../../src/embodied/policy-checkpoint.ts';
import { modelPolicy, policyPrompt } from '../../../src/embodied/policy-model.ts';
import { evaluateRobotPolicy } from '../../../src/embodied/robot-evaluation.ts';
import { loadProgressModel, type ProgressScorer } from '../../../src/embodied/progress-scorer.ts';
import { renderScene } from '../../../src/embodied/renderer.ts';
import { ROBOT_PRESETS, robotPresetConfig } from '../../../src/embodied/robot-presets.ts';
import { robotRunBehaviour, runRobot, type RobotRunRequest } from '../../../src/embodied/robot-run.ts';
import { RobotTrainer, robotTokenBudget, type RobotTrainerConfig } from '../../../src/embodied/robot-trainer.ts';
import { ALL_TASKS, TRAIN_TASKS } from '../../../src/embodied/tasks.ts';
import { CpuEngine } from '../../../src/engine/cpu/cpu-engine.ts';
import type { Objective } from '../../../src/engine/policy-engine.ts';
import { namedConfig } from '../../../src/model/config.ts';
import { createModel, type Model } from '../../../src/model/init.ts';
import { makeSequenceBatch, type SequenceBatch } from '../../../src/model/sequence-batch.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';
import { presetById } from '../../../src/training/presets.ts';
import { methodConfigOf } from '../../../src/training/trainer.ts';
import { MethodState } from '../../../src/wmrl/step.ts';

const root = join(import.meta.dirname, '../../..');
const frames = new EgocentricFrameTokens(
  FrameTokenizer.build(ALL_TASKS.map((t) => t.instruction), behaviourCloningExamples(TRAIN_TASKS.slice(0, 4), 'train', 1, [0.3]).map((e) => renderScene(e.state))),
  true,
);
const model: Model = createModel(namedConfig('tiny', { vocabSize: frames.vocabSize, contextLength: 72 }), mulberry32(3));
// Small: 3 initial states x 2 rollouts, 12 actions at most, so a step takes seconds.
const small = (id: Parameters<typeof robotPresetConfig>[0], over: Partial<RobotTrainerConfig> = {}): RobotTrainerConfig =>
  robotPresetConfig(id, { steps: 2, groupsPerStep: 3, groupSize: 2, horizon: 12, trainStates: 2, lr: 3e-3, ...over });

let progress: { score: ProgressScorer; release: () => Promise<void> };
beforeAll(async () => {
  progress = await loadProgressModel(readFileSync(join(root, 'results/robot-progress/progress-model.ckpt')), { prefer: 'wasm', numThreads: 1 });
});
afterAll(async () => {
  await progress?.release();
});

describe('robot presets', () => {
  it('take the coding presets\' method switches; a mixed row has one anchor group a step (rho = 1 / B)', () => {
    for (const p of ROBOT_PRESETS) {
      const c = robotPresetConfig(p.id, { groupsPerStep: 5 });
      if (p.switchesFrom === null) {
        expect(c.steps).toBe(0);
        continue;
      }
      const coding = presetById(p.switchesFrom).config;
      expect([c.debias, c.fusion]).toEqual([coding.debias, coding.fusion]);
      // the authors' rows keep their per-step rule, which also plans one anchor group a step here
      if (p.authors) expect(new MethodState(methodConfigOf(c)).plan(5).anchors.length).toBe(coding.rho === 0 ? 0 : coding.rho === 1 ? 5 : 1);
      else expect(c.rho).toBe(coding.rho === 0 || coding.rho === 1 ? coding.rho : 1 / 5);
    }
    expect(robotPresetConfig('robot-wmrl')).toMatchObject({ rho: 1 / 8, debias: true, fusion: 'ivw', temperature: 1, denseReward: 'delta' });
    expect(robotPresetConfig('robot-grpo-sparse').rho).toBe(1);
    expect(robotPresetConfig('robot-progress-only').rho).toBe(0);
  });
});

describe("the robot presets on the authors' rules", () => {
  it("take every method switch of their coding paper-* preset and G 8; one built from wmrl fails here", () => {
    const authors = ROBOT_PRESETS.filter((p) => p.authors);
    expect(authors.map((p) => p.id)).toEqual(['robot-paper-grpo-sparse', 'robot-paper-progress-only', 'robot-paper-wmrl', 'robot-paper-wmrl-anchors']);
    const keys = ['rho', 'advantageMode', 'debias', 'fusion', 'emaRate', 'halfLife', 'anchorWeight', 'binnedCalibrator', 'perStepAnchors'] as const;
    for (const p of authors) {
      const c = robotPresetConfig(p.id);
      const coding = presetById(p.switchesFrom!).config;
      for (const k of keys) expect(c[k], `${p.id} ${k}`).toEqual(coding[k]);
      expect(c.groupSize).toBe(8);
      expect(c.advantageMode).toBe('std');
    }
    const wmrl = robotPresetConfig('robot-paper-wmrl');
    expect([wmrl.fusion, wmrl.binnedCalibrator !== undefined, wmrl.calibrateOnAll]).toEqual(['anchor-weight', true, true]);
    // one switch between the two regimes
    const anchors = robotPresetConfig('robot-paper-wmrl-anchors');
    expect({ ...anchors, name: '', calibrateOnAll: true }).toEqual({ ...wmrl, name: '' });
    // what robot-wmrl is (our reading) is not the authors'
    expect(robotPresetConfig('robot-wmrl').advantageMode).not.toBe('std');
  });

  it("free anchors: every rollout's success joins the calibrator, the reward stays dense off the anchor group", async () => {
    const engine = CpuEngine.fromModel(model, { numThreads: 1 });
    const score = vi.spyOn(MethodState.prototype, 'score');
    try {
      const run = async (id: 'robot-paper-wmrl' | 'robot-paper-wmrl-anchors') => {
        const trainer = new RobotTrainer(small(id, { steps: 1 }), { engine, frames, progress: progress.score });
        const { record } = await trainer.step();
        return { record, pairs: trainer.methodState.snapshot().calibrator };
      };
      const free = await run('robot-paper-wmrl');
      const [, y, , calibrationOnly] = score.mock.calls[0];
      expect(y.filter((v) => v !== null)).toHaveLength(1);
      expect(calibrationOnly!.map((v, g) => (v === null) === free.record.groups[g].anchor)).toEqual([true, true, true]);
      free.record.groups.forEach((g, k) => g.anchor || expect(calibrationOnly![k]).toEqual(g.success.map((x) => (x ? 1 : 0))));
      expect(free.record.calibration.pairs).toBe(3 * 2);
      // The step record's method slice is the coding loop's (one builder): the anchor weight and whether the fusion reused its weights.
      const d = (score.mock.results[0].value as ReturnType<MethodState['score']>).diagnostics;
      expect(d.anchorWeight).toEqual(expect.any(Number));
      expect(free.record.fusion).toMatchObject({ mode: 'anchor-weight', anchorWeight: d.anchorWeight, weightsReused: d.weightsReused });
      const onlyAnchors = await run('robot-paper-wmrl-anchors');
      expect(score.mock.calls[1][3]).toBeUndefined();
      expect(onlyAnchors.record.calibration.pairs).toBe(2);
    } finally {
      score.mockRestore();
      await engine.dispose();
    }
  }, 120_000);
});

describe('the robot RL step', () => {
  it.each(['per-rollout', 'constant'] as const)('feeds MethodState (the coding loop\'s class) s for every rollout and y on the anchor group only, and updates every rollout step with its rollout\'s coefficient (normalised %s)', async (normalise) => {
    const engine = CpuEngine.fromModel(model, { numThreads: 1 });
    const score = vi.spyOn(MethodState.prototype, 'score');
    const update = vi.spyOn(engine, 'update');
    try {
      const config = small('robot-wmrl', { normalise });
      const trainer = new RobotTrainer(config, { engine, frames, progress: progress.score });
      // The very class the coding loop builds, configured by the same function.
      expect(trainer.methodState).toBeInstanceOf(MethodState);
      expect(trainer.methodState.config).toEqual(methodConfigOf(config));
      const before = await engine.getWeights();
      let nonZeroSteps = 0;
      for (let step = 0; step < 2; step++) {
        const { record, rollouts } = await trainer.step();
        // One anchor group a step (rho = 1/3 at B = 3); y exactly there, as the simulator's success.
        expect(record.groups.filter((g) => g.anchor)).toHaveLength(1);
        for (const g of record.groups) {
          if (g.anchor) expect(g.realScores).toEqual(g.success.map((s) => (s ? 1 : 0)));
          else expect(g.realScores).toBeNull();
          expect(g.progress!.every((p) => p.length === 8 && p.every((x) => x >= 0 && x <= 1))).toBe(true);
        }
        // The method core got exactly these inputs and its coefficients are the record's.
        const [s, y] = score.mock.calls[step];
        expect(y.map((v) => v !== null)).toEqual(record.groups.map((g) => g.anchor));
        expect(s).toEqual(record.groups.map((g) => g.wmScores));
        const returned = score.mock.results[step].value as { coefficients: number[][] };
        expect(record.groups.map((g) => g.coefficients)).toEqual(returned.coefficients);
        // The sampled token of every step is what the rollout did.
        for (const r of rollouts) {
          expect(r.actions).toHaveLength(r.tokens.length);
          r.tokens.forEach((tok, t) => expect(r.actions[t]).toBe(actionOfToken(tok) ?? 'release'));
        }
        // The update: one sequence per step of every rollout with a non-zero coefficient, prompt then sampled token.
        const [batch, objective] = update.mock.calls[step] as unknown as [SequenceBatch, Extract<Objective, { kind: 'rl' }>];
        // per-rollout: each step carries coefficient / the rollout's length, so a rollout weighs the same whatever its length
        const weightOf = (r: (typeof rollouts)[number]) => (normalise === 'per-rollout' ? r.coefficient / r.tokens.length : r.coefficient);
        const expected = rollouts.filter((r) => r.coefficient !== 0).flatMap((r) => r.tokens.map((tok, t) => ({ tokens: [...policyPrompt(frames, TRAIN_TASKS.find((x) => x.id === r.taskId)!, r.states[t]), tok], c: weightOf(r) })));
        if (expected.length === 0) {
          // Every coefficient 0 (e.g. a calibrator fitted on anchors that all failed maps every s to 0):
          // the optimiser still steps, on one sequence that adds nothing.
          expect(batch.B).toBe(1);
          expect(Array.from(objective.weights)).toEqual([0]);
        } else {
          nonZeroSteps++;
          // identical sequences are one row with the sum of their weights, rows in order of first occurrence
          const rows = new Map<string, { tokens: number[]; c: number }>();
          for (const e of expected) {
            const row = rows.get(e.tokens.join(','));
            if (row) row.c += e.c;
            else rows.set(e.tokens.join(','), { tokens: e.tokens, c: e.c });
          }
          const want = [...rows.values()];
          expect(batch.B).toBe(want.length);
          expect(Array.from(objective.weights)).toEqual(want.map((e) => e.c));
          want.forEach((e, b) => expect(Array.from(batch.tokens.slice(b * batch.T, b * batch.T + e.tokens.length))).toEqual(e.tokens));
          expect(record.batch.distinct).toBe(want.length);
        }
        expect(objective.normalizer).toBe(normalise === 'per-rollout' ? config.groupsPerStep * config.groupSize : robotTokenBudget(config));
        expect(record.batch.normalizer).toBe(objective.normalizer);
        expect(record.batch.sequences).toBe(expected.length);
      }
      expect(nonZeroSteps).toBeGreaterThan(0);
      const after = await engine.getWeights();
      expect(after.some((w, i) => w !== before[i])).toBe(true);
      expect(trainer.methodState.anchorsSoFar).toBe(2);
    } finally {
      score.mockRestore();
      await engine.dispose();
    }
  }, 120_000);

  it('GRPO on sparse success never calls the progress model and anchors every group; progress-only never reads success', async () => {
    const engine = CpuEngine.fromModel(model, { numThreads: 1 });
    try {
      const never: ProgressScorer = async () => {
        throw new Error('the progress model was called');
      };
      const heard: string[] = [];
      const grpo = await new RobotTrainer(small('robot-grpo-sparse', { steps: 1 }), { engine, frames, progress: never }).step((p) => heard.push(p.phase === 'rollouts' ? `t${p.t}` : p.phase));
      // Every decoding step of the rollouts in order, then the update; no scoring without the progress model.
      expect(heard.slice(0, 2)).toEqual(['t0', 't1']);
      expect(heard.at(-1)).toBe('update');
      expect(heard).not.toContain('progress');
      expect(grpo.record.progressModelCalled).toBe(false);
      expect(grpo.record.groups.every((g) => g.anchor && g.realScores !== null && g.progress === null)).toBe(true);
      const dense = await new RobotTrainer(small('robot-progress-only', { steps: 1 }), { engine, frames, progress: progress.score }).step();
      expect(dense.record.groups.every((g) => !g.anchor && g.realScores === null)).toBe(true);
      expect(dense.record.meanRealReward).toBeNull();
    } finally {
      await engine.dispose();
    }
  }, 120_000);

  it('a checkpoint between steps resumes exactly: step 2 after a resume is step 2 of the uninterrupted run', async () => {
    const config = small('robot-wmrl');
    const strip = (r: { record: object }) => JSON.parse(JSON.stringify(r.record, (k, v) => (k === 'ms' || k === 'busyMs' ? undefined : v)));
    const a = CpuEngine.fromModel(model, { numThreads: 1 });
    const b = CpuEngine.fromModel(model, { numThreads: 1 });
    try {
      const whole = new RobotTrainer(config, { engine: a, frames, progress: progress.score });
      await whole.step();
      const saved = structuredClone(await whole.checkpoint());
      const second = strip(await whole.step());
      const resumed = await RobotTrainer.resume(saved, { engine: b, frames, progress: progress.score });
      expect(resumed.stepsTaken).toBe(1);
      expect(strip(await resumed.step())).toEqual(second);
      expect(await b.getWeights()).toEqual(await a.getWeights());
      await expect(RobotTrainer.resume({ ...saved, policy: { params: new Float32Array(3), optimizer: null } }, { engine: b, frames, progress: progress.score })).rejects.toThrow(/3 weights/);
    } finally {
      await a.dispose();
      await b.dispose();
    }
  }, 120_000);

  it('a run is a pure function of its request: two runs agree exactly (timings aside), another seed differs', async () => {
    const request = (seed: number): RobotRunRequest => ({
      preset: 'robot-wmrl', seed, config: small('robot-wmrl', { seed }), evaluation: { statesPerTask: 1, temperature: 1, trials: 2 }, policySha256: 'test', progressSha256: 'test',
    });
    const once = async (seed: number) => {
      const engine = CpuEngine.fromModel(model, { numThreads: 1 });
      try {
        return robotRunBehaviour(await runRobot(request(seed), { engine, frames, progress: progress.score }, 'test'));
      } finally {
        await engine.dispose();
      }
    };
    const a = await once(1);
    expect(await once(1)).toEqual(a);
    expect(await once(2)).not.toEqual(a);
  }, 240_000);
});

describe('the merged update (identical sequences as one row)', () => {
  it("gives the gradient of the unmerged batch on a real step of the CLI's policy and preset, with fewer rows", async () => {
    // The CLI's 52,000-step policy and preset at seed 11, small: 2 states x 4 rollouts, 16 actions.
    const policy = readRobotPolicy(readFileSync(join(root, 'results/robot-bc/policy-other-instructions-52000-steps.ckpt')));
    const engine = CpuEngine.fromModel(policy.model, { numThreads: 1 });
    const reference = CpuEngine.fromModel(policy.model, { numThreads: 1 }); // the weights before the update
    const update = vi.spyOn(engine, 'update');
    try {
      const config = robotPresetConfig('robot-paper-wmrl', { seed: 11, steps: 1, groupsPerStep: 2, groupSize: 4, horizon: 16 });
      const { record, rollouts } = await new RobotTrainer(config, { engine, frames: policy.frames, progress: progress.score }).step();
      const [merged, objective] = update.mock.calls[0] as unknown as [SequenceBatch, Extract<Objective, { kind: 'rl' }>];
      // what makes the merge exact: one epoch (one update call), no ratio clipping, no KL penalty
      expect(update).toHaveBeenCalledTimes(1);
      expect([objective.clip, objective.kl]).toEqual([undefined, undefined]);
      // the batch without the merge, rebuilt from the rollouts: every step of every rollout with a weight
      const unmerged = rollouts.filter((r) => r.coefficient !== 0).flatMap((r) => r.tokens.map((tok, t) => {
        const prompt = policyPrompt(policy.frames, TRAIN_TASKS.find((x) => x.id === r.taskId)!, r.states[t]);
        return { tokens: [...prompt, tok], programStart: prompt.length, c: r.coefficient / r.tokens.length };
      }));
      expect(record.batch.sequences).toBe(unmerged.length);
      expect(merged.B).toBe(record.batch.distinct);
      expect(unmerged.length - merged.B).toBeGreaterThan(0); // the case has duplicates (measured: 64 sequences, 31 rows)
      const full = await reference.gradients(makeSequenceBatch(unmerged), { kind: 'rl', weights: unmerged.map((e) => e.c), normalizer: objective.normalizer });
      const one = await reference.gradients(merged, objective);
      // Float32 sums over about a hundred rows in another order: the gradient of the unmerged batch
      // reversed differs from it by about 1e-6 (relative, L2), as the merged one does (measured 0.9e-6
      // and 1.0e-6), so 1e-5 leaves a factor 10. The gradient, not the weights after the update: Adam's
      // first step moves every weight by about lr times the sign of its gradient, so a component near 0
      // flips with rounding noise.
      let diff = 0;
      let norm = 0;
      for (let i = 0; i < full.grads.length; i++) {
        diff += (one.grads[i] - full.grads[i]) ** 2;
        norm += full.grads[i] ** 2;
      }
      expect(norm).toBeGreaterThan(0);
      expect(Math.sqrt(diff / norm)).toBeLessThan(1e-5);
      expect(Math.abs(one.loss - full.loss)).toBeLessThan(1e-6 * Math.abs(full.loss));
    } finally {
      update.mockRestore();
      await engine.dispose();
      await reference.dispose();
    }
  }, 120_000);
});

describe('held-out evaluation', () => {
  it('samples `trials` rollouts per initial state and counts every one; greedy stays available and takes one', async () => {
    const engine = CpuEngine.fromModel(model, { numThreads: 1 });
    try {
      const sampled = await evaluateRobotPolicy(engine, frames, { statesPerTask: 1, temperature: 1, trials: 3, seed: 5, horizon: 6 });
      expect([sampled.trials, sampled.trainTasksHeldoutStates.episodes, sampled.heldoutTasksHeldoutStates.episodes]).toEqual([3, 60, 15]);
      expect(Object.values(sampled.trainTasksHeldoutStates.byTask).every((x) => x.endsWith('/3'))).toBe(true);
      // the same seed gives the same draws, hence the same evaluation (timings aside)
      const again = await evaluateRobotPolicy(engine, frames, { statesPerTask: 1, temperature: 1, trials: 3, seed: 5, horizon: 6 });
      expect({ ...again, ms: 0 }).toEqual({ ...sampled, ms: 0 });
      const greedy = await evaluateRobotPolicy(engine, frames, { statesPerTask: 1, horizon: 6 });
      expect([greedy.temperature, greedy.trials, greedy.trainTasksHeldoutStates.episodes]).toEqual([0, 1, 20]);
      await expect(evaluateRobotPolicy(engine, frames, { statesPerTask: 1, temperature: 0, trials: 2 })).rejects.toThrow(/trials must be 1 at temperature 0/);
      await expect(evaluateRobotPolicy(engine, frames, { statesPerTask: 1, temperature: 1, trials: 0 })).rejects.toThrow(/trials must be a positive integer/);
    } finally {
      await engine.dispose();
    }
  }, 120_000);

  it('draws keyed by episode: an episode gets the same draws whichever other episodes are open (common random numbers)', async () => {
    const engine = CpuEngine.fromModel(model, { numThreads: 1 });
    try {
      const [a, b] = TRAIN_TASKS;
      const item = (task: typeof a, episode: number, t: number) => ({ task, state: initialScene(task, 'heldout', 0), t, episode });
      const actionsOf5 = async (withOther: boolean) => {
        const policy = modelPolicy(engine, frames, { temperature: 1, seed: 11, drawsByEpisode: true });
        const out: string[] = [];
        for (let t = 0; t < 24; t++) {
          const items = withOther ? [item(b, 9, t), item(a, 5, t)] : [item(a, 5, t)];
          out.push((await policy(items)).at(-1)!);
        }
        return out;
      };
      const alone = await actionsOf5(false);
      expect(await actionsOf5(true)).toEqual(alone);
      expect(new Set(alone).size).toBeGreaterThan(1); // sampled, not a constant answer
      await expect(modelPolicy(engine, frames, { temperature: 1, seed: 1, drawsByEpisode: true })([{ task: a, state: initialScene(a, 'heldout', 0), t: 0 }])).rejects.toThrow(/episode index/);
    } finally {
      await engine.dispose();
    }
  }, 120_000);
});
