// Behaviour cloning of the robot policy (issue 24's SFT row) on the project's transformer, then its
// success measured by rollouts: the model reads [bos] instruction [sep] 144 frame-patch tokens and
// its next token is the action (SFT loss on that token only). Evaluation samples one token a step
// with the CPU engine's decoder; a token that is not an action is a step that does nothing.
// Bounded: a fixed number of optimiser steps. Prints a JSON report; with --out, writes the report
// and the checkpoint (frame tokenizer in its meta).
//
//   npx tsx src/cli/robot-bc.ts --steps 600 --states 16 --out results/robot-bc

import { positiveIntFlag } from './cli-input.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FrameTokenizer, actionOfToken, actionToken } from '../embodied/frame-tokens.ts';
import { expertAction } from '../embodied/expert.ts';
import { initialScene, type StateSplit } from '../embodied/layout.ts';
import { SparseFrameTokens } from '../embodied/sparse-frame-tokens.ts';
import { behaviourCloningExamples } from '../embodied/policy-data.ts';
import { renderScene } from '../embodied/renderer.ts';
import { runEpisodes, type Episode } from '../embodied/rollout.ts';
import { ALL_TASKS, HELDOUT_TASKS, TRAIN_TASKS, type RobotTask } from '../embodied/tasks.ts';
import { CpuEngine } from '../engine/cpu/cpu-engine.ts';
import { saveCheckpoint } from '../model/checkpoint.ts';
import { namedConfig } from '../model/config.ts';
import { createModel } from '../model/init.ts';
import { trainSteps } from '../pipeline/train-steps.ts';
import { deriveSeed, mulberry32 } from '../primitives/random.ts';

const NOISES = [0.1, 0.3];

const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: '600' },
    states: { type: 'string', default: '16' },
    'eval-states': { type: 'string', default: '3' },
    batch: { type: 'string', default: '16' },
    lr: { type: 'string', default: '1e-3' },
    temperature: { type: 'string', default: '0' },
    /** 'dense': 144 patch tokens a frame; 'sparse': (column, row, patch) of the cells that are not bare */
    encoding: { type: 'string', default: 'dense' },
    seed: { type: 'string', default: '1' },
    threads: { type: 'string', default: '1' },
    out: { type: 'string' },
  },
});
const int = positiveIntFlag;
const steps = int('steps', values.steps);
const states = int('states', values.states);
const evalStates = int('eval-states', values['eval-states']);
const batchSize = int('batch', values.batch);
const seed = int('seed', values.seed);
const threads = int('threads', values.threads);
const peakLr = Number(values.lr);
const temperature = Number(values.temperature);
if (!(peakLr > 0)) throw new Error(`--lr must be positive, got ${values.lr}`);
if (!(temperature >= 0)) throw new Error(`--temperature must be >= 0, got ${values.temperature}`);
const encoding = values.encoding;
if (encoding !== 'dense' && encoding !== 'sparse') throw new Error(`--encoding must be dense or sparse, got ${encoding}`);

const t0 = performance.now();
const seconds = () => Math.round((performance.now() - t0) / 1000);
const examples = behaviourCloningExamples(TRAIN_TASKS, 'train', states, NOISES);
const frames = examples.map((e) => renderScene(e.state));
const frameTokenizer = FrameTokenizer.build(ALL_TASKS.map((t) => t.instruction), frames);
const tokenizer = encoding === 'sparse' ? new SparseFrameTokens(frameTokenizer) : frameTokenizer;
const seqs = examples.map((e, i) => {
  const { tokens } = tokenizer.encode(e.task.instruction, frames[i]);
  // The action is the one token the loss sees.
  return { tokens: [...tokens, actionToken(e.action)], programStart: tokens.length };
});
// A sparse frame has as many cells as are not bare: a rollout can show up to 4 more than any training
// frame did (the gripper off its usual cells, the drawer out), so leave room for 4 more cells.
const longest = Math.max(...seqs.map((s) => s.tokens.length), ...HELDOUT_TASKS.map((t) => tokenizer.encode(t.instruction, frames[0]).tokens.length + 1)) + (encoding === 'sparse' ? 12 : 0);
const config = namedConfig('mini', { vocabSize: tokenizer.vocabSize, contextLength: 8 * Math.ceil(longest / 8) });
console.error(`examples ${examples.length} (${seconds()} s), vocabulary ${tokenizer.vocabSize}, context ${config.contextLength}`);

const init = createModel(config, mulberry32(deriveSeed(seed, 1)));
const engine = CpuEngine.fromModel(init, { numThreads: threads });
const curve: { step: number; loss: number }[] = [];
try {
  await trainSteps(engine, seqs, () => ({ kind: 'sft' }), { steps, batchSize, peakLr, warmup: Math.max(1, Math.round(steps / 20)), weightDecay: 0.01, maxGradNorm: 1 },
    mulberry32(deriveSeed(seed, 2)), ({ step, loss }) => {
      curve.push({ step, loss });
      if (step % 25 === 0 || step === steps) console.error(`step ${step}/${steps} loss ${loss.toFixed(4)} (${seconds()} s)`);
    });
  const trainSeconds = seconds();

  let nonActions = 0;
  let actionsTaken = 0;
  async function rollouts(tasks: readonly RobotTask[], split: StateSplit): Promise<{ episodes: number; successes: number; rate: number; meanSteps: number; expertAgreement: number; byTask: Record<string, string> }> {
    // How often the policy's action is the expert's in the scenes the policy itself reaches.
    let agree = 0;
    let asked = 0;
    const starts = tasks.flatMap((task) => Array.from({ length: evalStates }, (_, i) => ({ task, initial: initialScene(task, split, i) })));
    let call = 0;
    const eps: Episode[] = await runEpisodes(starts, async (items) => {
      call++;
      const prompts = items.map(({ task, state }) => tokenizer.encode(task.instruction, renderScene(state)).tokens);
      const out = await engine.sample(prompts, { maxNewTokens: 1, temperature, rngs: items.map((_, k) => mulberry32(deriveSeed(seed, 7, call, k))) });
      return out.map((o, k) => {
        actionsTaken++;
        const a = actionOfToken(o.tokens[0]);
        asked++;
        if (a === expertAction(items[k].task, items[k].state)) agree++;
        if (a === null) nonActions++;
        // A token that is not an action does nothing: 'release' with an empty gripper, or drops a block.
        return a ?? 'release';
      });
    });
    const byTask: Record<string, string> = {};
    for (const task of tasks) {
      const mine = eps.filter((e) => e.taskId === task.id);
      byTask[task.id] = `${mine.filter((e) => e.success).length}/${mine.length}`;
    }
    const successes = eps.filter((e) => e.success).length;
    return { episodes: eps.length, successes, rate: successes / eps.length, meanSteps: eps.reduce((a, e) => a + e.actions.length, 0) / eps.length, expertAgreement: agree / asked, byTask };
  }
  const report = {
    what: 'robot behaviour-cloning policy: transformer over [bos] instruction [sep] 144 frame-patch tokens, next token the action; SFT on the expert action at every scene of noisy demonstrations',
    config,
    training: { steps, batchSize, peakLr, seed, states, noises: NOISES, examples: examples.length, seconds: trainSeconds, firstLoss: curve[0]?.loss, lossLast20: curve.slice(-20).reduce((a, c) => a + c.loss, 0) / Math.min(20, curve.length) },
    evaluation: { temperature, statesPerTask: evalStates },
    encoding,
    trainTasksTrainStates: await rollouts(TRAIN_TASKS, 'train'),
    trainTasksHeldoutStates: await rollouts(TRAIN_TASKS, 'heldout'),
    heldoutTasksHeldoutStates: await rollouts(HELDOUT_TASKS, 'heldout'),
    nonActionTokens: { count: nonActions, of: actionsTaken },
    seconds: seconds(),
    machine: '2-core shared VM, busy, no GPU',
  };
  console.log(JSON.stringify(report, null, 2));
  if (values.out) {
    mkdirSync(values.out, { recursive: true });
    writeFileSync(join(values.out, 'report.json'), JSON.stringify(report, null, 2) + '\n');
    writeFileSync(join(values.out, 'policy.ckpt'), new Uint8Array(saveCheckpoint({ ...init, params: await engine.getWeights() }, null, { frameTokenizer: frameTokenizer.toJSON(), encoding, kind: 'robot-bc-policy' })));
  }
} finally {
  await engine.dispose();
}
