// Test fixtures for the training loop in Node: a tiny random policy on the real CPU engine, a tiny
// real world-model forward (the TypeScript reference score head), a fixed task list, and an
// executor that is a TEST FIXTURE: it never runs the sampled programs (untrusted text must not run
// in Pyodide-in-Node); it grades a deterministic score computed in TypeScript from the program text.
import { CpuEngine } from '../../../src/engine/cpu/cpu-engine.ts';
import { namedConfig } from '../../../src/model/config.ts';
import { createModel, type Model } from '../../../src/model/init.ts';
import { worldModelScores } from '../../../src/model/losses.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import type { Tokenizer } from '../../../src/model/tokenizer.ts';
import { trainTokenizer } from '../../../src/model/tokenizer-training.ts';
import { hashString } from '../../../src/primitives/random.ts';
import { PolicyHost } from '../../../src/workers/policy-host.ts';
import type {
  ExecutionRequest, ExecutionResult, ExecutorPort, MedalName, PolicyPort, PolicyUpdateRequest, ScorePair, StaticCheck, TaskSource, TaskView, VerifierPort, WorldModelPort,
} from '../../../src/training/ports.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';
import type { TrainerConfig } from '../../../src/training/trainer.ts';

export const TASKS: TaskView[] = [
  { id: 'task_a', card: 'Regression. Metric: RMSE.' },
  { id: 'task_b', card: 'Binary classification. Metric: AUC.' },
  { id: 'task_c', card: 'Multiclass. Metric: accuracy.' },
  { id: 'task_d', card: 'Regression. Metric: RMSLE.' },
  { id: 'task_e', card: 'Binary classification. Metric: F1.' },
];
export const HELD_OUT: TaskView[] = [
  { id: 'held_x', card: 'Regression. Metric: RMSE. Rows: 300.' },
  { id: 'held_y', card: 'Binary classification. Rows: 900.' },
];

const TEXTS = [
  ...TASKS.map((t) => t.card),
  ...HELD_OUT.map((t) => t.card),
  'from toolkit import load_task, models\ntrain, test = load_task()\nmodel = models.Ridge(alpha=1.0)\nmodel.fit(train)\n',
  'model = models.RandomForest(n_trees=20, max_depth=6)\npredictions = model.predict(test)\n',
];

let cachedTokenizer: Tokenizer | null = null;
export function testTokenizer(): Tokenizer {
  return (cachedTokenizer ??= trainTokenizer(TEXTS, { vocabSize: 300, minPairCount: 2 }));
}

export function tinyPolicyModel(seed: number): Model {
  const tok = testTokenizer();
  return createModel(namedConfig('tiny', { vocabSize: tok.vocabSize, contextLength: 48 }), mulberry32(seed));
}

export async function cpuPolicy(seed: number): Promise<PolicyHost> {
  return PolicyHost.create(CpuEngine.fromModel(tinyPolicyModel(seed)), testTokenizer(), {});
}

/** A policy port that records every update request before passing it on. */
export class RecordingPolicy implements PolicyPort {
  readonly updates: PolicyUpdateRequest[] = [];
  constructor(readonly inner: PolicyHost) {}
  get backend(): string {
    return this.inner.backend;
  }
  sample: PolicyPort['sample'] = (r, o) => this.inner.sample(r, o);
  update: PolicyPort['update'] = (req) => {
    this.updates.push(req);
    return this.inner.update(req);
  };
  getWeights: PolicyPort['getWeights'] = () => this.inner.getWeights();
  setWeights: PolicyPort['setWeights'] = (w) => this.inner.setWeights(w);
}

/** The fixture's true score of a program: a hash of its text mapped to [0, 1); every 5th hash fails. */
export function fixtureScore(taskId: string, program: string): { score: number; ok: boolean; medal: MedalName | null } {
  const h = hashString(`${taskId}\u0000${program}`);
  if (h % 5 === 0) return { score: 0, ok: false, medal: null };
  const score = (h % 1000) / 1000;
  return { score, ok: true, medal: score >= 0.9 ? 'gold' : score >= 0.8 ? 'bronze' : null };
}

export const FIXTURE_BUSY_MS = 7;
/** each execution's interpreter start-up, ms */
export const FIXTURE_START_MS = 3;

/** TEST FIXTURE executor: grades fixtureScore, never executes anything. */
export class FixtureExecutor implements ExecutorPort {
  readonly calls: ExecutionRequest[][] = [];
  async run(requests: readonly ExecutionRequest[]): Promise<ExecutionResult[]> {
    this.calls.push([...requests]);
    return requests.map((r, i) => {
      const f = fixtureScore(r.taskId, r.program);
      return { score: f.score, status: f.ok ? 'ok' : 'error', medal: f.medal, busyMs: FIXTURE_BUSY_MS, startMs: FIXTURE_START_MS, workerId: i % 2 };
    });
  }
  get executed(): number {
    return this.calls.reduce((a, c) => a + c.length, 0);
  }
}

/** A real world-model forward: the reference score head of a tiny random model. */
export class TinyWorldModel implements WorldModelPort {
  readonly backend = 'reference (TypeScript)';
  readonly calls: number[] = [];
  private readonly model: Model;
  constructor(seed: number) {
    this.model = tinyPolicyModel(seed);
  }
  async score(pairs: readonly ScorePair[]): Promise<{ scores: number[]; forwards: number; busyMs: number }> {
    const t0 = performance.now();
    this.calls.push(pairs.length);
    const tok = testTokenizer();
    const T = this.model.config.contextLength;
    const seqs = pairs.map((p) => ({ ...tok.encodeSequence(p.card, p.program) })).map((s) => ({ tokens: s.tokens.slice(0, T), programStart: Math.min(s.programStart, T - 1) }));
    const scores = Array.from(worldModelScores(this.model, makeSequenceBatch(seqs)));
    return { scores, forwards: 1, busyMs: performance.now() - t0 };
  }
}

export const FIXTURE_VERIFIER_MS = 5;

/** TEST FIXTURE verifier: rejects every program of odd length, and records what it was asked. */
export class FixtureVerifier implements VerifierPort {
  readonly calls: string[][] = [];
  static passes(program: string): boolean {
    return program.length % 2 === 0;
  }
  async check(programs: readonly string[]): Promise<{ results: StaticCheck[]; busyMs: number }> {
    this.calls.push([...programs]);
    return { results: programs.map((p) => (FixtureVerifier.passes(p) ? { ok: true } : { ok: false, reason: 'odd length' })), busyMs: FIXTURE_VERIFIER_MS };
  }
}

export class FixedTasks implements TaskSource {
  async trainingTasks(): Promise<TaskView[]> {
    return TASKS;
  }
  async heldOutTasks(): Promise<TaskView[]> {
    return HELD_OUT;
  }
}

export function testConfig(overrides: Partial<TrainerConfig> = {}): TrainerConfig {
  return {
    name: 'test',
    seed: 7,
    steps: 3,
    groupsPerStep: 3,
    groupSize: 2,
    rho: 0.5,
    advantageMode: 'mean',
    debias: true,
    fusion: 'ivw',
    sampling: { maxNewTokens: 12, temperature: 1, topK: 0 },
    lr: 1e-2,
    weightDecay: 0,
    maxGradNorm: 1,
    epochs: 1,
    clipEpsilon: 0.2,
    klBeta: 0,
    ...overrides,
  };
}
