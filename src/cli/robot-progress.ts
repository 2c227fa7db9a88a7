// Trains the robot domain's progress model (issue 24's Robometer analogue) and measures it on held-out
// rollouts: the project's transformer reads [bos] instruction [sep] 144 frame-patch tokens and its
// score head is trained (squared error) towards the expert's progress label of the frame. Bounded: a
// fixed number of optimiser steps on the CPU engine. Prints a JSON report; with --out, writes the
// report and the checkpoint (frame tokenizer in its meta).
//
//   npx tsx src/cli/robot-progress.ts --steps 300 --states 8 --out results/robot-progress

import { exitOnInputError, InputError, parseFlags, positiveInt } from './cli-input.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FrameTokenizer } from '../embodied/frame-tokens.ts';
import { progressEpisodes, type ProgressEpisode } from '../embodied/progress-data.ts';
import { renderScene } from '../embodied/renderer.ts';
import { denseReward } from '../embodied/shaping.ts';
import { ALL_TASKS, HELDOUT_TASKS, TRAIN_TASKS } from '../embodied/tasks.ts';
import { CpuEngine } from '../engine/cpu/cpu-engine.ts';
import { saveCheckpoint } from '../model/checkpoint.ts';
import { namedConfig } from '../model/config.ts';
import { createModel, type Model } from '../model/init.ts';
import { exportWorldModel } from '../model/onnx/export.ts';
import { WorldModelRunner } from '../engine/onnx/world-model-runner.ts';
import { Tokenizer } from '../model/tokenizer.ts';
import { pearson, rocAuc, spearman } from '../pipeline/rank-metrics.ts';
import { trainSteps } from '../pipeline/train-steps.ts';
import { deriveSeed, mulberry32 } from '../primitives/random.ts';

const NOISES = [0, 0.3, 0.6, 0.9];

const USAGE = `usage: npx tsx src/cli/robot-progress.ts [options]
  --steps N            optimiser steps (default 300)
  --states N           training initial states a task the labelled episodes start from (default 8)
  --heldout-states N   held-out initial states a task the measurement reads (default 4)
  --batch N            sequences a step (default 16)
  --lr X               peak learning rate (default 1e-3)
  --seed N             seed (default 1)
  --threads N          CPU threads of the engine (default 1)
  --out DIR            write the report and the checkpoint there (without it: the report on stdout only)
  --help               this list`;

exitOnInputError('robot-progress');
const { values } = parseFlags({
  options: {
    steps: { type: 'string', default: '300' },
    states: { type: 'string', default: '8' },
    'heldout-states': { type: 'string', default: '4' },
    batch: { type: 'string', default: '16' },
    lr: { type: 'string', default: '1e-3' },
    seed: { type: 'string', default: '1' },
    threads: { type: 'string', default: '1' },
    out: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const int = (name: string, v: string | undefined): number => positiveInt(v, `--${name}`);
const steps = int('steps', values.steps);
const states = int('states', values.states);
const heldoutStates = int('heldout-states', values['heldout-states']);
const batchSize = int('batch', values.batch);
const seed = int('seed', values.seed);
const threads = int('threads', values.threads);
const peakLr = Number(values.lr);
if (!(peakLr > 0)) throw new InputError(`--lr must be positive, got ${values.lr}`);

const t0 = performance.now();
const seconds = () => Math.round((performance.now() - t0) / 1000);
const train = progressEpisodes(TRAIN_TASKS, 'train', states, NOISES);
const heldoutStatesSet = progressEpisodes(TRAIN_TASKS, 'heldout', heldoutStates, NOISES);
const heldoutTasksSet = progressEpisodes(HELDOUT_TASKS, 'heldout', heldoutStates, NOISES);
console.error(`episodes: train ${train.length}, held-out states ${heldoutStatesSet.length}, held-out tasks ${heldoutTasksSet.length} (${seconds()} s)`);

const tokenizer = FrameTokenizer.build(ALL_TASKS.map((t) => t.instruction), train.flatMap((e) => e.frames.map(renderScene)));
const sequences = (eps: readonly ProgressEpisode[]) => eps.flatMap((e) => e.frames.map((f) => tokenizer.encode(e.task.instruction, renderScene(f))));
const trainSeqs = sequences(train);
const trainLabels = train.flatMap((e) => e.labels);
const longest = Math.max(...trainSeqs.map((s) => s.tokens.length), ...sequences(heldoutTasksSet).map((s) => s.tokens.length));
const config = namedConfig('mini', { vocabSize: tokenizer.vocabSize, contextLength: 8 * Math.ceil(longest / 8) });
const init = createModel(config, mulberry32(deriveSeed(seed, 1)));
console.error(`frames: ${trainSeqs.length} training, vocabulary ${tokenizer.vocabSize} (${tokenizer.patches.length} patches), context ${config.contextLength}`);

const engine = CpuEngine.fromModel(init, { numThreads: threads });
let model: Model;
const curve: { step: number; loss: number }[] = [];
try {
  await trainSteps(
    engine,
    trainSeqs.map((s) => ({ tokens: s.tokens, programStart: s.frameStart })),
    (idx) => ({ kind: 'wm', targets: idx.map((i) => trainLabels[i]), loss: 'mse' }),
    { steps, batchSize, peakLr, warmup: Math.max(1, Math.round(steps / 20)), weightDecay: 0.01, maxGradNorm: 1 },
    mulberry32(deriveSeed(seed, 2)),
    ({ step, loss }) => {
      curve.push({ step, loss });
      if (step % 25 === 0 || step === steps) console.error(`step ${step}/${steps} mse ${loss.toFixed(4)} (${seconds()} s)`);
    },
  );
  model = { ...init, params: await engine.getWeights() };
} finally {
  await engine.dispose();
}
const trainSeconds = seconds();

// The runner scores token sequences directly; its text tokenizer is never used for them.
const runner = await WorldModelRunner.create(exportWorldModel(model, 'initializers'), new Tokenizer([]), config, { prefer: 'wasm', numThreads: threads });
async function evaluate(eps: readonly ProgressEpisode[]) {
  const seqs = sequences(eps).map((s) => s.tokens);
  const pred: number[] = [];
  for (let i = 0; i < seqs.length; i += 64) pred.push(...(await runner.scoreSequences(seqs.slice(i, i + 64))).scores);
  const labels = eps.flatMap((e) => e.labels);
  const success = eps.map((e) => e.episode.success);
  const dense = eps.map((_, k) => denseReward(pred.slice(k * 8, k * 8 + 8).map((p) => Math.min(1, Math.max(0, p))), 'delta'));
  const denseFromLabels = eps.map((e) => denseReward(e.labels, 'delta'));
  return {
    episodes: eps.length,
    successes: success.filter(Boolean).length,
    frames: labels.length,
    framePearson: pearson(labels, pred),
    frameSpearman: spearman(labels, pred),
    frameMae: labels.reduce((a, y, i) => a + Math.abs(y - pred[i]), 0) / labels.length,
    /** AUC of the dense reward (delta of the model's 8 scores) for success: the anchor it will be calibrated to */
    denseAucForSuccess: rocAuc(dense, success),
    denseSpearmanWithSuccess: spearman(dense, success.map((s) => (s ? 1 : 0))),
    /** the same from the expert's labels: the ceiling a perfect progress model reaches */
    labelDenseAucForSuccess: rocAuc(denseFromLabels, success),
  };
}
const report = {
  what: 'robot progress model: transformer over [bos] instruction [sep] 144 frame-patch tokens, score head trained (mse) towards the expert progress label',
  config,
  training: { steps, batchSize, peakLr, seed, states, noises: NOISES, frames: trainSeqs.length, episodes: train.length, seconds: trainSeconds, firstLoss: curve[0]?.loss, lastLoss: curve[curve.length - 1]?.loss, lossLast20: curve.slice(-20).reduce((a, c) => a + c.loss, 0) / Math.min(20, curve.length) },
  trainFrames: await evaluate(train.slice(0, 80)),
  heldoutStates: await evaluate(heldoutStatesSet),
  heldoutTasks: await evaluate(heldoutTasksSet),
  seconds: seconds(),
  machine: '2-core shared VM, busy, no GPU',
};
await runner.release();
console.log(JSON.stringify(report, null, 2));
if (values.out) {
  mkdirSync(values.out, { recursive: true });
  writeFileSync(join(values.out, 'report.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(join(values.out, 'progress-model.ckpt'), new Uint8Array(saveCheckpoint(model, null, { frameTokenizer: tokenizer.toJSON(), kind: 'robot-progress' })));
}
