// The robot domain's RL loop, one `step()` read top to bottom (the coding loop's twin, trainer.ts):
//
//   1. draw B initial states of training tasks (seeded)
//   2. plan the anchor groups (MethodState.plan: the same method core as the coding domain)
//   3. roll out G episodes from each state with the policy (temperature 1, one batched decode a step)
//   4. score 8 frames of every rollout with the frozen progress model -> dense reward s (shaping.ts);
//      the simulator's success is y, given to the method on the anchor groups only (and, in the
//      authors' free-anchor regime, to the calibrator on every group)
//   5. MethodState.score: calibration, rewards, advantages, fusion, per-rollout coefficients
//   6. the RL batch: every step of a rollout is one sequence [prompt] [action token], carrying its
//      rollout's coefficient, weighed by config.normalise (rollout-loss-weights.ts): 'constant'
//      (Z = B * G * horizon, the default when absent) or 'per-rollout' (each rollout's steps share
//      its coefficient, Z = B * G); identical sequences merged into one row with the sum of their
//      weights (merge-identical-sequences.ts: exact for this one-epoch update without clipping or KL)
//   7. the policy update (updatePolicy, the one the coding policy port uses)
//
// Why a loop of its own rather than domain-free ports under src/training's Trainer: that loop's
// sampling, world-model and executor ports are program-shaped (a card in, program text out, a
// sandbox run graded by a leaderboard, verifier gates) and its records carry programs; making them
// generic would touch every caller of the coding loop and the seeded --quick that must stay
// byte-identical. What must be shared is shared: MethodState (src/wmrl) with the config built by
// methodConfigOf, the update (src/training/policy-update.ts), drawTasks, the optimiser constants.
//
// Special cases as in the coding loop: rho = 1 (GRPO on the sparse success) never calls the progress
// model and gives MethodState y in place of s; rho = 0 (progress only) never reads success.
// Randomness: every draw derives from (seed, stream, step), so the step counter is the generator state.

import { validateOptimizerState } from '../engine/optimizer-state.ts';
import type { PolicyEngine } from '../engine/policy-engine.ts';
import { makeSequenceBatch } from '../model/sequence-batch.ts';
import { deriveSeed } from '../primitives/random.ts';
import { mergeIdenticalSequences } from '../training/merge-identical-sequences.ts';
import { updatePolicy } from '../training/policy-update.ts';
import { methodStepFields, type MethodStepFields } from '../training/method-step-fields.ts';
import type { PolicyWeights } from '../training/ports.ts';
import { drawTasks, methodConfigOf, type MethodSwitches } from '../training/trainer.ts';
import { MethodState, type MethodSnapshot } from '../wmrl/step.ts';
import { initialScene } from './layout.ts';
import { methodInputs } from './method-batch.ts';
import { modelPolicy, policyPrompt, type PolicyFrameTokens } from './policy-model.ts';
import type { ProgressScorer } from './progress-scorer.ts';
import type { Action } from './kinematics.ts';
import { HORIZON, runEpisodes } from './rollout.ts';
import type { SceneState } from './scene.ts';
import { frameIndices, DENSE_REWARD_MODES, type DenseRewardMode } from './shaping.ts';
import { LOSS_NORMALISATIONS, rolloutLossWeights, type LossNormalisation } from './rollout-loss-weights.ts';
import type { ScoredRollout } from './scored-rollout.ts';
import { TRAIN_TASKS, type RobotTask } from './tasks.ts';

export interface RobotTrainerConfig extends MethodSwitches {
  /** A label for the run (preset name). */
  name: string;
  /** Steps the run is meant to take; 0: the starting policy, evaluated only. */
  steps: number;
  /** B: initial states (groups) a step. */
  groupsPerStep: number;
  /** G: rollouts per initial state (>= 2). */
  groupSize: number;
  /** Sampling temperature of the training rollouts (1 in the paper's embodied track). */
  temperature: number;
  /** Actions an episode may take. */
  horizon: number;
  /** How the 8 progress scores collapse into s (shaping.ts). */
  denseReward: DenseRewardMode;
  /** Training initial states per training task that steps draw from (layout.ts indices 0..n-1). */
  trainStates: number;
  lr: number;
  weightDecay: number;
  maxGradNorm: number;
  /** How rollouts weigh in the loss (rollout-loss-weights.ts); absent: 'constant', as runs before the switch. */
  normalise?: LossNormalisation;
  /**
   * The authors' free-anchor regime (their LIBERO config's anchor_fraction 1.0): every rollout's success
   * joins the calibrator as an (s, success) pair, while only the anchor groups are rewarded by success and
   * the others keep the calibrated dense reward. Absent: the anchors' pairs alone, as in the coding domain.
   */
  calibrateOnAll?: boolean;
}

export function validateRobotTrainerConfig(c: RobotTrainerConfig): void {
  const fail = (m: string): never => {
    throw new RangeError(`robot trainer config: ${m}`);
  };
  if (!Number.isInteger(c.seed)) fail(`seed must be an integer, got ${c.seed}`);
  if (!(Number.isInteger(c.steps) && c.steps >= 0)) fail(`steps must be a non-negative integer, got ${c.steps}`);
  if (!(Number.isInteger(c.groupsPerStep) && c.groupsPerStep >= 1)) fail(`groupsPerStep (B) must be a positive integer, got ${c.groupsPerStep}`);
  if (!(Number.isInteger(c.groupSize) && c.groupSize >= 2)) fail(`groupSize (G) must be an integer >= 2, got ${c.groupSize}`);
  if (!(c.rho >= 0 && c.rho <= 1)) fail(`rho must lie in [0, 1], got ${c.rho}`);
  if (!(c.temperature > 0 && Number.isFinite(c.temperature))) fail(`temperature must be positive (training samples), got ${c.temperature}`);
  if (!(Number.isInteger(c.horizon) && c.horizon >= 1)) fail(`horizon must be a positive integer, got ${c.horizon}`);
  if (!DENSE_REWARD_MODES.includes(c.denseReward)) fail(`denseReward must be one of ${DENSE_REWARD_MODES.join(', ')}, got ${String(c.denseReward)}`);
  if (!(Number.isInteger(c.trainStates) && c.trainStates >= 1)) fail(`trainStates must be a positive integer, got ${c.trainStates}`);
  if (!(c.lr > 0)) fail(`lr must be positive, got ${c.lr}`);
  if (!(c.weightDecay >= 0)) fail(`weightDecay must be >= 0, got ${c.weightDecay}`);
  if (!(c.maxGradNorm >= 0)) fail(`maxGradNorm must be >= 0, got ${c.maxGradNorm}`);
  if (c.calibrateOnAll && !(c.rho > 0 && c.rho < 1)) fail('calibrateOnAll feeds the calibrator of a run that mixes the two streams (0 < rho < 1)');
  if (c.normalise !== undefined && !LOSS_NORMALISATIONS.includes(c.normalise)) fail(`normalise must be one of ${LOSS_NORMALISATIONS.join(', ')}, got ${String(c.normalise)}`);
}

/** Z: the action-token budget of one step, constant for the run (every rollout may use the horizon). */
export function robotTokenBudget(c: Pick<RobotTrainerConfig, 'groupsPerStep' | 'groupSize' | 'horizon'>): number {
  return c.groupsPerStep * c.groupSize * c.horizon;
}

/** Independent random streams, so e.g. changing G does not change which states are drawn. */
const STREAM = { starts: 1, rollouts: 2 } as const;

export interface RobotPorts {
  /** The policy: sampled from and updated in place. */
  engine: PolicyEngine;
  /** The policy's frame encoding (from its checkpoint). */
  frames: PolicyFrameTokens;
  /** The frozen progress model; never called by rho = 1 rows. */
  progress: ProgressScorer;
}

/** One rollout as the page shows it: its scenes, the progress model's view of it, and what the method made of it. */
export interface RobotRollout {
  group: number;
  index: number;
  taskId: string;
  instruction: string;
  /** Index of the initial state among the task's training states (layout.ts). */
  initialIndex: number;
  anchor: boolean;
  /** Scenes before each action and after the last (renderScene draws each one). */
  states: SceneState[];
  actions: Action[];
  /** The sampled token of each step (an action token, or another token read as 'release'). */
  tokens: number[];
  /** Which scenes the progress model scored (shaping.ts frameIndices), and its scores; null when it was not called. */
  progressFrames: number[];
  progress: number[] | null;
  /** The simulator's outcome (the method sees it on anchor groups only). */
  success: boolean;
  /** The world-model score s (dense reward), null without the progress model. */
  s: number | null;
  reward: number;
  advantage: number;
  coefficient: number;
}

/** Everything the loop knows about one group after the step (JSON-safe: no scenes). */
export interface RobotGroupRecord {
  taskId: string;
  initialIndex: number;
  anchor: boolean;
  /** The simulator's success of every rollout (diagnostic: the method saw it on anchors only). */
  success: boolean[];
  /** Actions taken per rollout. */
  lengths: number[];
  /** Progress scores of the 8 frames per rollout; null when the progress model was not called. */
  progress: number[][] | null;
  /** Dense rewards s; null without the progress model. */
  wmScores: number[] | null;
  /** g(s) (or s with debiasing off); null without the progress model. */
  wmRewards: number[] | null;
  /** y given to the method: success as 1 / 0 on anchor groups, null elsewhere. */
  realScores: number[] | null;
  rewards: number[];
  advantages: number[];
  coefficients: number[];
}

export interface RobotStepRecord extends MethodStepFields {
  groups: RobotGroupRecord[];
  progressModelCalled: boolean;
  /** Share of this step's rollouts that succeeded (all of them, from the simulator). */
  successRate: number;
  /**
   * Sequences (rollout steps) in the update, those with a non-zero coefficient, and Z. `distinct`: how
   * many of those sequences differ, the rows the engine ran once identical ones were merged (absent in
   * runs from before the merge).
   */
  batch: { sequences: number; distinct?: number; rolloutSteps: number; normalizer: number };
  ms: { rollouts: number; progress: number; update: number; wall: number };
}

export interface RobotStepResult {
  record: RobotStepRecord;
  /** The step's rollouts with their scenes, for display (not written to run files). */
  rollouts: RobotRollout[];
}

/** How far a step is, told while it runs (a step takes seconds to a minute on a CPU). */
export type RobotStepProgress =
  | { phase: 'rollouts'; t: number; horizon: number; open: number; total: number }
  | { phase: 'progress'; frames: number }
  | { phase: 'update'; sequences: number };

/** A starting point of a group: a training task and the index of one of its training initial states. */
export interface RobotStart {
  task: RobotTask;
  index: number;
}

/** The pool steps draw from: every training task x its first `trainStates` training states. */
export function robotStartPool(trainStates: number): RobotStart[] {
  return TRAIN_TASKS.flatMap((task) => Array.from({ length: trainStates }, (_, index) => ({ task, index })));
}

const now = (): number => performance.now();

/** A run between steps: enough to resume it exactly (structured-clone safe; weights are Float32Arrays). */
export interface RobotTrainerCheckpoint {
  format: 'wmrl-robot-trainer';
  version: 1;
  config: RobotTrainerConfig;
  /** Steps done; also the generator state, since every draw derives from (seed, step). */
  step: number;
  method: MethodSnapshot;
  policy: PolicyWeights;
}

export class RobotTrainer {
  readonly config: RobotTrainerConfig;
  private readonly ports: RobotPorts;
  private method: MethodState;
  private readonly pool: RobotStart[];
  private stepsDone = 0;

  constructor(config: RobotTrainerConfig, ports: RobotPorts) {
    validateRobotTrainerConfig(config);
    this.config = structuredClone(config);
    this.ports = ports;
    this.method = new MethodState(methodConfigOf(config));
    this.pool = robotStartPool(config.trainStates);
  }

  /** A trainer that continues a checkpointed run: the policy's weights and AdamW state are restored into ports.engine. */
  static async resume(checkpoint: RobotTrainerCheckpoint, ports: RobotPorts): Promise<RobotTrainer> {
    if (checkpoint.format !== 'wmrl-robot-trainer' || checkpoint.version !== 1) throw new Error('robot trainer: not a robot trainer checkpoint of version 1');
    const t = new RobotTrainer(checkpoint.config, ports);
    const { params, optimizer } = checkpoint.policy;
    const expected = (await ports.engine.getWeights()).length;
    if (params.length !== expected) throw new Error(`robot trainer: the checkpoint has ${params.length} weights, the policy ${expected}`);
    // checked before anything changes, so a bad checkpoint leaves the policy as it was
    if (optimizer) validateOptimizerState(optimizer, expected, 'robot trainer');
    t.method = MethodState.restore(checkpoint.method);
    t.stepsDone = checkpoint.step;
    await ports.engine.setWeights(params, !optimizer);
    if (optimizer) await ports.engine.setOptimizerState(optimizer);
    return t;
  }

  async checkpoint(): Promise<RobotTrainerCheckpoint> {
    const { engine } = this.ports;
    return {
      format: 'wmrl-robot-trainer',
      version: 1,
      config: structuredClone(this.config),
      step: this.stepsDone,
      method: this.method.snapshot(),
      policy: { params: await engine.getWeights(), optimizer: await engine.getOptimizerState() },
    };
  }

  /** The method core this loop feeds (the same class the coding loop uses). */
  get methodState(): MethodState {
    return this.method;
  }

  get stepsTaken(): number {
    return this.stepsDone;
  }

  get done(): boolean {
    return this.stepsDone >= this.config.steps;
  }

  /** `onProgress` (optional) hears each decoding step of the rollouts and the start of scoring and update; the result does not depend on it. */
  async step(onProgress?: (p: RobotStepProgress) => void): Promise<RobotStepResult> {
    const c = this.config;
    const { engine, frames } = this.ports;
    const t0 = now();
    const step = this.stepsDone;
    const B = c.groupsPerStep;
    const G = c.groupSize;

    // 1. B initial states of training tasks.
    const starts = drawTasks(this.pool, B, deriveSeed(c.seed, STREAM.starts, step));

    // 2. Anchor plan.
    const plan = this.method.plan(B);

    // 3. G rollouts from each, side by side. initialScene builds a fresh scene per rollout and every
    //    action a fresh scene after it, so each scene object belongs to one rollout step and the
    //    sampled token of each step can be looked up by its scene.
    const flat = starts.flatMap((s) => Array.from({ length: G }, () => ({ task: s.task, initial: initialScene(s.task, 'train', s.index) })));
    const tokenAt = new WeakMap<SceneState, number>();
    const sampler = modelPolicy(engine, frames, {
      temperature: c.temperature,
      seed: deriveSeed(c.seed, STREAM.rollouts, step),
      onAction: (item, token) => tokenAt.set(item.state, token),
    });
    const episodes = await runEpisodes(flat, (items) => {
      onProgress?.({ phase: 'rollouts', t: items[0]?.t ?? 0, horizon: c.horizon, open: items.length, total: flat.length });
      return sampler(items);
    }, c.horizon);
    const tRollouts = now();
    const tokens = episodes.map((e) => e.actions.map((_, t) => {
      const tok = tokenAt.get(e.states[t]);
      if (tok === undefined) throw new Error('robot trainer: a rollout step has no sampled token');
      return tok;
    }));

    // 4. Progress scores of 8 frames of every rollout (not for rho = 1), success from the simulator.
    const callProgress = c.rho < 1;
    const picked = episodes.map((e) => frameIndices(e.states.length));
    let progress: number[][] | null = null;
    if (callProgress) {
      const items = episodes.flatMap((e, k) => picked[k].map((i) => ({ instruction: flat[k].task.instruction, state: e.states[i] })));
      onProgress?.({ phase: 'progress', frames: items.length });
      const scores = await this.ports.progress(items);
      if (scores.length !== items.length) throw new Error(`robot trainer: the progress model gave ${scores.length} scores for ${items.length} frames`);
      progress = episodes.map((_, k) => scores.slice(k * picked[k].length, (k + 1) * picked[k].length));
    }
    const tProgress = now();
    const group = <T>(xs: readonly T[], g: number): T[] => xs.slice(g * G, (g + 1) * G);

    // 5. The method core. Without the progress model every group is an anchor and y stands in for s.
    let s: number[][];
    let y: (number[] | null)[];
    if (progress) {
      const scored: ScoredRollout[][] = starts.map((_, g) => group(episodes, g).map((e, i) => ({ progress: progress![g * G + i], success: e.success })));
      ({ s, y } = methodInputs(scored, plan.isAnchor, c.denseReward));
    } else {
      y = starts.map((_, g) => group(episodes, g).map((e) => (e.success ? 1 : 0)));
      s = y.map((v) => [...v!]);
    }
    // the free-anchor regime: the simulator's success on every other group joins the calibrator only
    const calibrationOnly = progress && c.calibrateOnAll
      ? starts.map((_, g) => (plan.isAnchor[g] ? null : group(episodes, g).map((e) => (e.success ? 1 : 0))))
      : undefined;
    const result = this.method.score(s, y, undefined, calibrationOnly);

    // 6. The RL batch: one sequence per rollout step, the prompt then the sampled token (masked in),
    //    each carrying its rollout's weight (its coefficient, or that over its length: config.normalise).
    //    A sequence whose weight is 0 adds exactly 0 to the gradient (one epoch, no KL), so it is left
    //    out; one is kept when all are 0, so the optimiser still takes its step as in the coding loop.
    const weights = rolloutLossWeights(
      episodes.map((_, k) => result.coefficients[Math.floor(k / G)][k % G]),
      episodes.map((e) => e.actions.length),
      c.horizon,
      c.normalise ?? 'constant',
    );
    const coefficientOf = (k: number) => weights.stepWeight[k];
    const context = engine.config.contextLength;
    const sequences: { tokens: number[]; programStart: number }[] = [];
    const coefficients: number[] = [];
    let rolloutSteps = 0;
    episodes.forEach((e, k) => {
      rolloutSteps += e.actions.length;
      const coef = coefficientOf(k);
      if (coef === 0) return;
      e.actions.forEach((_, t) => {
        const prompt = policyPrompt(frames, flat[k].task, e.states[t]);
        if (prompt.length + 1 > context) throw new Error(`robot trainer: a step's sequence takes ${prompt.length + 1} tokens, the policy's context holds ${context}`);
        sequences.push({ tokens: [...prompt, tokens[k][t]], programStart: prompt.length });
        coefficients.push(coef);
      });
    });
    if (sequences.length === 0) {
      // Every initial scene has a stage undone, so every rollout took at least one action.
      const k = episodes.findIndex((e) => e.actions.length > 0);
      if (k < 0) throw new Error('robot trainer: no rollout took an action');
      const prompt = policyPrompt(frames, flat[k].task, episodes[k].states[0]);
      sequences.push({ tokens: [...prompt, tokens[k][0]], programStart: prompt.length });
      coefficients.push(0);
    }
    //    Identical sequences (a group's rollouts start from one scene and often take the same first
    //    steps) become one row carrying the sum of their weights. Exact here because the update below
    //    is one epoch without ratio clipping or KL (it passes neither), so the loss is linear in each
    //    weight; at the CLI's settings the engine runs 2.4 to 3.7 times fewer rows (docs/embodied.md).
    const merged = mergeIdenticalSequences(sequences, coefficients);
    const batch = makeSequenceBatch(merged.sequences);
    const normalizer = weights.normalizer;

    // 7. The update, through the same function as the coding policy port.
    onProgress?.({ phase: 'update', sequences: batch.B });
    const update = await updatePolicy(engine, { batch, coefficients: merged.coefficients, normalizer, lr: c.lr, weightDecay: c.weightDecay, maxGradNorm: c.maxGradNorm });
    const tUpdate = now();

    // 8. The record, and the rollouts for display.
    const groups: RobotGroupRecord[] = starts.map((st, g) => ({
      taskId: st.task.id,
      initialIndex: st.index,
      anchor: plan.isAnchor[g],
      success: group(episodes, g).map((e) => e.success),
      lengths: group(episodes, g).map((e) => e.actions.length),
      progress: progress ? group(progress, g) : null,
      wmScores: progress ? s[g] : null,
      wmRewards: progress ? result.wmRewards[g] : null,
      realScores: y[g],
      rewards: result.rewards[g],
      advantages: result.advantages[g],
      coefficients: result.coefficients[g],
    }));
    const rollouts: RobotRollout[] = episodes.map((e, k) => {
      const g = Math.floor(k / G);
      const i = k % G;
      return {
        group: g,
        index: i,
        taskId: e.taskId,
        instruction: flat[k].task.instruction,
        initialIndex: starts[g].index,
        anchor: plan.isAnchor[g],
        states: e.states,
        actions: e.actions,
        tokens: tokens[k],
        progressFrames: picked[k],
        progress: progress ? progress[k] : null,
        success: e.success,
        s: progress ? s[g][i] : null,
        reward: result.rewards[g][i],
        advantage: result.advantages[g][i],
        coefficient: result.coefficients[g][i],
      };
    });
    const nonZero = coefficients.filter((x) => x !== 0).length;
    this.stepsDone++;
    const fields = methodStepFields({ run: c.name, step, plan, method: this.method, scored: result, worldModelCalled: progress !== null, update });
    const record: RobotStepRecord = {
      run: fields.run,
      step: fields.step,
      groups,
      anchorGroups: fields.anchorGroups,
      anchorsSoFar: fields.anchorsSoFar,
      groupsSoFar: fields.groupsSoFar,
      progressModelCalled: progress !== null,
      successRate: episodes.filter((e) => e.success).length / episodes.length,
      meanReward: fields.meanReward,
      meanRealReward: fields.meanRealReward,
      meanWmReward: fields.meanWmReward,
      fusion: fields.fusion,
      calibration: fields.calibration,
      zeroSpreadFraction: fields.zeroSpreadFraction,
      update: fields.update,
      batch: { sequences: nonZero, distinct: nonZero === 0 ? 0 : batch.B, rolloutSteps, normalizer },
      ms: { rollouts: tRollouts - t0, progress: tProgress - tRollouts, update: tUpdate - tProgress, wall: now() - t0 },
    };
    return { record, rollouts };
  }

  /** Steps until config.steps, or until shouldStop() says so between steps. */
  async run(onStep: (r: RobotStepResult) => void | Promise<void>, shouldStop: () => boolean = () => false): Promise<void> {
    while (!this.done && !shouldStop()) await onStep(await this.step());
  }
}
