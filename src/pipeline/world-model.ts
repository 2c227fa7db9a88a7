// Stage 5: the world model. Same architecture and tokenizer as the policy, initialised from the SFT
// weights, trained with the 'wm' objective (squared error, or cross-entropy, of the sigmoid score head against y),
// then frozen. Validation is leave-tasks-out: a model trained without some training tasks predicts
// the programs of those tasks; predictions come from the exported ONNX model (the artefact the
// app runs), not from the training graph.

import { CpuEngine } from '../engine/cpu/cpu-engine.ts';
import type { Objective } from '../engine/policy-engine.ts';
import type { Model } from '../model/init.ts';
import type { WorldModelLossKind } from '../model/losses.ts';
import { exportWorldModel } from '../model/onnx/export.ts';
import { WorldModelRunner } from '../engine/onnx/world-model-runner.ts';
import type { Tokenizer } from '../model/tokenizer.ts';
import type { Rng } from '../primitives/random.ts';
import { deriveSeed, mulberry32, sampleIndices } from '../primitives/random.ts';
import { groupedPairBatches } from './batches.ts';
import { meanAbsoluteError, pairwiseAccuracy, spearman } from './rank-metrics.ts';
import { trainSteps, type TrainStepsOptions } from './train-steps.ts';
import type { WmExample } from './wm-data.ts';
import { worldModelReport, type WmReport } from './wm-report.ts';

export interface WmTrainOptions extends TrainStepsOptions {
  seed: number;
  /**
   * 'mse' (default) or 'bce', both minimised by E[y] = P(run) x E[score | it runs]; or 'pairwise',
   * 'mse' plus pairWeight x a logistic loss on same-task pairs of programs that ran
   * (src/model/pairwise-rank-loss.ts), on batches of rowsPerTask programs per task
   */
  loss?: WorldModelLossKind;
  /** lambda of the 'pairwise' loss (default 1) */
  pairWeight?: number;
  /**
   * Batches of batchSize / rowsPerTask tasks x rowsPerTask programs (groupedPairBatches) instead of
   * length-grouped ones that mix tasks; default 4 with the 'pairwise' loss, off otherwise.
   */
  rowsPerTask?: number;
  /**
   * What the score head is trained towards: the percentile y (default), or 'task-centred', y minus its
   * task's mean plus the overall mean (clamped to [0, 1]). GRPO only uses the ranking inside a group,
   * which is one task, and a held-out task's level cannot be read from its card anyway; centring
   * spends none of the model on it.
   */
  target?: 'task-centred';
  /** wasm threads for onnxruntime-web */
  threads?: number;
  log?: (line: string) => void;
}

export interface WmTrainResult {
  model: Model;
  curve: { step: number; loss: number }[];
  seconds: number;
  truncated: number;
}

/** [bos] card [sep] program [eos], cut at the context length (as the runner does when scoring). */
export function wmSequence(tokenizer: Tokenizer, e: Pick<WmExample, 'card' | 'program'>, contextLength: number): { tokens: number[]; programStart: number; truncated: boolean } {
  const s = tokenizer.encodeSequence(e.card, e.program);
  if (s.tokens.length <= contextLength) return { ...s, truncated: false };
  return { tokens: s.tokens.slice(0, contextLength), programStart: Math.min(s.programStart, contextLength), truncated: true };
}

export async function trainWorldModel(init: Model, tokenizer: Tokenizer, examples: readonly WmExample[], options: WmTrainOptions): Promise<WmTrainResult> {
  if (examples.length === 0) throw new Error('world model: no examples');
  const log = options.log ?? (() => {});
  const engine = CpuEngine.fromModel(init, { numThreads: options.threads });
  const seqs = examples.map((e) => wmSequence(tokenizer, e, init.config.contextLength));
  const rng = mulberry32(deriveSeed(options.seed, 3));
  const curve: { step: number; loss: number }[] = [];
  const t0 = performance.now();
  try {
    const targets = options.target === 'task-centred' ? taskCentredTargets(examples) : examples.map((e) => e.y);
    const loss = options.loss ?? 'mse';
    const objective = worldModelObjective(examples, targets, options);
    const rowsPerTask = options.rowsPerTask ?? (loss === 'pairwise' ? 4 : undefined);
    const lengths = seqs.map((s) => s.tokens.length);
    const taskIds = examples.map((e) => e.taskId);
    const epochBatches = rowsPerTask ? (r: Rng) => groupedPairBatches(taskIds, lengths, options.batchSize, rowsPerTask, r) : undefined;
    await trainSteps(engine, seqs, objective, { ...options, epochBatches }, rng, ({ step, loss: value }) => {
      curve.push({ step, loss: value });
      if (step % 10 === 1 || step === options.steps) log(`wm step ${step}/${options.steps} ${loss} loss ${value.toFixed(4)} ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    });
    return { model: { ...init, params: await engine.getWeights() }, curve, seconds: (performance.now() - t0) / 1000, truncated: seqs.filter((s) => s.truncated).length };
  } finally {
    await engine.dispose();
  }
}

/**
 * The objective of a batch of example indices: the targets, the loss, and for 'pairwise' each row's
 * task and whether it ran (a failure enters no pair), weighted by pairWeight (default 1).
 */
export function worldModelObjective(examples: readonly Pick<WmExample, 'taskId' | 'y' | 'valid'>[], targets: readonly number[], options: Pick<WmTrainOptions, 'loss' | 'pairWeight'>): (idx: readonly number[]) => Objective {
  const loss = options.loss ?? 'mse';
  return (idx) => ({
    kind: 'wm',
    targets: idx.map((i) => targets[i]),
    loss,
    ...(loss === 'pairwise'
      ? { ranking: { groups: idx.map((i) => examples[i].taskId), ran: idx.map((i) => examples[i].valid ?? examples[i].y > 0), weight: options.pairWeight ?? 1 } }
      : {}),
  });
}

/** y - mean of its task's y + mean of all y, clamped to [0, 1]. */
export function taskCentredTargets(examples: readonly Pick<WmExample, 'taskId' | 'y'>[]): number[] {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const e of examples) {
    const s = sums.get(e.taskId) ?? { sum: 0, n: 0 };
    s.sum += e.y;
    s.n++;
    sums.set(e.taskId, s);
  }
  const overall = examples.reduce((a, e) => a + e.y, 0) / Math.max(1, examples.length);
  return examples.map((e) => {
    const s = sums.get(e.taskId)!;
    return Math.min(1, Math.max(0, e.y - s.sum / s.n + overall));
  });
}

/** Scores with the exported ONNX world model on the wasm backend. */
export async function predictWithExport(model: Model, tokenizer: Tokenizer, examples: readonly Pick<WmExample, 'card' | 'program'>[], threads?: number): Promise<Float32Array> {
  const runner = await WorldModelRunner.create(exportWorldModel(model, 'initializers'), tokenizer, model.config, { prefer: 'wasm', numThreads: threads });
  const out = new Float32Array(examples.length);
  try {
    // Bounded calls: at most 64 sequences per score call.
    for (let s = 0; s < examples.length; s += 64) {
      const r = await runner.score(examples.slice(s, s + 64).map((e) => ({ card: e.card, program: e.program })));
      out.set(r.scores, s);
    }
  } finally {
    await runner.release();
  }
  return out;
}

export interface WmValidation {
  heldOutTasks: string[];
  population: 'policy samples' | 'reference programs';
  report: WmReport;
  examples: number;
  spearman: number;
  /** mean over held-out tasks of the within-task Spearman */
  spearmanWithinTask: number;
  pairwiseAccuracy: number;
  pairs: number;
  mae: number;
  /** MAE of predicting the training mean of y for everything, for scale */
  maeConstant: number;
  trainSeconds: number;
}

export function validationFigures(truth: readonly number[], pred: readonly number[], group: readonly string[], trainMean: number): Omit<WmValidation, 'heldOutTasks' | 'trainSeconds' | 'population' | 'report'> {
  const tasks = [...new Set(group)];
  const within = tasks.map((t) => {
    const idx = group.map((g, i) => (g === t ? i : -1)).filter((i) => i >= 0);
    return spearman(idx.map((i) => truth[i]), idx.map((i) => pred[i]));
  });
  const pw = pairwiseAccuracy(truth, pred, group);
  return {
    examples: truth.length,
    spearman: spearman(truth, pred),
    spearmanWithinTask: within.reduce((a, b) => a + b, 0) / Math.max(1, within.length),
    pairwiseAccuracy: pw.accuracy,
    pairs: pw.pairs,
    mae: meanAbsoluteError(truth, pred),
    maeConstant: meanAbsoluteError(truth, truth.map(() => trainMean)),
  };
}

/** Seeded choice of k tasks to hold out, from the tasks present in the examples. */
export function chooseHeldOutTasks(examples: readonly WmExample[], k: number, seed: number): string[] {
  const tasks = [...new Set(examples.map((e) => e.taskId))].sort();
  return sampleIndices(mulberry32(deriveSeed(seed, 4)), tasks.length, Math.min(k, tasks.length)).map((i) => tasks[i]);
}

export async function validateLeaveTasksOut(init: Model, tokenizer: Tokenizer, examples: readonly WmExample[], heldOut: readonly string[], options: WmTrainOptions): Promise<WmValidation> {
  const out = new Set(heldOut);
  const train = examples.filter((e) => !out.has(e.taskId));
  // Scored on the held-out tasks' policy samples where there are any (the population the world
  // model serves); reference programs, whose texts depend only on task type and metric, otherwise.
  const outs = examples.filter((e) => out.has(e.taskId));
  const test = outs.some((e) => e.origin === 'sample') ? outs.filter((e) => e.origin === 'sample') : outs;
  if (train.length === 0 || test.length === 0) throw new Error('leave-tasks-out: empty side');
  const trained = await trainWorldModel(init, tokenizer, train, options);
  const pred = Array.from(await predictWithExport(trained.model, tokenizer, test, options.threads));
  const trainMean = train.reduce((a, e) => a + e.y, 0) / train.length;
  return {
    heldOutTasks: [...heldOut],
    population: test[0].origin === 'sample' ? 'policy samples' : 'reference programs',
    ...validationFigures(test.map((e) => e.y), pred, test.map((e) => e.taskId), trainMean),
    report: worldModelReport(test.map((e, i) => ({ taskId: e.taskId, valid: e.valid ?? e.y > 0, y: e.y, predicted: pred[i] }))),
    trainSeconds: trained.seconds,
  };
}
