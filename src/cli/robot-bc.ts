// Behaviour cloning of the robot policy (issue 24's SFT row) on the project's transformer, then its
// success measured by rollouts: the model reads [bos] instruction [sep] frame tokens and its next
// token is the action (SFT loss on that token only; src/embodied/policy-model.ts builds both the
// training sequence and the rollout prompt, which ends in a read-out [sep]). Evaluation decodes one token a step with the CPU
// engine's decoder; a token that is not an action is a step that does nothing.
//
// With --dagger R, R rounds follow the first training: the policy runs from the training states, every
// scene it reaches that the data lacks is labelled with the expert's action there, and training goes on
// over the grown data for --dagger-steps steps. Bounded: a fixed number of optimiser steps in all.
// Prints a JSON report; with --out, writes the report and the checkpoint (frame tokenizer in its meta).
//
//   npx tsx src/cli/robot-bc.ts --encoding egocentric --octants --states 16 --steps 3000 --out results/robot-bc
//
// --diagnose CKPT trains nothing: it runs the diagnoses of src/embodied/policy-diagnosis.ts on the
// checkpoint (greedy first moves, its own sampled rollouts' scenes against demonstrations, whether its
// action follows the instruction; robot-bc-diagnosis.ts), prints a summary and writes the JSON report to
// --out FILE (stdout without it). Only --threads goes with it.
//
//   npx tsx src/cli/robot-bc.ts --diagnose results/robot-bc/policy.ckpt --out results/robot-bc/diagnosis-policy.json

import { exitOnInputError, InputError, optionalPositiveInt, parseFlags, positiveInt } from './cli-input.ts';
import { diagnoseCheckpoint, diagnosisSummary, readCheckpointFile } from './robot-bc-diagnosis.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CELL_LEADS, EgocentricFrameTokens, type CellLead } from '../embodied/egocentric-frame-tokens.ts';
import { expertAction } from '../embodied/expert.ts';
import { FrameTokenizer, actionOfToken } from '../embodied/frame-tokens.ts';
import { applyAction } from '../embodied/kinematics.ts';
import { initialScene, type StateSplit } from '../embodied/layout.ts';
import { behaviourCloningExamples, exampleKey, expertRelabelled, shortestPathActions, withOtherInstructions, withShortestPathTargets, type PolicyExample } from '../embodied/policy-data.ts';
import { modelPolicy, policySequence, type PolicyFrameTokens } from '../embodied/policy-model.ts';
import { renderScene } from '../embodied/renderer.ts';
import { runEpisodes } from '../embodied/rollout.ts';
import { sceneKey } from '../embodied/scene.ts';
import { SparseFrameTokens } from '../embodied/sparse-frame-tokens.ts';
import { ALL_TASKS, HELDOUT_TASKS, TRAIN_TASKS, taskById, type RobotTask } from '../embodied/tasks.ts';
import { CpuEngine } from '../engine/cpu/cpu-engine.ts';
import { loadCheckpoint, saveCheckpoint } from '../model/checkpoint.ts';
import { CONFIG_NAMES, namedConfig, type ConfigName } from '../model/config.ts';
import { createModel } from '../model/init.ts';
import { trainSteps } from '../pipeline/train-steps.ts';
import { deriveSeed, mulberry32 } from '../primitives/random.ts';

const NOISES = [0.1, 0.3];

const USAGE = `usage: npx tsx src/cli/robot-bc.ts [options]
       npx tsx src/cli/robot-bc.ts --diagnose CKPT [--out FILE] [--threads N]
  --steps N               optimiser steps (default 600; 0 with --from only evaluates)
  --states N              training initial states a task the demonstrations start from (default 16)
  --eval-states N         held-out initial states a task in the evaluation (default 3)
  --batch N               sequences a step (default 16)
  --lr X                  peak learning rate (default 1e-3)
  --temperature T         rollout temperature in DAgger and the evaluation; 0 is greedy (default 0)
  --encoding E            frames as dense, sparse or egocentric tokens (default dense)
  --octants               egocentric only: each cell's token also says on which side of the gripper it lies
  --lead L                with --octants, what leads each cell's sided token: none, patch or centre (default none)
  --model NAME            the transformer configuration: ${CONFIG_NAMES.join(', ')} (default mini)
  --layers N, --heads N   overrides of the configuration (default 0: its own)
  --from CKPT             go on from this checkpoint (its tokenizer, encoding and configuration)
  --dagger R              DAgger rounds after the first training (default 0)
  --dagger-states N       training states a task the DAgger rollouts start from (default 8)
  --dagger-steps N        optimiser steps a DAgger round (default 500)
  --targets T             expert (its action at each scene) or shortest (every shortest-path action) (default expert)
  --other-instructions K  each scene again under K other tasks' instructions, with their expert's action (default 0)
  --seed N                seed (default 1)
  --threads N             CPU threads of the engine (default 1)
  --out DIR               write the report and the checkpoint there (with --diagnose: the report's file)
  --diagnose CKPT         train nothing: diagnose this checkpoint (robot-bc-diagnosis.ts)
  --help                  this list`;

exitOnInputError('robot-bc');
const { values, tokens } = parseFlags({
  tokens: true,
  options: {
    steps: { type: 'string', default: '600' },
    states: { type: 'string', default: '16' },
    'eval-states': { type: 'string', default: '3' },
    batch: { type: 'string', default: '16' },
    lr: { type: 'string', default: '1e-3' },
    temperature: { type: 'string', default: '0' },
    /** 'dense': 144 patch tokens a frame; 'sparse': (column, row, patch) of the cells that are not bare; 'egocentric': the same cells as offsets from the gripper */
    encoding: { type: 'string', default: 'dense' },
    /** egocentric only: each patch token also says on which side of the gripper its cell lies */
    octants: { type: 'boolean', default: false },
    /** with --octants, what leads each cell's sided token: none, patch (its plain patch token) or centre (its centre's colour); egocentric-frame-tokens.ts */
    lead: { type: 'string', default: 'none' },
    /** the project's named transformer configuration */
    model: { type: 'string', default: 'mini' },
    /** overrides of the named configuration (0: keep its own) */
    layers: { type: 'string', default: '0' },
    heads: { type: 'string', default: '0' },
    /** continue from this checkpoint (its frame tokenizer, encoding and configuration); --steps 0 only evaluates it */
    from: { type: 'string' },
    dagger: { type: 'string', default: '0' },
    /** training states per task the DAgger rollouts start from (the first ones) */
    'dagger-states': { type: 'string', default: '8' },
    'dagger-steps': { type: 'string', default: '500' },
    /** 'expert': the expert's action at each scene; 'shortest': every shortest-path action there (policy-data.ts) */
    targets: { type: 'string', default: 'expert' },
    /** each demonstration scene again under this many other training tasks' instructions, with their expert's action (policy-data.ts) */
    'other-instructions': { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    threads: { type: 'string', default: '1' },
    /** a directory (training); with --diagnose, the report's file */
    out: { type: 'string' },
    /** diagnose this checkpoint instead of training (robot-bc-diagnosis.ts) */
    diagnose: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (values.diagnose !== undefined) {
  try {
    const extra = tokens.filter((t) => t.kind === 'option' && !['diagnose', 'out', 'threads'].includes(t.name)).map((t) => `--${(t as { name: string }).name}`);
    if (extra.length > 0) throw new InputError(`--diagnose trains nothing and takes only --out and --threads, not ${extra.join(', ')}`);
    const report = await diagnoseCheckpoint(values.diagnose, optionalPositiveInt(values.threads, '--threads') ?? 1, (line) => console.error(line));
    for (const line of diagnosisSummary(report)) console.error(line);
    if (values.out) writeFileSync(values.out, JSON.stringify(report, null, 2) + '\n');
    else console.log(JSON.stringify(report, null, 2));
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    console.error(`robot-bc --diagnose: ${e.message}`);
    process.exit(2);
  }
  process.exit(0);
}
const int = (name: string, v: string | undefined): number => positiveInt(v, `--${name}`);
const nonNegative = (name: string, v: string) => (v === '0' ? 0 : int(name, v));
const steps = nonNegative('steps', values.steps);
const states = int('states', values.states);
const evalStates = int('eval-states', values['eval-states']);
const batchSize = int('batch', values.batch);
const seed = int('seed', values.seed);
const threads = int('threads', values.threads);
const daggerRounds = nonNegative('dagger', values.dagger);
const daggerSteps = int('dagger-steps', values['dagger-steps']);
const daggerStates = int('dagger-states', values['dagger-states']);
const peakLr = Number(values.lr);
const temperature = Number(values.temperature);
if (!(peakLr > 0)) throw new InputError(`--lr must be positive, got ${values.lr}`);
if (!(temperature >= 0)) throw new InputError(`--temperature must be >= 0, got ${values.temperature}`);
if (!(CONFIG_NAMES as readonly string[]).includes(values.model)) throw new InputError(`--model must be one of ${CONFIG_NAMES.join(', ')}, got ${values.model}`);
const from = values.from === undefined ? null : readCheckpointFile(values.from, loadCheckpoint);
if (from && from.meta.kind !== 'robot-bc-policy') throw new InputError(`${values.from} is not a robot behaviour-cloning policy checkpoint`);
if (from === null && steps === 0) throw new InputError('--steps 0 needs --from (there is nothing to evaluate)');
const encoding = from ? String(from.meta.encoding) : values.encoding;
const octants = from ? from.meta.octants === true : values.octants;
const lead = (from ? from.meta.lead ?? 'none' : values.lead) as CellLead;
if (!CELL_LEADS.includes(lead)) throw new InputError(`--lead must be one of ${CELL_LEADS.join(', ')}, got ${String(lead)}`);
if (encoding !== 'dense' && encoding !== 'sparse' && encoding !== 'egocentric') throw new InputError(`--encoding must be dense, sparse or egocentric, got ${encoding}`);
if (octants && encoding !== 'egocentric') throw new InputError('--octants needs --encoding egocentric');
if (lead !== 'none' && !octants) throw new InputError('--lead needs --octants');
if (values.targets !== 'expert' && values.targets !== 'shortest') throw new InputError(`--targets must be expert or shortest, got ${values.targets}`);
const otherInstructions = nonNegative('other-instructions', values['other-instructions']);
const relabelRng = mulberry32(deriveSeed(seed, 17));
const targetsOf = (xs: readonly PolicyExample[]): PolicyExample[] => {
  const relabelled = otherInstructions > 0 ? withOtherInstructions(xs, TRAIN_TASKS, otherInstructions, relabelRng) : [...xs];
  return values.targets === 'shortest' ? withShortestPathTargets(relabelled) : relabelled;
};

const t0 = performance.now();
const seconds = () => Math.round((performance.now() - t0) / 1000);
const examples: PolicyExample[] = behaviourCloningExamples(TRAIN_TASKS, 'train', states, NOISES);
const frameTokenizer = from ? FrameTokenizer.fromJSON(from.meta.frameTokenizer) : FrameTokenizer.build(ALL_TASKS.map((t) => t.instruction), examples.map((e) => renderScene(e.state)));
const tokenizer: PolicyFrameTokens = encoding === 'sparse' ? new SparseFrameTokens(frameTokenizer) : encoding === 'egocentric' ? new EgocentricFrameTokens(frameTokenizer, octants, lead) : frameTokenizer;
// `examples` keeps one entry per scene under its own instruction (what DAgger and the teacher-forced
// check count); the sequences carry the targets: also under other instructions with
// --other-instructions, one per shortest-path action with --targets shortest.
const seqs = targetsOf(examples).map((e) => policySequence(tokenizer, e));
// A frame lists as many cells as are not bare: a rollout can show up to 4 more than any training
// frame did (the gripper off its usual cells, the drawer out), so leave room for 4 more cells.
const spare = encoding === 'dense' ? 0 : 4 * (lead === 'none' ? 3 : 4);
const longest = Math.max(...seqs.map((s) => s.tokens.length), ...HELDOUT_TASKS.map((task) => policySequence(tokenizer, { ...examples[0], task }).tokens.length)) + spare;
const sizes = { ...(values.layers !== '0' ? { nLayers: int('layers', values.layers) } : {}), ...(values.heads !== '0' ? { nHeads: int('heads', values.heads) } : {}) };
const config = from ? from.model.config : namedConfig(values.model as ConfigName, { vocabSize: tokenizer.vocabSize, contextLength: 8 * Math.ceil(longest / 8), ...sizes });
if (from && longest - spare > config.contextLength) throw new InputError(`the examples need ${longest} tokens, the checkpoint's context is ${config.contextLength}`);
console.error(`examples ${examples.length} (${seconds()} s), vocabulary ${tokenizer.vocabSize}, context ${config.contextLength}`);

const init = from ? from.model : createModel(config, mulberry32(deriveSeed(seed, 1)));
const engine = CpuEngine.fromModel(init, { numThreads: threads });
const curve: { step: number; loss: number }[] = [];
try {
  const train = async (n: number, salt: number) => {
    const done = curve.length;
    await trainSteps(engine, seqs, () => ({ kind: 'sft' }), { steps: n, batchSize, peakLr, warmup: Math.max(1, Math.round(n / 20)), weightDecay: 0.01, maxGradNorm: 1 },
      mulberry32(deriveSeed(seed, 2, salt)), ({ step, loss }) => {
        curve.push({ step: done + step, loss });
        if (step % 100 === 0 || step === n) console.error(`step ${done + step} loss ${loss.toFixed(4)} (${seconds()} s)`);
      });
  };
  if (steps > 0) await train(steps, 0);

  // DAgger: the expert labels the scenes the policy itself reaches from the training states.
  const seen = new Set(examples.map(exampleKey));
  const rounds: { round: number; newExamples: number; successBefore: number; episodes: number }[] = [];
  for (let round = 1; round <= daggerRounds; round++) {
    const starts = TRAIN_TASKS.flatMap((task) => Array.from({ length: Math.min(states, daggerStates) }, (_, i) => ({ task, initial: initialScene(task, 'train', i) })));
    const eps = await runEpisodes(starts, modelPolicy(engine, tokenizer, { temperature, seed: deriveSeed(seed, 11, round) }));
    const added = expertRelabelled(eps.map((e) => ({ task: taskById(e.taskId), states: e.states, actions: e.actions })), seen);
    const fits = added.filter((e) => policySequence(tokenizer, e).tokens.length <= config.contextLength);
    examples.push(...fits);
    seqs.push(...targetsOf(fits).map((e) => policySequence(tokenizer, e)));
    rounds.push({ round, newExamples: fits.length, successBefore: eps.filter((e) => e.success).length, episodes: eps.length });
    console.error(`dagger round ${round}: ${eps.filter((e) => e.success).length}/${eps.length} succeeded, ${fits.length} new examples (${examples.length} in all, ${seconds()} s)`);
    await train(daggerSteps, round);
  }
  const trainSeconds = seconds();

  /** Teacher-forced: how often the rollout's decoder path gives the expert's action on labelled scenes. */
  /** accuracy: the expert's own action; shortestPath: any shortest-path action (the expert's ties included). */
  async function teacherForced(pool: readonly PolicyExample[], n: number, salt: number): Promise<{ examples: number; accuracy: number; shortestPath: number }> {
    const rng = mulberry32(deriveSeed(seed, 13, salt));
    const picked = Array.from({ length: Math.min(n, pool.length) }, () => pool[Math.floor(rng() * pool.length)]);
    const acted = await modelPolicy(engine, tokenizer, { temperature: 0, seed })(picked.map((e, t) => ({ task: e.task, state: e.state, t })));
    return {
      examples: picked.length,
      accuracy: acted.filter((a, i) => a === picked[i].action).length / picked.length,
      shortestPath: acted.filter((a, i) => shortestPathActions(picked[i].task, picked[i].state).includes(a)).length / picked.length,
    };
  }

  let nonActions = 0;
  let actionsTaken = 0;
  async function rollouts(tasks: readonly RobotTask[], split: StateSplit) {
    // How often the policy's action is the expert's in the scenes the policy itself reaches, and how
    // often its action leaves the scene as it was (a greedy policy repeats it there for good).
    let agree = 0;
    let shortest = 0;
    let unchanged = 0;
    let asked = 0;
    const starts = tasks.flatMap((task) => Array.from({ length: evalStates }, (_, i) => ({ task, initial: initialScene(task, split, i) })));
    const eps = await runEpisodes(starts, modelPolicy(engine, tokenizer, {
      temperature,
      seed,
      onAction: (item, token, action) => {
        actionsTaken++;
        asked++;
        if (action === expertAction(item.task, item.state)) agree++;
        if (shortestPathActions(item.task, item.state).includes(action)) shortest++;
        if (sceneKey(applyAction(item.state, action)) === sceneKey(item.state)) unchanged++;
        if (actionOfToken(token) === null) nonActions++;
      },
    }));
    const byTask: Record<string, string> = {};
    for (const task of tasks) {
      const mine = eps.filter((e) => e.taskId === task.id);
      byTask[task.id] = `${mine.filter((e) => e.success).length}/${mine.length}`;
    }
    const successes = eps.filter((e) => e.success).length;
    return {
      episodes: eps.length, distinctInitialStates: new Set(starts.map((s) => `${s.task.id}|${sceneKey(s.initial)}`)).size, successes, rate: successes / eps.length,
      meanSteps: eps.reduce((a, e) => a + e.actions.length, 0) / eps.length, expertAgreement: agree / asked, shortestPathAgreement: shortest / asked, unchangedSceneShare: unchanged / asked, byTask,
    };
  }
  const report = {
    what: `robot behaviour-cloning policy: transformer over [bos] instruction [sep] frame tokens (${encoding}${octants ? ', octants' : ''}${lead === 'none' ? '' : `, cell lead ${lead}`}), next token the action; SFT on the expert action at every scene of noisy demonstrations${daggerRounds > 0 ? ', then DAgger rounds' : ''}`,
    config,
    training: {
      from: values.from ?? null, targets: values.targets, otherInstructions, sequences: seqs.length, steps: curve.length, batchSize, peakLr, seed, states, noises: NOISES, examples: examples.length, dagger: { rounds: daggerRounds, stepsPerRound: daggerSteps, log: rounds },
      seconds: trainSeconds, firstLoss: curve[0]?.loss, lossLast20: curve.slice(-20).reduce((a, c) => a + c.loss, 0) / Math.min(20, curve.length),
    },
    teacherForced: {
      note: 'greedy action from the rollout decoder path on expert-labelled scenes of noisy demonstrations (noise 0.1 and 0.3), each under its own instruction (never an --other-instructions relabelled copy); sampled with replacement',
      trainTasksTrainStates: await teacherForced(examples, 400, 1),
      trainTasksHeldoutStates: await teacherForced(behaviourCloningExamples(TRAIN_TASKS, 'heldout', 2, NOISES), 400, 2),
      heldoutTasksHeldoutStates: await teacherForced(behaviourCloningExamples(HELDOUT_TASKS, 'heldout', 4, NOISES), 400, 3),
    },
    evaluation: { temperature, statesPerTask: evalStates },
    encoding,
    octants,
    lead,
    readout: 'closing [sep] (policy-model.ts)',
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
    writeFileSync(join(values.out, 'policy.ckpt'), new Uint8Array(saveCheckpoint({ ...init, params: await engine.getWeights() }, null, { frameTokenizer: frameTokenizer.toJSON(), encoding, octants, lead, kind: 'robot-bc-policy' })));
  }
} finally {
  await engine.dispose();
}
