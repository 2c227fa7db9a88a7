// npm run experiment -- --domain robot --presets robot-grpo-sparse,robot-wmrl --seeds 1,2 --steps 5
//   [--B 8 --G 4] [--horizon 96] [--eval-states 2] [--eval-temperature 1] [--eval-trials 4] [--lr X] [--dense-reward delta|final|max]
//   [--normalise per-rollout|constant]
//   [--out results/robot-experiment] [--policy results/robot-bc/policy.ckpt] [--progress-model results/robot-progress/progress-model.ckpt]
//   [--threads 1] [--plan robot-table|robot-table-v2] [--force] [--quick]
//
// The robot domain's headless runner (issue 24): Node and the CPU engine, no browser. Per (preset,
// seed) it starts from the committed behaviour-cloning policy, trains (src/embodied/robot-trainer.ts)
// and evaluates on the fixed held-out set (robot-evaluation.ts), by default sampled at temperature 1
// with 4 rollouts per initial state on draws fixed by the seed (the authors sample 8 per state; greedy
// decoding of this policy loops on actions that leave the scene unchanged; --eval-temperature 0 is greedy). Each run writes
// <out>/runs/<preset>-seed<seed>.json; after every run <out>/runs.csv is rewritten from the run files
// on disk. A run whose file exists with the same request is skipped unless --force; a failed run is
// recorded as <preset>-seed<seed>.failed.json and retried next time; the other runs continue. While a
// run trains, its state after every step is saved beside it (<preset>-seed<seed>.unfinished,
// robot-unfinished-run.ts), and a run stopped mid-way (a killed process, a session's end) goes on from
// its last step when the command starts again; its run file is then the uninterrupted run's, timings
// and provenance aside (which lists the segments).

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { readRobotPolicy } from '../embodied/policy-checkpoint.ts';
import { loadProgressModel } from '../embodied/progress-scorer.ts';
import { ROBOT_PRESET_IDS, robotPresetConfig, type RobotPresetId } from '../embodied/robot-presets.ts';
import { isRobotRunResult, runRobot, type RobotRunRequest, type RobotRunResult } from '../embodied/robot-run.ts';
import { robotTokenBudget, type RobotTrainerConfig } from '../embodied/robot-trainer.ts';
import { LOSS_NORMALISATIONS, type LossNormalisation } from '../embodied/rollout-loss-weights.ts';
import { DENSE_REWARD_MODES, type DenseRewardMode } from '../embodied/shaping.ts';
import { CpuEngine } from '../engine/cpu/cpu-engine.ts';
import { formatSource, type RunProvenance, type RunSegment, type WithProvenance } from '../experiments/provenance.ts';
import { ROBOT_TABLE_PLANS, ROBOT_TABLE_V1, robotTableMarkdown, robotTablePlan, robotTableSummary, type RobotTablePlan } from '../experiments/robot-table.ts';
import { sha256Hex } from '../pipeline/manifest.ts';
import { optionalPositiveInt, parseFlags } from './cli-input.ts';
import { refuseNarrowReport } from './report-scope.ts';
import { runFileName } from '../experiments/run-result.ts';
import { readRunJson, writeFileWhole } from './run-files.ts';
import { readUnfinishedRun, UNFINISHED_RUN_FORMAT, writeUnfinishedRun, type UnfinishedRobotRun } from './robot-unfinished-run.ts';
import { unfinishedRunPath } from './unfinished-run.ts';
import { readRunSource, runCodeHash } from './run-source.ts';

export const ROBOT_USAGE = `usage: npm run experiment -- --domain robot [options]
  --presets a,b,c        presets (default robot-sft,robot-grpo-sparse,robot-wmrl; known: ${ROBOT_PRESET_IDS.join(', ')})
  --seeds 1,2,3          seeds (default 1)
  --steps N              training steps per run (default: the preset's)
  --B N --G N            initial states a step, rollouts per state (default 8 and 4)
  --horizon N            actions an episode may take, in training and evaluation (default 96)
  --eval-states K        held-out initial states per task in the evaluation (default 2: 160 training-task and 40 held-out-task rollouts at the default 4 trials; 40 and 10 greedy)
  --eval-temperature T   1 (default): sampled evaluation; 0: greedy (one rollout per state)
  --eval-trials N        rollouts per held-out initial state when sampling (default 4; 1 when greedy)
  --normalise M          ${LOSS_NORMALISATIONS.join(' | ')}: how rollouts weigh in the loss (default: the preset's, per-rollout)
  --lr X                 policy learning rate (default: the preset's)
  --dense-reward M       ${DENSE_REWARD_MODES.join(' | ')} (default delta)
  --policy FILE          starting policy (default results/robot-bc/policy.ckpt)
  --progress-model FILE  frozen progress model (default results/robot-progress/progress-model.ckpt)
  --threads N            onnxruntime threads (default 1)
  --out DIR              output folder (default results/robot-experiment)
  --plan NAME            the table its summary decides: ${ROBOT_TABLE_PLANS.map((p) => p.name).join(' | ')} (default ${ROBOT_TABLE_V1.name}; docs/results.md)
  --force                rerun runs whose result exists, and start unfinished runs over (deletes their .unfinished file)
  --report-only          run nothing: rewrite runs.csv, summary.md and summary.json from the run files on disk
  --quick                tiny check: robot-grpo-sparse and robot-wmrl, seed 1, 2 steps, B 2, G 2, horizon 48, eval-states 1, eval-trials 1`;

export interface RobotExperimentOptions {
  presets: RobotPresetId[];
  seeds: number[];
  overrides: Partial<RobotTrainerConfig>;
  evalStates: number;
  evalTemperature: number;
  evalTrials: number;
  policy: string;
  progressModel: string;
  threads: number;
  out: string;
  force: boolean;
  reportOnly: boolean;
  /** The table plan summary.md and summary.json decide (--plan). */
  plan: RobotTablePlan;
  /** The command that runs the plan, recorded in summary.md (without --report-only). */
  command: string;
}

export class RobotUsageError extends Error {}

const positiveInt = (v: string | undefined, flag: string) => optionalPositiveInt(v, flag, RobotUsageError);

export function parseRobotOptions(argv: string[], root: string): RobotExperimentOptions | 'help' {
  const { values } = parseFlags({
    args: argv,
    options: {
      presets: { type: 'string' }, seeds: { type: 'string' }, steps: { type: 'string' }, B: { type: 'string' }, G: { type: 'string' }, n: { type: 'string' },
      horizon: { type: 'string' }, 'eval-states': { type: 'string' }, 'eval-temperature': { type: 'string' }, 'eval-trials': { type: 'string' }, normalise: { type: 'string' }, lr: { type: 'string' }, 'dense-reward': { type: 'string' },
      policy: { type: 'string' }, 'progress-model': { type: 'string' }, threads: { type: 'string' }, out: { type: 'string' }, plan: { type: 'string' }, force: { type: 'boolean' },
      quick: { type: 'boolean' }, help: { type: 'boolean' }, 'report-only': { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  }, RobotUsageError);
  if (values.help) return 'help';
  if (values['report-only'] && values.force) throw new RobotUsageError('--report-only runs nothing, so --force has nothing to rerun');
  const plan = robotTablePlan(values.plan ?? ROBOT_TABLE_V1.name);
  if (!plan) throw new RobotUsageError(`--plan ${JSON.stringify(values.plan)}: no such robot table plan (the plans: ${ROBOT_TABLE_PLANS.map((p) => p.name).join(', ')})`);
  const quick = values.quick === true;
  const presets = (values.presets ?? (quick ? 'robot-grpo-sparse,robot-wmrl' : 'robot-sft,robot-grpo-sparse,robot-wmrl')).split(',').map((s) => s.trim()).filter(Boolean);
  for (const p of presets) if (!(ROBOT_PRESET_IDS as readonly string[]).includes(p)) throw new RobotUsageError(`unknown robot preset ${JSON.stringify(p)} (known: ${ROBOT_PRESET_IDS.join(', ')})`);
  if (presets.length === 0) throw new RobotUsageError('--presets: name at least one preset');
  const seeds = (values.seeds ?? '1').split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n)) throw new RobotUsageError(`--seeds: ${JSON.stringify(s)} is not an integer`);
    return n;
  });
  if (new Set(seeds).size !== seeds.length) throw new RobotUsageError('--seeds: each seed once');
  if (values.G !== undefined && values.n !== undefined) throw new RobotUsageError('--G and --n are the same setting: give one');
  const overrides: Partial<RobotTrainerConfig> = {};
  const set = <K extends keyof RobotTrainerConfig>(k: K, v: RobotTrainerConfig[K] | undefined) => {
    if (v !== undefined) overrides[k] = v;
  };
  set('steps', positiveInt(values.steps, '--steps') ?? (quick ? 2 : undefined));
  set('groupsPerStep', positiveInt(values.B, '--B') ?? (quick ? 2 : undefined));
  set('groupSize', positiveInt(values.G ?? values.n, values.G !== undefined ? '--G' : '--n') ?? (quick ? 2 : undefined));
  set('horizon', positiveInt(values.horizon, '--horizon') ?? (quick ? 48 : undefined));
  if (overrides.groupSize === 1) throw new RobotUsageError('--G must be at least 2 (a group compares its rollouts)');
  if (values.lr !== undefined) {
    const lr = Number(values.lr);
    if (!(Number.isFinite(lr) && lr > 0 && lr < 1)) throw new RobotUsageError(`--lr must be a number in (0, 1), got ${JSON.stringify(values.lr)}`);
    overrides.lr = lr;
  }
  if (values['dense-reward'] !== undefined) {
    if (!(DENSE_REWARD_MODES as readonly string[]).includes(values['dense-reward'])) throw new RobotUsageError(`--dense-reward must be one of ${DENSE_REWARD_MODES.join(', ')}, got ${JSON.stringify(values['dense-reward'])}`);
    overrides.denseReward = values['dense-reward'] as DenseRewardMode;
  }
  if (values.normalise !== undefined) {
    if (!(LOSS_NORMALISATIONS as readonly string[]).includes(values.normalise)) throw new RobotUsageError(`--normalise must be one of ${LOSS_NORMALISATIONS.join(', ')}, got ${JSON.stringify(values.normalise)}`);
    overrides.normalise = values.normalise as LossNormalisation;
  }
  const evalTemperature = values['eval-temperature'] === undefined ? 1 : Number(values['eval-temperature']);
  if (!(Number.isFinite(evalTemperature) && evalTemperature >= 0)) throw new RobotUsageError(`--eval-temperature must be >= 0, got ${JSON.stringify(values['eval-temperature'])}`);
  const trialsFlag = positiveInt(values['eval-trials'], '--eval-trials');
  if (evalTemperature === 0 && trialsFlag !== undefined && trialsFlag > 1) throw new RobotUsageError('--eval-trials: a greedy evaluation (--eval-temperature 0) repeats itself; give 1 or sample');
  const evalTrials = evalTemperature === 0 ? 1 : trialsFlag ?? (quick ? 1 : 4);
  return {
    presets: presets as RobotPresetId[],
    seeds,
    overrides,
    evalStates: positiveInt(values['eval-states'], '--eval-states') ?? (quick ? 1 : 2),
    evalTemperature,
    evalTrials,
    policy: resolve(root, values.policy ?? 'results/robot-bc/policy.ckpt'),
    progressModel: resolve(root, values['progress-model'] ?? 'results/robot-progress/progress-model.ckpt'),
    threads: positiveInt(values.threads, '--threads') ?? 1,
    out: resolve(values.out ?? (quick ? 'results/robot-quick' : 'results/robot-experiment')),
    force: values.force === true,
    reportOnly: values['report-only'] === true,
    plan,
    command: `npm run experiment -- --domain robot ${argv.filter((a) => a !== '--report-only').map((a) => (a.startsWith(root) ? relative(root, a) : a)).join(' ')}`.trim(),
  };
}

function readModelFile(path: string, what: string): Uint8Array {
  if (!existsSync(path)) throw new RobotUsageError(`${what} ${path} does not exist`);
  return new Uint8Array(readFileSync(path));
}

/** A model file that exists but cannot be read as `what` (truncated, another kind of checkpoint, not one at all) is the user's input: one line naming it. */
async function readModel<T>(path: string, what: string, read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    throw new RobotUsageError(`${what} ${path} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}


export type RunOutcome = { preset: RobotPresetId; seed: number; status: 'ran' | 'skipped' | 'failed'; file: string; error?: string };

/** For tests only: stop the invocation, as a kill would (no run file, no .failed.json), once this many steps are saved. */
export interface RobotRunnerHooks {
  stopAfterSteps?: number;
}

/** What a hook's stop throws out of runRobotExperiment. */
export class RobotRunnerStopped extends Error {}

/** The runs.csv of every requested run whose file is on disk. */
function runsCsv(runs: readonly RobotRunResult[]): string {
  const head = 'preset,seed,steps,B,G,horizon,train_tasks_heldout_states_successes,train_tasks_heldout_states_episodes,heldout_tasks_successes,heldout_tasks_episodes,mean_training_success,wall_s';
  const rows = runs.map((r) => {
    const e = r.evaluation;
    const c = r.request.config;
    const trainSuccess = r.steps.length === 0 ? '' : (r.steps.reduce((a, s) => a + s.successRate, 0) / r.steps.length).toFixed(4);
    return [r.request.preset, r.request.seed, r.steps.length, c.groupsPerStep, c.groupSize, c.horizon, e.trainTasksHeldoutStates.successes, e.trainTasksHeldoutStates.episodes,
      e.heldoutTasksHeldoutStates.successes, e.heldoutTasksHeldoutStates.episodes, trainSuccess, (r.wallMs / 1000).toFixed(1)].join(',');
  });
  return [head, ...rows].join('\n') + '\n';
}

/** runs.csv, summary.md and summary.json (file name to text) from the requested runs whose files are on disk. */
export function robotTables(o: Pick<RobotExperimentOptions, 'out' | 'seeds' | 'presets' | 'command' | 'plan'>): { runs: RobotRunResult[]; files: Record<string, string> } {
  const runsDir = join(o.out, 'runs');
  const runs = o.seeds.flatMap((s) => o.presets.map((p) => join(runsDir, runFileName(p, s)))).filter(existsSync)
    .map((f) => readRunJson(f)).filter(isRobotRunResult);
  return {
    runs,
    files: {
      'runs.csv': runsCsv(runs),
      'summary.md': robotTableMarkdown(runs, o.command, o.plan),
      'summary.json': JSON.stringify(robotTableSummary(runs, o.command, o.plan), null, 2) + '\n',
    },
  };
}

export function writeRobotTables(o: Pick<RobotExperimentOptions, 'out' | 'seeds' | 'presets' | 'command' | 'plan'>): RobotRunResult[] {
  const { runs, files } = robotTables(o);
  mkdirSync(o.out, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(o.out, name), text);
  return runs;
}

/** A finished run's side file, left by a stop between writing the run file and deleting it: deleted when it is that run's. */
function dropLeftover(path: string, request: RobotRunRequest, codeSha256: string, log: (line: string) => void): void {
  try {
    readUnfinishedRun(path, request, codeSha256);
    rmSync(path);
    log(`  deleted ${path}: the run it continued is finished`);
  } catch (e) {
    log(`  ${path} is kept beside the finished run: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Runs every (preset, seed) not already on disk, an unfinished one from where it stopped; `log` hears progress lines. */
export async function runRobotExperiment(o: RobotExperimentOptions, log: (line: string) => void = console.log, hooks: RobotRunnerHooks = {}): Promise<RunOutcome[]> {
  const policyBytes = readModelFile(o.policy, 'the policy checkpoint');
  const progressBytes = readModelFile(o.progressModel, 'the progress model');
  const policy = await readModel(o.policy, 'the policy checkpoint', () => readRobotPolicy(policyBytes));
  // loaded before the folder is made: a model that cannot be read leaves nothing behind
  const progress = await readModel(o.progressModel, 'the progress model', () => loadProgressModel(progressBytes, { prefer: 'wasm', numThreads: o.threads }));
  // from here on the progress model's session is held: everything that can throw is inside the try that releases it
  try {
    const policySha256 = sha256Hex(policyBytes);
    const progressSha256 = sha256Hex(progressBytes);
    const runsDir = join(o.out, 'runs');
    mkdirSync(runsDir, { recursive: true });
    // once, before anything runs: every run of this invocation ran this checkout
    const source = await readRunSource();
    const codeSha256 = runCodeHash();
    log(`robot experiment: source ${formatSource(source)}`);
    const machine = `${cpus().length} cores, load ${loadavg()[0].toFixed(1)} at start, CPU engine (onnxruntime-web wasm, ${o.threads} thread${o.threads === 1 ? '' : 's'})`;
    const sample = robotPresetConfig('robot-wmrl', o.overrides);
    log(`robot experiment: ${o.presets.length} presets x ${o.seeds.length} seeds; B ${sample.groupsPerStep} x G ${sample.groupSize} = ${sample.groupsPerStep * sample.groupSize} rollouts a step, horizon ${sample.horizon} (at most ${robotTokenBudget(sample)} action tokens a step), ${sample.steps} steps, lr ${sample.lr}; loss normalisation ${sample.normalise ?? 'constant'}; evaluation ${o.evalTemperature === 0 ? 'greedy' : `at temperature ${o.evalTemperature}, ${o.evalTrials} rollout(s) per state`} on ${o.evalStates} held-out state(s) per task; policy ${policy.model.config.nLayers} layers d ${policy.model.config.dModel}; ${machine}`);
    const outcomes: RunOutcome[] = [];
    let stepsSaved = 0;
    for (const seed of o.seeds) {
      for (const preset of o.presets) {
        const file = join(runsDir, runFileName(preset, seed));
        const failed = join(runsDir, runFileName(preset, seed, true));
        const unfinished = unfinishedRunPath(runsDir, preset, seed);
        // The SFT row never trains: only what its evaluation reads (the horizon) enters its request, so a
        // change of lr, B, G or the loss weights does not rerun it.
        const config = preset === 'robot-sft'
          ? robotPresetConfig(preset, { seed, ...(o.overrides.horizon !== undefined ? { horizon: o.overrides.horizon } : {}) })
          : robotPresetConfig(preset, { ...o.overrides, seed });
        const request: RobotRunRequest = { preset, seed, config, evaluation: { statesPerTask: o.evalStates, temperature: o.evalTemperature, trials: o.evalTrials }, policySha256, progressSha256 };
        if (!o.force && existsSync(file)) {
          const old = readRunJson(file);
          if (isRobotRunResult(old) && isDeepStrictEqual(old.request, JSON.parse(JSON.stringify(request)))) {
            log(`${preset} seed ${seed}: done before, skipped (${file})`);
            if (existsSync(unfinished)) dropLeftover(unfinished, request, codeSha256, log);
            outcomes.push({ preset, seed, status: 'skipped', file });
            continue;
          }
          log(`${preset} seed ${seed}: its file holds another request, running again`);
        }
        if (o.force && existsSync(unfinished)) {
          rmSync(unfinished);
          log(`${preset} seed ${seed}: --force: deleted its unfinished run ${unfinished}; starting over`);
        }
        const engine = CpuEngine.fromModel(policy.model, { numThreads: o.threads });
        const startedAt = new Date().toISOString();
        try {
          const before = existsSync(unfinished) ? readUnfinishedRun(unfinished, request, codeSha256) : null;
          if (before) log(`${preset} seed ${seed}: resuming after step ${before.checkpoint.step} of ${config.steps} (${unfinished}, segment ${before.segments.length + 1})`);
          const segment = (toStep: number, wallMs: number, endedAt: string): RunSegment => ({
            commit: source.commit, dirty: source.dirty, startedAt, endedAt, fromStep: before?.checkpoint.step ?? 0, toStep, wallMs, machine,
          });
          const result = await runRobot(request, { engine, frames: policy.frames, progress: progress.score }, machine, ({ record: r }) => {
            log(`${preset} seed ${seed}: step ${r.step + 1}/${config.steps} training success ${(r.successRate * 100).toFixed(1)}%, anchors ${r.anchorGroups}, mean reward ${r.meanReward.toFixed(3)}, ${r.batch.sequences} sequences in the update (${r.batch.distinct} distinct), ${(r.ms.wall / 1000).toFixed(1)} s (rollouts ${(r.ms.rollouts / 1000).toFixed(1)}, progress ${(r.ms.progress / 1000).toFixed(1)}, update ${(r.ms.update / 1000).toFixed(1)})`);
          }, {
            from: before ?? undefined,
            onProgress: ({ checkpoint, steps, wallMs }) => {
              const saved: UnfinishedRobotRun = {
                format: UNFINISHED_RUN_FORMAT, version: 1, request, codeSha256,
                segments: [...(before?.segments ?? []), segment(checkpoint.step, wallMs, new Date().toISOString())], checkpoint, steps,
              };
              writeUnfinishedRun(unfinished, saved);
              if (++stepsSaved === hooks.stopAfterSteps) throw new RobotRunnerStopped(`stopped by a test hook after ${stepsSaved} saved step(s)`);
            },
          });
          const finishedAt = new Date().toISOString();
          const segments = [...(before?.segments ?? []), segment(config.steps, result.wallMs, finishedAt)];
          // A resumed run's time is its segments' (each up to its last save), and its provenance lists them.
          const provenance: RunProvenance = { ...source, startedAt: segments[0].startedAt, finishedAt, ...(segments.length > 1 ? { segments } : {}) };
          const run: WithProvenance<RobotRunResult> = { ...result, wallMs: segments.reduce((a, x) => a + x.wallMs, 0), provenance };
          writeFileWhole(file, JSON.stringify(run) + '\n');
          rmSync(unfinished, { force: true });
          rmSync(failed, { force: true });
          const e = run.evaluation;
          log(`${preset} seed ${seed}: held-out success: training tasks ${e.trainTasksHeldoutStates.successes}/${e.trainTasksHeldoutStates.episodes}, held-out tasks ${e.heldoutTasksHeldoutStates.successes}/${e.heldoutTasksHeldoutStates.episodes} (${(run.wallMs / 1000).toFixed(0)} s${segments.length > 1 ? ` in ${segments.length} segments` : ''})`);
          outcomes.push({ preset, seed, status: 'ran', file });
        } catch (err) {
          if (err instanceof RobotRunnerStopped) throw err;
          const message = err instanceof Error ? err.stack ?? err.message : String(err);
          const provenance: RunProvenance = { ...source, startedAt, finishedAt: new Date().toISOString() };
          writeFileSync(failed, JSON.stringify({ request, error: message, provenance }, null, 2) + '\n');
          log(`${preset} seed ${seed}: FAILED: ${err instanceof Error ? err.message : String(err)}${existsSync(unfinished) ? ` (its unfinished run ${unfinished} is kept)` : ''}`);
          outcomes.push({ preset, seed, status: 'failed', file: failed, error: message });
        } finally {
          await engine.dispose();
        }
        writeRobotTables(o);
      }
    }
    return outcomes;
  } finally {
    await progress.release();
  }
}

/** The entry point experiment.ts hands `--domain robot` to (argv without --domain). */
export async function robotExperimentMain(argv: string[], root: string): Promise<number> {
  let o: RobotExperimentOptions | 'help';
  try {
    o = parseRobotOptions(argv, root);
  } catch (e) {
    console.error(`${e instanceof Error ? e.message : String(e)}\n\n${ROBOT_USAGE}`);
    return 2;
  }
  if (o === 'help') {
    console.log(ROBOT_USAGE);
    return 0;
  }
  if (o.reportOnly) {
    const named = new Set(o.seeds.flatMap((seed) => o.presets.flatMap((p) => [runFileName(p, seed), runFileName(p, seed, true)])));
    try {
      refuseNarrowReport(o.out, named, RobotUsageError);
    } catch (e) {
      if (!(e instanceof RobotUsageError)) throw e;
      console.error(`experiment: ${e.message}`);
      return 2;
    }
    const runs = writeRobotTables(o);
    console.log(`robot experiment: ${runs.length} run file(s) read, nothing run; wrote ${join(o.out, 'summary.md')} (plan ${o.plan.name})`);
    return 0;
  }
  try {
    const outcomes = await runRobotExperiment(o);
    return outcomes.some((x) => x.status === 'failed') ? 1 : 0;
  } catch (e) {
    if (e instanceof RobotUsageError) {
      console.error(`experiment: ${e.message}`);
      return 2;
    }
    throw e;
  }
}
