// The WMRL training loop (method.md 3), one `step()` read top to bottom:
//
//   1. draw B training tasks (seeded)            5. score: rewards, advantages, fusion coefficients
//   2. sample a group of n programs per task     6. build the RL batch, Z = token budget constant
//   3. plan the anchor groups (MethodState.plan) 7. policy update
//   4. world-model scores for every group and,   8. emit a StepRecord (diagnostics and cost)
//      at the same time, real runs of the anchors
//
// The step math (calibration, advantages, fusion) is MethodState's; this file only moves data
// between the ports (ports.ts) and keeps the books. Two special cases of the same loop:
//   rho = 1: all-real GRPO. Every group is executed; the world model is never called, so no forwards
//            are charged. MethodState still needs an s for every group: it gets y in its place, and
//            the record reports no world-model numbers for such a step.
//   rho = 0: world-model only. Nothing is executed; rewards are raw or identity-calibrated s.
//
// Randomness: every draw is derived from (seed, stream, step, ...) with deriveSeed, so the step
// counter is the whole generator state and a resumed run draws exactly what the uninterrupted run
// would have drawn.

import type { AdvantageMode } from '../wmrl/advantages.ts';
import type { AnchorWeightConfig } from '../wmrl/anchor-weight.ts';
import type { PerStepAnchors } from '../wmrl/anchors.ts';
import type { BinnedCalibratorConfig } from '../wmrl/binned-isotonic.ts';
import { realReward, type RewardRule } from './execution-rung.ts';
import { addCosts, CostMeter, emptyCost, type CostSheet } from './cost.ts';
import type { FusionMode } from '../wmrl/fusion.ts';
import { MethodState, type MethodConfig, type MethodSnapshot } from '../wmrl/step.ts';
import { deriveSeed, mulberry32, sampleIndices, shuffleInPlace } from '../primitives/random.ts';
import { unreadableScores, type WorldModelReading } from '../wmrl/unreadable-world-model.ts';
import type { BiasNoiseEstimate } from '../wmrl/theory.ts';
import type {
  ExecutionResult, ExecutionStatus, ExecutorPort, PolicyPort, PolicyWeights, SamplingOptions, StaticCheck, TaskSource, TaskView,
  VerifierPort, WorldModelPort,
} from './ports.ts';
import { countUnscored, isScored } from './ports.ts';
import { methodStepFields, type FusionRecord, type MethodStepFields } from './method-step-fields.ts';
import { makeSequenceBatch } from '../model/sequence-batch.ts';
import { rejectedMessage } from './static-checks.ts';
import { anchorShareConflict } from './anchor-share.ts';
import { AnchorSchedule } from '../wmrl/anchors.ts';
import { meanOrNull as mean } from '../primitives/mean.ts';

export interface TrainerConfig {
  /** A label for the run (preset name). */
  name: string;
  seed: number;
  /** Steps the run is meant to take (run() stops there). */
  steps: number;
  /** B: groups (training tasks) per step. */
  groupsPerStep: number;
  /** n: programs per group (>= 2). */
  groupSize: number;
  /** Fraction of groups executed for real; 1 = all-real GRPO, 0 = world-model only. */
  rho: number;
  advantageMode: AdvantageMode;
  /** Online isotonic calibration of world-model scores. */
  debias: boolean;
  /** 'ivw' = denoising (inverse-variance fusion), 'none' = every group weighs the same, 'ppi' = PPI++. */
  fusion: FusionMode;
  /** EMA rate of r and the PPI moments (default 0.1). */
  emaRate?: number;
  /** Calibrator half-life in steps; undefined: every anchor pair weighs the same. */
  halfLife?: number;
  sampling: SamplingOptions;
  lr: number;
  weightDecay: number;
  maxGradNorm: number;
  /** Inner epochs over one step's batch; > 1 turns on PPO ratio clipping with clipEpsilon. */
  epochs: number;
  clipEpsilon: number;
  /** KL penalty to the SFT policy; 0 = off (the default in method.md). */
  klBeta: number;
  /** 'shuffled': the claim-5 control, world-model scores permuted across the step (unreadable-world-model.ts). Default 'program'. */
  worldModelReading?: WorldModelReading;
  /**
   * wmrl-static (its compile check is the authors' gate, its keyword check beyond it): a program the free verifier rejects (it does not compile, or a
   * toolkit constructor does not take a keyword it is given) gets reward 0 without being scored or
   * run. Needs ports.verifier. The same as wmGate 'verifier'.
   */
  staticCheck?: boolean;
  /**
   * A gate before the world model (absent: none). 'compile' (the authors'): an empty program or one
   * that does not compile gets reward 0 on world-model groups without a model call; anchor groups
   * run every program anyway and pair the gate's s = 0 with the real reward. 'verifier': staticCheck.
   */
  wmGate?: 'compile' | 'verifier';
  /** Real reward: the leaderboard percentile (absent, ours) or the authors' ladder. */
  reward?: RewardRule;
  /** The authors' binned calibrator instead of PAVA on every point (absent: PAVA). */
  binnedCalibrator?: BinnedCalibratorConfig;
  /** Constants of fusion 'anchor-weight' (the authors' denoising). */
  anchorWeight?: AnchorWeightConfig;
  /** The authors' per-step anchor rule instead of the accumulator at rho (absent: the accumulator). */
  perStepAnchors?: PerStepAnchors;
  /**
   * The anchors-only control: a step draws its B tasks and plans its anchors as a mixed run would, then
   * samples, runs and learns from the anchor groups alone; the world model is never called. The other
   * groups are not sampled: every program's seed derives from (seed, step, group, index), so sampling
   * them and dropping them would give the same update, only slower.
   */
  anchorsOnly?: boolean;
  /**
   * What scores the programs in the world model's place (absent: the world model). 'lookup': the family x
   * task-type lookup wm-eval reports (the paper-wmrl-lookup control); the page supplies it as the
   * world-model port, and everything after the scores (gate, calibrator, fusion) is unchanged.
   */
  scorer?: 'lookup';
}

/** The gate a config asks for ('none' without one). */
export function gateOf(c: Pick<TrainerConfig, 'wmGate' | 'staticCheck'>): 'none' | 'compile' | 'verifier' {
  return c.wmGate ?? (c.staticCheck ? 'verifier' : 'none');
}

/** Independent random streams, so e.g. changing n does not change which tasks are drawn. */
const STREAM = { tasks: 1, programs: 2, unreadable: 3 } as const;

export function validateTrainerConfig(c: TrainerConfig): void {
  const fail = (m: string): never => {
    throw new RangeError(`trainer config: ${m}`);
  };
  if (!Number.isInteger(c.seed)) fail(`seed must be an integer, got ${c.seed}`);
  if (!(Number.isInteger(c.steps) && c.steps >= 0)) fail(`steps must be a non-negative integer, got ${c.steps}`);
  if (!(Number.isInteger(c.groupsPerStep) && c.groupsPerStep >= 1)) fail(`groupsPerStep (B) must be a positive integer, got ${c.groupsPerStep}`);
  if (!(Number.isInteger(c.groupSize) && c.groupSize >= 2)) fail(`groupSize (n) must be an integer >= 2, got ${c.groupSize}`);
  if (!(c.rho >= 0 && c.rho <= 1)) fail(`rho must lie in [0, 1], got ${c.rho}`);
  if (!(Number.isInteger(c.sampling.maxNewTokens) && c.sampling.maxNewTokens >= 1)) fail(`sampling.maxNewTokens must be a positive integer`);
  if (!(c.lr > 0)) fail(`lr must be positive, got ${c.lr}`);
  if (!(Number.isInteger(c.epochs) && c.epochs >= 1)) fail(`epochs must be a positive integer, got ${c.epochs}`);
  if (c.epochs > 1 && !(c.clipEpsilon > 0)) fail('more than one epoch needs a positive clipEpsilon');
  if (!(c.klBeta >= 0)) fail(`klBeta must be >= 0, got ${c.klBeta}`);
  if (c.staticCheck !== undefined && typeof c.staticCheck !== 'boolean') fail(`staticCheck must be true or false, got ${String(c.staticCheck)}`);
  if (c.worldModelReading !== undefined && c.worldModelReading !== 'program' && c.worldModelReading !== 'shuffled') {
    fail(`worldModelReading must be 'program' or 'shuffled', got ${String(c.worldModelReading)}`);
  }
  if (c.wmGate !== undefined && c.wmGate !== 'compile' && c.wmGate !== 'verifier') fail(`wmGate must be 'compile' or 'verifier', got ${String(c.wmGate)}`);
  if (c.wmGate === 'compile' && c.staticCheck) fail("wmGate 'compile' and staticCheck ask for two different gates");
  if (c.reward !== undefined && c.reward !== 'percentile' && c.reward !== 'ladder') fail(`reward must be 'percentile' or 'ladder', got ${String(c.reward)}`);
  if (c.fusion === 'anchor-weight' && !c.anchorWeight) fail("fusion 'anchor-weight' needs anchorWeight constants");
  if (c.binnedCalibrator && c.halfLife !== undefined) fail('halfLife applies to the PAVA calibrator only, not to the binned one');
  const conflict = anchorShareConflict(c);
  if (conflict) fail(conflict);
  if (c.scorer !== undefined && c.scorer !== 'lookup') fail(`scorer must be 'lookup' or absent (the world model), got ${String(c.scorer)}`);
  if (c.scorer && (c.rho >= 1 || c.anchorsOnly)) fail('a scorer in the world model\'s place needs a run that asks the world model (rho < 1, not anchors-only)');
  if (c.anchorsOnly !== undefined && typeof c.anchorsOnly !== 'boolean') fail(`anchorsOnly must be true or false, got ${String(c.anchorsOnly)}`);
  if (c.anchorsOnly) {
    if (!(c.rho > 0 && c.rho < 1)) fail(`anchorsOnly keeps the anchor groups of a mixed run, so rho must lie in (0, 1), got ${c.rho}`);
    if (c.debias || c.fusion !== 'none' || c.worldModelReading === 'shuffled') fail('anchorsOnly has no world-model stream to calibrate, weigh or shuffle: debias off, fusion none');
  }
}

/**
 * Z: the token budget of one step, constant for the run (method.md 3.6). An anchors-only run keeps the
 * budget of the B x n programs its mixed twin samples, so its anchor group enters the loss token for token
 * as it does there (AdamW makes a constant factor on the loss nearly irrelevant either way).
 */
export function tokenBudget(c: TrainerConfig): number {
  return c.groupsPerStep * c.groupSize * c.sampling.maxNewTokens;
}

/** The method switches of a config: what MethodState needs, in any domain (the robot loop uses them too). */
export type MethodSwitches = Pick<TrainerConfig, 'rho' | 'seed' | 'advantageMode' | 'debias' | 'fusion' | 'emaRate' | 'anchorWeight' | 'halfLife' | 'binnedCalibrator' | 'perStepAnchors'>;

export function methodConfigOf(c: MethodSwitches & Pick<TrainerConfig, 'anchorsOnly'>): MethodConfig {
  // Anchors-only: the trainer keeps only the anchor groups, so the method sees an all-real step.
  if (c.anchorsOnly) return methodConfigOf({ ...c, anchorsOnly: false, rho: 1, perStepAnchors: undefined });
  return {
    rho: c.rho,
    seed: c.seed,
    advantageMode: c.advantageMode,
    debias: c.debias,
    fusion: { mode: c.fusion, emaRate: c.emaRate, ...(c.anchorWeight ? { anchorWeight: c.anchorWeight } : {}) },
    halfLife: c.halfLife,
    ...(c.binnedCalibrator ? { binned: c.binnedCalibrator } : {}),
    ...(c.perStepAnchors ? { perStepAnchors: c.perStepAnchors } : {}),
  };
}

/** The authors' gate on one program: why it stops it (empty, or the verifier says it does not compile), or null. */
export function compileGateVerdict(program: string, check: StaticCheck): string | null {
  if (program.trim() === '') return 'empty program';
  return !check.ok && (check.reason ?? '').startsWith('does not compile') ? check.reason! : null;
}

/** B tasks for a step: distinct while the pool allows, then a fresh shuffled pass (seeded). */
export function drawTasks<T>(pool: readonly T[], count: number, seed: number): T[] {
  if (pool.length === 0) throw new Error('trainer: no training tasks');
  const rng = mulberry32(seed);
  const out: T[] = [];
  while (out.length < count) {
    const take = Math.min(pool.length, count - out.length);
    const picked = sampleIndices(rng, pool.length, take).map((i) => pool[i]);
    out.push(...shuffleInPlace(rng, picked));
  }
  return out;
}

/** Everything the loop knows about one group after the step. */
export interface GroupRecord {
  taskId: string;
  anchor: boolean;
  programs: string[];
  /** Program tokens sampled (eos included) per program. */
  programTokens: number[];
  stopped: boolean[];
  /** Raw world-model scores s; null when the world model was not called (rho = 1). */
  wmScores: number[] | null;
  /** World-model rewards g(s) (or s with debiasing off); null when not called. */
  wmRewards: number[] | null;
  /** Real rewards y under the run's rule (percentile or ladder); null for world-model groups. */
  realScores: number[] | null;
  statuses: ExecutionStatus[] | null;
  /** Why each executed program failed (the error's last lines, or the static check's reason); null where it ran. Absent in older records. */
  messages?: (string | null)[] | null;
  /** The gate's verdict on each program where a gate ran: null where it passed, else why it stopped it. Absent without a gate. */
  gate?: (string | null)[];
  rewards: number[];
  advantages: number[];
  coefficients: number[];
}

export interface StepRecord extends MethodStepFields {
  groups: GroupRecord[];
  worldModelCalled: boolean;
  /** Calibrated world-model reward against the real score on this step's anchors (out of sample). */
  realVsWm: { pairs: number; meanAbsError: number | null; meanError: number | null };
  /** The fusion of the two advantage streams this step (the fields both loops record). */
  fusion: FusionRecord;
  /** Bias and noise of the world-model gradient, measured on anchors (method.md 4); null without world model. */
  theory: BiasNoiseEstimate | null;
  wmZeroSpreadFraction: number;
  executions: number;
  /** Executions that gave no verdict (the sandbox's backstop fired twice): left out of the update; absent when none. */
  unscored?: number;
  /** Programs the gate before the world model stopped this step (reward 0, not scored; with the verifier gate not run either); absent without a gate. */
  gateRejected?: number;
  /** Share of scored executed programs that ran and wrote valid predictions; null without any. */
  validRunRate: number | null;
  /** Sequences and masked tokens that entered the update; Z its normaliser. */
  batch: { sequences: number; programTokens: number; normalizer: number };
  cost: CostSheet;
  cumulativeCost: CostSheet;
  wallMs: number;
}

export interface TrainerPorts {
  policy: PolicyPort;
  worldModel: WorldModelPort;
  executor: ExecutorPort;
  tasks: TaskSource;
  /** The free verifier, for configs with staticCheck. */
  verifier?: VerifierPort;
}

/** A run between steps: enough to resume it exactly (structured-clone safe; weights are a Float32Array). */
export interface TrainerCheckpoint {
  format: 'wmrl-trainer';
  version: 1;
  config: TrainerConfig;
  /** Steps done; also the generator state, since every draw derives from (seed, step). */
  step: number;
  method: MethodSnapshot;
  policy: PolicyWeights;
  cost: CostSheet;
}


const now = (): number => performance.now();

/** The world model's scores of some programs (`idx`) as one score per program, 0 for the others. */
function scatterScores(total: number, idx: readonly number[], r: { scores: number[]; forwards: number; busyMs: number } | null): { scores: number[]; forwards: number; busyMs: number } {
  const scores = new Array<number>(total).fill(0);
  idx.forEach((j, k) => (scores[j] = r!.scores[k]));
  return { scores, forwards: r?.forwards ?? 0, busyMs: r?.busyMs ?? 0 };
}

/** Results for the anchor programs `order`: the real run where one ran (`ran`, for `idx`), the verifier's rejection otherwise. */
function spreadRuns(order: readonly number[], idx: readonly number[], ran: readonly ExecutionResult[], reason: (j: number) => string | undefined): ExecutionResult[] {
  const byProgram = new Map(idx.map((j, k) => [j, ran[k]]));
  return order.map((j) => byProgram.get(j) ?? { score: 0, status: 'error', medal: null, busyMs: 0, startMs: 0, workerId: -1, message: rejectedMessage(reason(j)) });
}

export class Trainer {
  readonly config: TrainerConfig;
  private readonly ports: TrainerPorts;
  private method: MethodState;
  private stepsDone: number;
  private cost: CostSheet;
  private taskPool: TaskView[] | null = null;
  /** Anchors-only: which drawn groups a mixed run would execute (a pure function of seed, step and B). */
  private keeper: AnchorSchedule | null;

  constructor(config: TrainerConfig, ports: TrainerPorts) {
    validateTrainerConfig(config);
    this.config = structuredClone(config);
    this.ports = ports;
    this.method = new MethodState(methodConfigOf(config));
    this.keeper = config.anchorsOnly ? new AnchorSchedule(config.rho, config.seed, config.perStepAnchors) : null;
    this.stepsDone = 0;
    this.cost = emptyCost();
  }

  /** A trainer that continues a checkpointed run: policy weights and optimiser state are restored. */
  static async resume(checkpoint: TrainerCheckpoint, ports: TrainerPorts): Promise<Trainer> {
    if (checkpoint.format !== 'wmrl-trainer' || checkpoint.version !== 1) throw new Error('trainer: not a trainer checkpoint of version 1');
    const t = new Trainer(checkpoint.config, ports);
    t.method = MethodState.restore(checkpoint.method);
    t.stepsDone = checkpoint.step;
    for (let k = 0; k < checkpoint.step; k++) t.keeper?.next(t.config.groupsPerStep); // B is constant, so this replays the schedule
    t.cost = structuredClone(checkpoint.cost);
    await ports.policy.setWeights(checkpoint.policy);
    return t;
  }

  async checkpoint(): Promise<TrainerCheckpoint> {
    return {
      format: 'wmrl-trainer',
      version: 1,
      config: structuredClone(this.config),
      step: this.stepsDone,
      method: this.method.snapshot(),
      policy: await this.ports.policy.getWeights(),
      cost: structuredClone(this.cost),
    };
  }

  /** Steps done so far (the index of the next step). */
  get stepsTaken(): number {
    return this.stepsDone;
  }

  get done(): boolean {
    return this.stepsDone >= this.config.steps;
  }

  /** Busy and wall time of every step so far. */
  get totalCost(): CostSheet {
    return structuredClone(this.cost);
  }

  async step(): Promise<StepRecord> {
    const c = this.config;
    const { policy, worldModel, executor } = this.ports;
    const t0 = now();
    const meter = new CostMeter();
    const step = this.stepsDone;
    const B = c.groupsPerStep;
    const n = c.groupSize;

    // 1. Draw B training tasks (anchors-only: keep the groups a mixed run would execute).
    this.taskPool ??= await this.ports.tasks.trainingTasks();
    const drawn = drawTasks(this.taskPool, B, deriveSeed(c.seed, STREAM.tasks, step));
    const kept = this.keeper ? this.keeper.next(B).anchors : drawn.map((_, g) => g);
    const tasks = kept.map((g) => drawn[g]);

    // 2. Sample a group of n programs per task, one seeded generator per program (seeded by the drawn group's index).
    const requests = tasks.flatMap((t, k) => Array.from({ length: n }, (_, i) => ({ card: t.card, seed: deriveSeed(c.seed, STREAM.programs, step, kept[k], i) })));
    const sampled = await policy.sample(requests, c.sampling);
    meter.charge('policySampling', sampled.busyMs);
    meter.count('programsSampled', requests.length);
    const group = <T>(flat: readonly T[], g: number): T[] => flat.slice(g * n, (g + 1) * n);
    const programs = sampled.samples.map((s) => s.program);

    // 2b. The gate before the world model. 'verifier' (wmrl-static): a program the free verifier
    //     rejects is neither scored nor run. 'compile' (the authors'): one that is empty or does not
    //     compile is not scored; on anchor groups it still runs.
    const gate = gateOf(c);
    let checks: StaticCheck[] | null = null;
    if (gate !== 'none') {
      if (!this.ports.verifier) throw new Error(`trainer: the ${gate} gate needs a verifier port`);
      const v = await this.ports.verifier.check(programs);
      if (v.results.length !== programs.length) throw new Error(`trainer: verifier returned ${v.results.length} answers for ${programs.length} programs`);
      meter.charge('verifier', v.busyMs);
      checks = gate === 'verifier' ? v.results : v.results.map((r, j) => {
        const stop = compileGateVerdict(programs[j], r);
        return stop === null ? { ok: true } : { ok: false, reason: stop };
      });
    }
    const passes = (j: number) => checks === null || checks[j].ok;

    // 3. Anchor plan: which groups run for real.
    const plan = this.method.plan(tasks.length);

    // 4. World-model scores for every group and real runs of the anchor groups, concurrently.
    const callWorldModel = this.method.config.rho < 1;
    const all = programs.map((_, j) => j);
    const anchorPrograms = plan.anchors.flatMap((g) => group(all, g));
    const toRun = gate === 'compile' ? anchorPrograms : anchorPrograms.filter(passes);
    const toScore = all.filter(passes);
    const [scoredPassing, ranPassing] = await Promise.all([
      callWorldModel && toScore.length > 0 ? worldModel.score(toScore.map((j) => ({ card: requests[j].card, program: programs[j] }))) : Promise.resolve(null),
      toRun.length > 0 ? executor.run(toRun.map((j) => ({ taskId: tasks[Math.floor(j / n)].id, program: programs[j] }))) : Promise.resolve([] as ExecutionResult[]),
    ]);
    if (scoredPassing && scoredPassing.scores.length !== toScore.length) throw new Error(`trainer: world model returned ${scoredPassing.scores.length} scores for ${toScore.length} programs`);
    if (ranPassing.length !== toRun.length) throw new Error(`trainer: executor returned ${ranPassing.length} results for ${toRun.length} programs`);
    // Back to one entry per program: a rejected one scores 0 and "ran" with the verifier's reason.
    const scoredByWm = callWorldModel ? scatterScores(programs.length, toScore, scoredPassing) : null;
    const runs = spreadRuns(anchorPrograms, toRun, ranPassing, (j) => checks?.[j]?.reason);
    const wm = scoredByWm && c.worldModelReading === 'shuffled'
      ? { ...scoredByWm, scores: unreadableScores(scoredByWm.scores, deriveSeed(c.seed, STREAM.unreadable, step)) }
      : scoredByWm;
    if (wm) {
      meter.charge('worldModel', wm.busyMs);
      meter.count('worldModelScored', toScore.length);
      meter.count('worldModelForwards', wm.forwards);
    }
    for (const r of ranPassing) {
      meter.charge('sandbox', r.busyMs);
      meter.charge('sandboxStart', r.startMs);
    }
    meter.count('executions', ranPassing.length);
    const realByGroup = new Map<number, ExecutionResult[]>();
    plan.anchors.forEach((g, k) => realByGroup.set(g, runs.slice(k * n, (k + 1) * n)));

    // 5. Rewards, advantages, fusion coefficients (MethodState). Without the world model (rho = 1)
    //    every group is an anchor and y stands in for s.
    //    A run that gave no verdict (unscored: the sandbox's backstop, the machine's doing) has no y:
    //    the method leaves it out of its group's update and of the calibrator.
    const rule = c.reward ?? 'percentile';
    const y = tasks.map((_, g) => realByGroup.get(g)?.map((r) => (isScored(r) ? realReward(r, rule) : null)) ?? null);
    const s = tasks.map((_, g) => (wm ? group(wm.scores, g) : (y[g] as (number | null)[]).map((v) => v ?? 0)));
    // Rewards known before either stream: 0 where the gate stopped a program, except on anchor groups
    // under the compile gate, which keep their real reward and pair it with the gate's s = 0.
    const known = checks && tasks.map((_, g) => (gate === 'compile' && plan.isAnchor[g] ? null : group(checks!, g).map((x) => (x.ok ? null : 0))));
    const scored = this.method.score(s, y, known ?? undefined);

    // 6. The RL batch: [bos] card [sep] program [eos], program tokens masked in, Z constant.
    const batch = makeSequenceBatch(sampled.samples.map((x) => ({ tokens: [...x.promptTokens, ...x.programTokens], programStart: x.promptTokens.length })));
    const coefficients = scored.coefficients.flat();
    const normalizer = tokenBudget(c);

    // 7. Policy update.
    const update = await policy.update({
      batch,
      coefficients,
      normalizer,
      lr: c.lr,
      weightDecay: c.weightDecay,
      maxGradNorm: c.maxGradNorm,
      epochs: c.epochs,
      clipEpsilon: c.epochs > 1 ? c.clipEpsilon : undefined,
      klBeta: c.klBeta > 0 ? c.klBeta : undefined,
    });
    meter.charge('policyUpdate', update.busyMs);
    meter.count('updates', c.epochs);

    // 8. The record.
    const groups: GroupRecord[] = tasks.map((t, g) => {
      const real = realByGroup.get(g) ?? null;
      return {
        taskId: t.id,
        anchor: plan.isAnchor[g],
        programs: group(programs, g),
        programTokens: group(sampled.samples, g).map((x) => x.programTokens.length),
        stopped: group(sampled.samples, g).map((x) => x.stopped),
        wmScores: wm ? group(wm.scores, g) : null,
        wmRewards: wm ? scored.wmRewards[g] : null,
        realScores: y[g] && y[g]!.map((v) => v ?? 0),
        statuses: real ? real.map((r) => r.status) : null,
        messages: real ? real.map((r) => (r.status === 'ok' ? null : r.message ?? null)) : null,
        ...(checks ? { gate: group(checks, g).map((k) => (k.ok ? null : k.reason ?? 'stopped')) } : {}),
        rewards: scored.rewards[g],
        advantages: scored.advantages[g],
        coefficients: scored.coefficients[g],
      };
    });
    const errors: number[] = [];
    if (wm) for (const g of plan.anchors) scored.wmRewards[g].forEach((r, i) => {
      const yi = y[g]![i];
      if (yi !== null) errors.push(r - yi);
    });
    const unscored = countUnscored(runs);
    const d = scored.diagnostics;
    meter.wall(now() - t0);
    const cost = meter.result();
    this.cost = addCosts(this.cost, cost);
    this.stepsDone++;
    const fields = methodStepFields({ run: c.name, step, plan, method: this.method, scored, worldModelCalled: wm !== null, update });
    return {
      run: fields.run,
      step: fields.step,
      groups,
      anchorGroups: fields.anchorGroups,
      anchorsSoFar: fields.anchorsSoFar,
      groupsSoFar: fields.groupsSoFar,
      worldModelCalled: wm !== null,
      meanReward: fields.meanReward,
      meanRealReward: fields.meanRealReward,
      meanWmReward: fields.meanWmReward,
      realVsWm: { pairs: errors.length, meanAbsError: mean(errors.map(Math.abs)), meanError: mean(errors) },
      fusion: fields.fusion,
      theory: wm ? scored.theory : null,
      calibration: fields.calibration,
      zeroSpreadFraction: fields.zeroSpreadFraction,
      wmZeroSpreadFraction: d.wmZeroSpreadFraction,
      executions: ranPassing.length,
      ...(unscored > 0 ? { unscored } : {}),
      ...(checks ? { gateRejected: checks.filter((k) => !k.ok).length } : {}),
      validRunRate: runs.length === unscored ? null : runs.filter((r) => r.status === 'ok').length / (runs.length - unscored),
      update,
      batch: { sequences: batch.B, programTokens: batch.lossMask.reduce((a, m) => a + m, 0), normalizer },
      cost,
      cumulativeCost: structuredClone(this.cost),
      wallMs: cost.wallMs,
    };
  }

  /** Steps until config.steps, or until shouldStop() says so between steps. */
  async run(onStep: (r: StepRecord) => void | Promise<void>, shouldStop: () => boolean = () => false): Promise<void> {
    while (!this.done && !shouldStop()) await onStep(await this.step());
  }
}

