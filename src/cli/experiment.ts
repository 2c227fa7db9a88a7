// npm run experiment -- --presets wmrl,grpo-all-real,world-model-only --seeds 1,2,3 --steps 10
//   [--B 8 --n 4] [--eval-k 8] [--eval-tasks all|id,id] [--out results/<name>] [--quick] ...
//
// The headless experiment runner: builds dist/ unless it was built from these sources (its source
// stamp; the committed models are among them), serves it on 127.0.0.1, and drives the real app code
// path in headless Chromium (createTrainer: policy worker, world-model worker, sandbox pool, page-side grader). Per
// seed it evaluates the starting (SFT) policy once (the "no RL" row), then trains and evaluates each
// preset. Each run writes <out>/runs/<preset>-seed<seed>.json; after every run <out>/runs.csv,
// <out>/summary.md, <out>/summary.json (and <out>/curve.svg, for runs evaluated along the way; curve-primary.svg, the main table's primary pair alone) are rewritten from all the requested runs on disk, so
// an interrupted experiment leaves its tables. A run whose file exists (with the same request) is
// skipped unless --force; a failed run is recorded as <preset>-seed<seed>.failed.json and retried
// next time; the other runs continue. Run files are written whole (run-files.ts), so a stop mid-write
// leaves none; one that does not parse is named, and nothing is rewritten from a partial set. While a
// run trains, its state after every step is kept beside it (<preset>-seed<seed>.unfinished,
// experiment-unfinished-run.ts), and a run stopped mid-way (a killed process, a session's end) goes on
// from its last step when the command starts again, under the same code only; its run file is then the
// uninterrupted run's, timings and provenance aside (which lists the segments).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { curveRows, pairedComparison, summarisePresets } from '../experiments/aggregate.ts';
import { evaluateClaims, LARGER_SFT_PRESET } from '../experiments/claims.ts';
import { evaluationMismatch } from '../experiments/cross-compare.ts';
import { runsCsv } from '../experiments/csv.ts';
import { formatSource } from '../experiments/provenance.ts';
import { renderReport } from '../experiments/report.ts';
import { compareRerun } from '../experiments/rerun.ts';
import { CONTROLS_EVAL_EVERY, CONTROLS_PLAN, CONTROLS_STEPS, CONTROLS_WORK_RULE, CONTROLS_TWIN_FOLDER, controlsPrimaryCurveRows, decideControls } from '../experiments/controls-table.ts';
import { AMORTISED_OVER, amortisedComputeRatio, decideMainTable, mainTableProgress, PRIMARY_CURVE_FILE, primaryCurveRows, WORLD_MODEL_EXECUTIONS, type WorldModelBuildCost } from '../experiments/main-table.ts';
import { estimateTimeLeft, formatDuration, type FinishedRun } from '../experiments/time-left.ts';
import { FOLDER_MODELS_PATH, isRunResult, ruleOfRequest, runFileName, SFT_PRESET, type ModelChoice, type RunRequest, type RunResult } from '../experiments/run-result.ts';
import { BASE_CONFIG, PRESETS, presetConfig, WMRL_RHO, type PresetId } from '../training/presets.ts';
import { validateTrainerConfig, type TrainerConfig } from '../training/trainer.ts';
import { withAnchorShare } from '../training/anchor-share.ts';
import { DEFAULT_EVAL_K } from '../training/evaluate.ts';
import { WORK_RULE, type WorkRule } from '../sandbox-pyodide/work-rule.ts';
import { ModelIntegrityError } from '../model/model-integrity.ts';
import { ensureFreshDist, launchChromium, serveDist } from './browser-session.ts';
import { curveSvg } from './curve-svg.ts';
import { readRunJson, writeFileWhole } from './run-files.ts';
import { pageRunCodeHash, readRunSource } from './run-source.ts';
import { failedRun, runOne, type PlannedRun } from './experiment-page.ts';
import { readUnfinishedExperimentRun } from './experiment-unfinished-run.ts';
import { unfinishedRunPath, UnfinishedRunRefused } from './unfinished-run.ts';
import { readVerifiedModels } from './model-files.ts';
import { refuseNarrowReport } from './report-scope.ts';
import { InputError, optionalPositiveInt, parseFlags } from './cli-input.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const USAGE = `usage: npm run experiment -- [options]
  --domain coding|robot  coding (default): this list; robot: the robot domain in Node (--domain robot --help)
  --presets a,b,c        presets (default grpo-all-real,world-model-only,wmrl; known: ${PRESETS.map((p) => p.id).join(', ')})
  --seeds 1,2,3          seeds (default 1,2,3)
  --steps N              training steps per run (default: the preset's)
  --B N --n N            groups per step, programs per group (default: the preset's; refused for a preset
                         whose B is part of what it is, as paper-grpo-matched)
  --max-new-tokens N     program tokens at most (default: the preset's)
  --temperature T        sampling temperature for training and evaluation (default: the preset's)
  --lr X                 policy learning rate (default: the preset's, ${BASE_CONFIG.lr})
  --kl-beta X            KL penalty to the SFT policy (default: the preset's, ${BASE_CONFIG.klBeta} = off)
  --rho X                anchor share in (0, 1) for the presets that mix the two streams (the paper-* ones: the
                         share of each step's groups); grpo-all-real (rho 1) and world-model-only (rho 0) keep
                         theirs (default: the preset's, ${WMRL_RHO} or the authors' 0.1)
  --eval-k K             programs per held-out task (default ${DEFAULT_EVAL_K})
  --eval-tasks all|N|id,id   held-out tasks: all, the N smallest, or a list (default all)
  --eval-every N         also evaluate each trained run after every N steps (held-out score against
                         training compute; the run files' "curve", the summary's curve table)
  --curve-presets a,b    the presets --eval-every applies to (default: all); the others are evaluated
                         only at the end, so one invocation can hold both kinds of run
  --out DIR              output folder (default results/experiment)
  --models committed|tiny|DIR   committed public/models (default), a tiny random model (plumbing only), or
                         another models folder (models pipeline output, e.g. a larger SFT policy)
  --sft-only             evaluate only the starting policy (the SFT row), train nothing
  --pool N               sandbox workers (default: the pool's own default)
  --exec-timeout-ms N    per-program execution budget (default 20000)
  --work-rule 1|2        how the sandbox counts a program's work (src/sandbox-pyodide/work-rule.ts). Default:
                         the rule of the runs already in --out (an experiment keeps its rule), rule 1 for
                         --plan controls-40 (planned under it), else the rule now (2)
  --run-timeout-min M    a run taking longer in this invocation is recorded as failed (default 60; a run that
                         goes on from where a stop left it has the whole limit again)
  --no-sft               skip the SFT (before-training) evaluations
  --larger-sft DIR       claim 4: the SFT rows of DIR (an --sft-only experiment of a larger policy, evaluated
                         the same way) enter this folder's tables and claims as the row sft-larger
  --keep-programs        keep program texts in the StepRecords
  --force                rerun runs whose result exists, and start unfinished runs over (deletes their .unfinished file)
  --rerun-of DIR         these runs rerun some of DIR's alone on the machine (the compute accounting): the
                         summary checks each against its twin there and gives the compute ratio both ways,
                         instead of deciding the main table's plan on them
  --plan controls-40     decide the folder by that plan (docs/results.md) instead of the main table's; needs
                         --steps 40 and --eval-every 5
  --report-only          run nothing: rewrite summary.md, summary.json, runs.csv and the curve pictures from the runs on disk
                         (the grid must name every run file in --out: its report is the folder's)
  --build                rebuild dist/ first
  --quick                tiny check: 2 presets, 1 seed, 2 steps, B 2, n 2, eval-k 1 on the 2 smallest held-out tasks, 48 new tokens`;

interface Options {
  presets: PresetId[];
  seeds: number[];
  overrides: Partial<TrainerConfig>;
  /** The preset whose sampling settings the SFT row uses (the first listed, as before --sft-only existed). */
  sftConfigFrom: PresetId;
  /** --rho: replaces rho only in presets whose rho lies strictly between 0 and 1. */
  mixedRho: number | undefined;
  evalK: number;
  evalTasks: string;
  evalEvery: number | undefined;
  /** Presets --eval-every applies to; null: all. */
  curvePresets: Set<string> | null;
  out: string;
  models: ModelChoice;
  pool: number | undefined;
  execTimeoutMs: number;
  /** --work-rule; undefined: decided by the folder or the plan (workRuleFor). */
  workRule: WorkRule | undefined;
  runTimeoutMs: number;
  sft: boolean;
  largerSft: string | undefined;
  keepPrograms: boolean;
  force: boolean;
  /** --rerun-of: the experiment folder these runs rerun some of. */
  rerunOf: string | undefined;
  /** Rewrite the tables from the runs on disk and run nothing (an experiment that is run in pieces). */
  reportOnly: boolean;
  /** The plan that decides the folder (--plan); undefined: the main table's. */
  plan: typeof CONTROLS_PLAN | undefined;
  build: boolean;
}

class UsageError extends Error {
  constructor(message: string, readonly showUsage = true) {
    super(message);
  }
}

const positiveInt = (v: string | undefined, flag: string) => optionalPositiveInt(v, flag, UsageError);

function parseOptions(argv: string[]): Options {
  const { values } = parseFlags({
    args: argv,
    options: {
      presets: { type: 'string' }, seeds: { type: 'string' }, steps: { type: 'string' }, B: { type: 'string' }, n: { type: 'string' },
      'max-new-tokens': { type: 'string' }, temperature: { type: 'string' }, 'eval-k': { type: 'string' }, 'eval-tasks': { type: 'string' }, 'eval-every': { type: 'string' }, 'curve-presets': { type: 'string' },
      lr: { type: 'string' }, 'kl-beta': { type: 'string' }, rho: { type: 'string' },
      out: { type: 'string' }, models: { type: 'string' }, pool: { type: 'string' }, 'exec-timeout-ms': { type: 'string' }, 'work-rule': { type: 'string' },
      'run-timeout-min': { type: 'string' }, 'no-sft': { type: 'boolean' }, 'keep-programs': { type: 'boolean' }, force: { type: 'boolean' },
      build: { type: 'boolean' }, quick: { type: 'boolean' }, 'report-only': { type: 'boolean' }, help: { type: 'boolean' }, 'sft-only': { type: 'boolean' }, 'larger-sft': { type: 'string' },
      'rerun-of': { type: 'string' }, plan: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  }, UsageError);
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const quick = values.quick === true;
  if (values['report-only'] && values.force) throw new UsageError('--report-only runs nothing, so --force has nothing to rerun');
  const known = new Set<string>(PRESETS.map((p) => p.id));
  const presetList = (values.presets ?? (quick ? 'grpo-all-real,wmrl' : 'grpo-all-real,world-model-only,wmrl')).split(',').map((s) => s.trim()).filter(Boolean);
  for (const p of presetList) if (!known.has(p)) throw new UsageError(`unknown preset ${JSON.stringify(p)} (known: ${[...known].join(', ')})`);
  if (values.B !== undefined) {
    for (const p of PRESETS.filter((x) => presetList.includes(x.id) && x.fixedB && x.config.groupsPerStep !== Number(values.B))) {
      throw new UsageError(`--B ${values.B}: ${p.id} sets its own B (${p.fixedB}); run it in an invocation without --B`);
    }
  }
  const curvePresets = values['curve-presets'] === undefined ? null : new Set(values['curve-presets'].split(',').map((x) => x.trim()).filter(Boolean));
  for (const p of curvePresets ?? []) if (!presetList.includes(p)) throw new UsageError(`--curve-presets: ${JSON.stringify(p)} is not among --presets`);
  if (curvePresets && values['eval-every'] === undefined) throw new UsageError('--curve-presets needs --eval-every');
  const seeds = (values.seeds ?? (quick ? '1' : '1,2,3')).split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n)) throw new UsageError(`--seeds: ${JSON.stringify(s)} is not an integer`);
    return n;
  });
  if (new Set(seeds).size !== seeds.length) throw new UsageError('--seeds: each seed once');
  const overrides: Partial<TrainerConfig> = {};
  const steps = positiveInt(values.steps, '--steps') ?? (quick ? 2 : undefined);
  if (steps !== undefined) overrides.steps = steps;
  const B = positiveInt(values.B, '--B') ?? (quick ? 2 : undefined);
  if (B !== undefined) overrides.groupsPerStep = B;
  const n = positiveInt(values.n, '--n') ?? (quick ? 2 : undefined);
  if (n !== undefined) overrides.groupSize = n;
  const maxNewTokens = positiveInt(values['max-new-tokens'], '--max-new-tokens') ?? (quick ? 48 : undefined);
  const sampling: Partial<TrainerConfig['sampling']> = {};
  if (maxNewTokens !== undefined) sampling.maxNewTokens = maxNewTokens;
  if (values.temperature !== undefined) {
    const t = Number(values.temperature);
    if (!(t > 0 && Number.isFinite(t))) throw new UsageError(`--temperature must be positive, got ${values.temperature}`);
    sampling.temperature = t;
  }
  if (Object.keys(sampling).length > 0) overrides.sampling = sampling as TrainerConfig['sampling'];
  const real = (v: string | undefined, flag: string, ok: (x: number) => boolean, what: string): number | undefined => {
    if (v === undefined) return undefined;
    const x = Number(v);
    if (!(Number.isFinite(x) && ok(x))) throw new UsageError(`${flag} must be ${what}, got ${JSON.stringify(v)}`);
    return x;
  };
  const lr = real(values.lr, '--lr', (x) => x > 0 && x < 1, 'a number in (0, 1)');
  if (lr !== undefined) overrides.lr = lr;
  const klBeta = real(values['kl-beta'], '--kl-beta', (x) => x >= 0, 'a non-negative number');
  if (klBeta !== undefined) overrides.klBeta = klBeta;
  const mixedRho = real(values.rho, '--rho', (x) => x > 0 && x < 1, 'a number in (0, 1)');
  const models = modelChoice(values.models ?? 'committed');
  const sftOnly = values['sft-only'] === true;
  if (sftOnly && values['no-sft']) throw new UsageError('--sft-only and --no-sft exclude each other');
  const rerunOf = values['rerun-of'] === undefined ? undefined : resolve(values['rerun-of']);
  if (rerunOf !== undefined && !existsSync(resolve(rerunOf, 'runs'))) throw new UsageError(`--rerun-of ${values['rerun-of']}: no runs/ folder there (is it an experiment's --out?)`);
  const plan = values.plan;
  if (plan !== undefined) {
    if (plan !== CONTROLS_PLAN) throw new UsageError(`--plan ${plan}: the plans are ${CONTROLS_PLAN}`);
    if (steps !== CONTROLS_STEPS || positiveInt(values['eval-every'], '--eval-every') !== CONTROLS_EVAL_EVERY) {
      throw new UsageError(`--plan ${CONTROLS_PLAN} is planned at --steps ${CONTROLS_STEPS} --eval-every ${CONTROLS_EVAL_EVERY}`);
    }
  }
  const out = resolve(values.out ?? (quick ? 'results/quick' : 'results/experiment'));
  if (rerunOf === out) throw new UsageError('--rerun-of names the output folder itself');
  return {
    presets: sftOnly ? [] : (presetList as PresetId[]),
    seeds,
    overrides,
    mixedRho,
    evalK: positiveInt(values['eval-k'], '--eval-k') ?? (quick ? 1 : DEFAULT_EVAL_K),
    evalTasks: values['eval-tasks'] ?? (quick ? '2' : 'all'),
    evalEvery: positiveInt(values['eval-every'], '--eval-every'),
    curvePresets,
    out,
    models,
    pool: positiveInt(values.pool, '--pool'),
    execTimeoutMs: positiveInt(values['exec-timeout-ms'], '--exec-timeout-ms') ?? 20_000,
    workRule: workRuleOption(values['work-rule']),
    runTimeoutMs: 60_000 * (real(values['run-timeout-min'], '--run-timeout-min', (x) => x > 0, 'a positive number of minutes') ?? 60),
    sft: values['no-sft'] !== true,
    largerSft: values['larger-sft'] === undefined ? undefined : resolve(values['larger-sft']),
    rerunOf,
    sftConfigFrom: (presetList[0] ?? 'grpo-all-real') as PresetId,
    keepPrograms: values['keep-programs'] === true,
    force: values.force === true,
    reportOnly: values['report-only'] === true,
    plan,
    build: values.build === true,
  };
}

/** The held-out task ids to evaluate on, from the suite index the app serves. */
function resolveEvalTasks(spec: string): string[] | null {
  if (spec === 'all') return null;
  const index = JSON.parse(readFileSync(resolve(root, 'public/tasks/index.json'), 'utf8')) as { tasks: { id: string; split: string; role: string; nTrain: number }[] };
  const held = index.tasks.filter((t) => t.split === 'heldout' && t.role === 'scored');
  if (/^\d+$/.test(spec)) {
    const count = Number(spec);
    if (count < 1 || count > held.length) throw new UsageError(`--eval-tasks ${count}: there are ${held.length} held-out tasks`);
    // the smallest tasks (fewest training rows) run fastest
    return [...held].sort((a, b) => a.nTrain - b.nTrain || a.id.localeCompare(b.id)).slice(0, count).map((t) => t.id);
  }
  const ids = spec.split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of ids) if (!held.some((t) => t.id === id)) throw new UsageError(`--eval-tasks: ${id} is not a held-out task (held-out: ${held.map((t) => t.id).join(', ')})`);
  return ids;
}

/** --models: committed, tiny, or a folder holding a models manifest (recorded relative to the project). */
function modelChoice(v: string): ModelChoice {
  if (v === 'committed' || v === 'tiny') return v;
  const dir = resolve(v);
  if (!existsSync(resolve(dir, 'manifest.json'))) throw new UsageError(`--models ${v}: not committed, tiny, or a folder with a models manifest.json`);
  return `folder:${relative(root, dir)}`;
}

/** Copies a `folder:` choice into dist/ where the page loads it (FOLDER_MODELS_PATH). */
function placeFolderModels(models: ModelChoice): void {
  const target = resolve(root, 'dist', FOLDER_MODELS_PATH);
  rmSync(target, { recursive: true, force: true });
  if (!models.startsWith('folder:')) return;
  cpSync(resolve(root, models.slice('folder:'.length)), target, { recursive: true });
}

/** The models folder a choice reads (null for the tiny random model, made in the page). */
function modelsFolder(models: ModelChoice, under: 'source' | 'served'): string | null {
  if (models === 'tiny') return null;
  if (models === 'committed') return resolve(root, under === 'source' ? 'public/models' : 'dist/models');
  return under === 'source' ? resolve(root, models.slice('folder:'.length)) : resolve(root, 'dist', FOLDER_MODELS_PATH);
}

/** Checks the chosen models against their manifest (size, sha256) before any browser starts. */
async function verifyModels(models: ModelChoice, under: 'source' | 'served'): Promise<void> {
  const dir = modelsFolder(models, under);
  // dist/ holds copies: the fix there is a fresh build, not touching the models.
  if (dir) await readVerifiedModels(dir, root, under === 'served' ? 'rebuild dist/ with --build (vite build copies the models again)' : undefined);
}

function readResult(path: string): RunResult | null {
  const parsed = readRunJson(path);
  if (parsed === null) return null;
  if (!isRunResult(parsed)) throw new InputError(`${relative(process.cwd(), path)} is not an experiment run result; move it aside and the run is done again`);
  return parsed;
}

function workRuleOption(v: string | undefined): WorkRule | undefined {
  if (v === undefined) return undefined;
  if (v !== '1' && v !== '2') throw new UsageError(`--work-rule must be 1 or 2, got ${JSON.stringify(v)}`);
  return Number(v) as WorkRule;
}

/**
 * The work rule an experiment runs under: --work-rule; else the rule of the runs already in its folder
 * (an experiment keeps the rule it started with); else its plan's (controls-40 was planned under
 * rule 1, so that its halves reused from main-v3 stay valid); else the rule now. A folder whose runs
 * disagree with --work-rule is refused.
 */
function workRuleFor(opts: Options, runsDir: string): WorkRule {
  const rules = new Set<WorkRule>();
  if (existsSync(runsDir)) {
    for (const f of readdirSync(runsDir).filter((n) => n.endsWith('.json'))) {
      const r = readRunJson(resolve(runsDir, f));
      if (r !== null && isRunResult(r)) rules.add(ruleOfRequest(r.request));
    }
  }
  if (rules.size > 1) throw new UsageError(`${relative(process.cwd(), runsDir)} holds runs under work rules ${[...rules].join(' and ')}: an experiment keeps one rule`, false);
  const folder = rules.size === 1 ? [...rules][0] : undefined;
  if (opts.workRule !== undefined && folder !== undefined && opts.workRule !== folder) {
    throw new UsageError(`--work-rule ${opts.workRule}: the runs in ${relative(process.cwd(), runsDir)} ran under rule ${folder}; use another --out`, false);
  }
  return opts.workRule ?? folder ?? (opts.plan === CONTROLS_PLAN ? CONTROLS_WORK_RULE : WORK_RULE);
}

/** The parts of a request that must match for an existing result to stand in for a new run. */
function sameRequest(a: RunRequest, b: RunRequest): boolean {
  const key = (r: RunRequest) => ({ kind: r.kind, preset: r.preset, seed: r.seed, config: r.config, evalK: r.evalK, evalTaskIds: r.evalTaskIds, models: r.models, evalAtSteps: r.evalAtSteps ?? [], workRule: ruleOfRequest(r) });
  return isDeepStrictEqual(JSON.parse(JSON.stringify(key(a))), JSON.parse(JSON.stringify(key(b))));
}

/**
 * --larger-sft: the SFT rows of another folder, renamed sft-larger, for the requested seeds. They pair
 * with this folder's runs only if both were evaluated the same way, which is checked against the
 * SFT row of the same seed.
 */
function largerSftRuns(dir: string, seeds: readonly number[], own: readonly RunResult[]): RunResult[] {
  const out: RunResult[] = [];
  for (const seed of seeds) {
    const r = readResult(resolve(dir, 'runs', runFileName(SFT_PRESET, seed)));
    if (!r) continue;
    const mine = own.find((x) => x.preset === SFT_PRESET && x.seed === seed) ?? own.find((x) => x.seed === seed);
    if (mine) {
      const why = evaluationMismatch({ label: relative(root, dir), runs: [r] }, { label: 'this folder', runs: [mine] });
      if (why) throw new UsageError(`--larger-sft: not comparable: ${why}`, false);
    }
    out.push({ ...r, preset: LARGER_SFT_PRESET });
  }
  if (out.length === 0) throw new UsageError(`--larger-sft ${relative(process.cwd(), dir)}: no runs/sft-seed<seed>.json for seeds ${seeds.join(',')}`, false);
  return out;
}

/** Every run file of another experiment folder (--rerun-of), failed runs included. */
function folderRuns(dir: string): RunResult[] {
  const runsDir = resolve(dir, 'runs');
  return readdirSync(runsDir).filter((f) => f.endsWith('.json')).sort().map((f) => readResult(resolve(runsDir, f))).filter((r): r is RunResult => r !== null);
}

/** The controls plan's twin folder's runs (its descriptive check); none where the folder is absent. */
function twinFolderRuns(): RunResult[] {
  const dir = resolve(root, CONTROLS_TWIN_FOLDER);
  return existsSync(resolve(dir, 'runs')) ? folderRuns(dir) : [];
}

/** The committed world model's training seconds (the models manifest's stage seconds), for the amortised compute ratio; null when not recorded. */
function worldModelBuild(): WorldModelBuildCost | null {
  try {
    const m = JSON.parse(readFileSync(resolve(root, 'public/models/manifest.json'), 'utf8')) as { figures?: { stageSeconds?: { wm?: unknown } } };
    const wm = m.figures?.stageSeconds?.wm;
    return typeof wm === 'number' && Number.isFinite(wm) ? { executions: WORLD_MODEL_EXECUTIONS, trainingSeconds: wm, amortisedOver: AMORTISED_OVER } : null;
  } catch {
    return null;
  }
}

function writeOutputs(opts: Options, plan: PlannedRun[], command: string): { runs: RunResult[] } {
  const runs: RunResult[] = [];
  for (const p of plan) {
    const r = readResult(p.file) ?? readResult(p.failedFile);
    if (r && sameRequest(r.request, p.request)) runs.push(r);
  }
  if (opts.largerSft) runs.push(...largerSftRuns(opts.largerSft, opts.seeds, runs));
  const build = worldModelBuild();
  const rerun = opts.rerunOf ? compareRerun(relative(root, opts.rerunOf), runs, folderRuns(opts.rerunOf)) : undefined;
  const title = `Experiment: ${opts.presets.length > 0 ? opts.presets.join(', ') : SFT_PRESET} x seeds ${opts.seeds.join(', ')}`;
  writeFileSync(resolve(opts.out, 'runs.csv'), runsCsv(runs));
  writeFileSync(resolve(opts.out, 'summary.md'), renderReport({ title, runs, presets: opts.presets, command, ...(build ? { worldModelBuild: build } : {}), ...(rerun ? { rerun } : {}), ...(opts.plan ? { plan: opts.plan, twinRuns: twinFolderRuns() } : {}) }) + '\n');
  const summary = {
    format: 'wmrl-experiment-summary',
    version: 1,
    command,
    presets: summarisePresets(runs, opts.presets),
    claim1BusyRatio: pairedComparison(runs, 'grpo-all-real', 'wmrl', 'busyTotal', 'ratio'),
    claim5AnchorWeight: pairedComparison(runs, 'wmrl-unreadable', 'wmrl', 'meanAnchorWeight', 'difference'),
    claims: evaluateClaims(runs),
    // a rerun folder is read against its twins (rerunOf), not decided by the plan
    ...(rerun ? { rerunOf: rerun } : opts.plan === CONTROLS_PLAN ? { plan: CONTROLS_PLAN, controls: decideControls(runs) } : {
      mainTable: decideMainTable(runs),
      mainTableProgress: mainTableProgress(runs),
      ...(build ? { mainTableAmortisedRatio: amortisedComputeRatio(runs, build) } : {}),
    }),
    curve: curveRows(runs, opts.presets),
    runs: runs.map((r) => ({
      preset: r.preset, seed: r.seed, status: r.status,
      file: r.preset === LARGER_SFT_PRESET ? relative(opts.out, resolve(opts.largerSft!, 'runs', runFileName(SFT_PRESET, r.seed))) : `runs/${runFileName(r.preset, r.seed, r.status !== 'ok')}`,
    })),
  };
  writeFileSync(resolve(opts.out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  if (summary.curve.length > 0) writeFileSync(resolve(opts.out, 'curve.svg'), curveSvg(summary.curve, `${relative(root, opts.out)}: held-out score against training busy time`));
  // the plan's primary pair alone, the picture its report shows (summary.md links it when there is one)
  const primaryCurve = opts.plan === CONTROLS_PLAN ? controlsPrimaryCurveRows(runs) : primaryCurveRows(runs);
  if (primaryCurve.length > 0) writeFileSync(resolve(opts.out, PRIMARY_CURVE_FILE), curveSvg(primaryCurve, `${relative(root, opts.out)}: the primary pair, held-out score against training busy time`));
  return { runs };
}

/** `--domain coding|robot` (default coding) and the other arguments. */
function splitDomain(argv: readonly string[]): { domain: 'coding' | 'robot'; rest: string[] } {
  const rest: string[] = [];
  let domain: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--domain' || a.startsWith('--domain=')) {
      if (domain !== undefined) throw new UsageError('--domain: give it once');
      domain = a === '--domain' ? argv[++i] : a.slice('--domain='.length);
      if (domain === undefined || domain === '' || domain.startsWith('--')) throw new UsageError('--domain needs a value: coding or robot');
      continue;
    }
    rest.push(a);
  }
  if (domain !== undefined && domain !== 'coding' && domain !== 'robot') throw new UsageError(`--domain must be coding or robot, got ${JSON.stringify(domain ?? '')}`);
  return { domain: domain ?? 'coding', rest };
}

async function main(): Promise<void> {
  const { domain, rest } = splitDomain(process.argv.slice(2));
  if (domain === 'robot') {
    // The robot domain runs in Node on the CPU engine (src/cli/robot-experiment.ts); no browser.
    const { robotExperimentMain } = await import('./robot-experiment.ts');
    process.exitCode = await robotExperimentMain(rest, root);
    return;
  }
  const opts = parseOptions(rest);
  const evalTaskIds = resolveEvalTasks(opts.evalTasks);
  // The command that runs the plan (a --report-only rewrite records the plan's command, not itself).
  const command = `npm run experiment -- ${process.argv.slice(2).filter((a) => a !== '--report-only').map((a) => (a.startsWith(root) ? relative(root, a) : a)).join(' ')}`.trim();
  const runsDir = resolve(opts.out, 'runs');
  const workRule = workRuleFor(opts, runsDir);

  const plan: PlannedRun[] = [];
  const base = (seed: number, id: PresetId) => {
    const c = presetConfig(id, { ...opts.overrides, seed, sampling: { ...presetConfig(id).sampling, ...(opts.overrides.sampling ?? {}) } });
    const shared = opts.mixedRho !== undefined && c.rho > 0 && c.rho < 1 ? withAnchorShare(c, opts.mixedRho) : c;
    try {
      validateTrainerConfig(shared); // refused here, before any run starts, rather than on the page
    } catch (e) {
      throw new UsageError(`${id}: ${(e as Error).message}`);
    }
    return shared;
  };
  for (const seed of opts.seeds) {
    const entries: { kind: 'sft' | 'train'; preset: string; config: TrainerConfig }[] = [];
    // The SFT row samples with the first preset's settings (the presets share them).
    if (opts.sft) entries.push({ kind: 'sft', preset: SFT_PRESET, config: { ...base(seed, opts.sftConfigFrom), name: SFT_PRESET, steps: 0 } });
    for (const id of opts.presets) entries.push({ kind: 'train', preset: id, config: base(seed, id) });
    for (const e of entries) {
      plan.push({
        request: {
          kind: e.kind, preset: e.preset, seed, config: e.config, evalK: opts.evalK, evalTaskIds, models: opts.models, poolSize: opts.pool ?? null, executionTimeoutMs: opts.execTimeoutMs, workRule, keepPrograms: opts.keepPrograms,
          ...(e.kind === 'train' && opts.evalEvery && (opts.curvePresets?.has(e.preset) ?? true) ? { evalAtSteps: Array.from({ length: Math.ceil(e.config.steps / opts.evalEvery) - 1 }, (_, i) => (i + 1) * opts.evalEvery!) } : {}),
        },
        file: resolve(runsDir, runFileName(e.preset, seed)),
        failedFile: resolve(runsDir, runFileName(e.preset, seed, true)),
        unfinishedFile: unfinishedRunPath(runsDir, e.preset, seed),
      });
    }
  }

  const todo: PlannedRun[] = [];
  // Runs already on disk (an earlier, interrupted invocation) give the first estimate of the time left.
  const finished: FinishedRun[] = [];
  const onDisk: RunResult[] = [];
  for (const p of plan) {
    const existing = readResult(p.file);
    if (existing && !opts.force) {
      if (!sameRequest(existing.request, p.request)) throw new UsageError(`${relative(process.cwd(), p.file)} holds a run with a different configuration: use --force to replace it, or another --out`, false);
      console.log(`skip ${p.request.preset} seed ${p.request.seed}: ${relative(process.cwd(), p.file)} exists`);
      if (existsSync(p.unfinishedFile)) console.log(`  ${relative(process.cwd(), p.unfinishedFile)} is left beside it (a run stopped after its file was written): the run file stands, so the side file can be deleted`);
      finished.push({ preset: existing.preset, kind: existing.kind, wallMs: existing.wallMs });
      onDisk.push(existing);
      continue;
    }
    todo.push(p);
  }
  if (opts.reportOnly) refuseNarrowReport(opts.out, new Set(plan.flatMap((p) => [basename(p.file), basename(p.failedFile)])), UsageError);
  // A --larger-sft folder without SFT rows, or evaluated unlike the runs already here, is refused
  // now, not after hours of runs.
  if (opts.largerSft) largerSftRuns(opts.largerSft, opts.seeds, onDisk);
  const outName = relative(process.cwd(), opts.out) || '.';
  // The grid (presets x seeds) can name more runs than a plan's rows hold: a report reads what is there.
  if (opts.reportOnly) console.log(`experiment: report only, from the ${onDisk.length} run file(s) found of the ${plan.length} this grid names; nothing runs; out ${outName}`);
  else console.log(`experiment: ${plan.length} runs planned, ${todo.length} to run; out ${outName}`);
  const remainingLine = (from: number): string => {
    const rest = todo.slice(from);
    if (rest.length === 0) return 'no runs remain';
    const left = estimateTimeLeft(finished, rest.map((p) => ({ preset: p.request.preset, kind: p.request.kind })));
    const names = rest.map((p) => `${p.request.preset} seed ${p.request.seed}`);
    return `${rest.length} run(s) remain${left === null ? '' : `, about ${formatDuration(left)} left`}: ${names.slice(0, 8).join(', ')}${names.length > 8 ? `, and ${names.length - 8} more` : ''}`;
  };
  if (todo.length > 0 && !opts.reportOnly) console.log(`experiment: ${remainingLine(0)}`);
  if (todo.length > 0 && !opts.reportOnly) {
    // once, before anything runs: every run of this invocation ran this checkout
    const source = await readRunSource();
    console.log(`experiment: source ${formatSource(source)}`);
    await verifyModels(opts.models, 'source');
    ensureFreshDist({ force: opts.build, log: console.log });
    placeFolderModels(opts.models);
    // The page loads dist's copy, which a stale build or a hand edit can make differ.
    await verifyModels(opts.models, 'served');
    // only a run that is about to start makes the folder: a report rewrites what is there, and a refused
    // models folder leaves nothing behind
    mkdirSync(runsDir, { recursive: true });
    // a 'train' run goes on from its saved state only under the code that began it
    const codeSha256 = pageRunCodeHash();
    const served = await serveDist();
    let browser = await launchChromium();
    try {
      for (const [i, p] of todo.entries()) {
        const label = `[${i + 1}/${todo.length}] ${p.request.preset} seed ${p.request.seed}`;
        const unfinished = relative(process.cwd(), p.unfinishedFile);
        if (opts.force && existsSync(p.unfinishedFile)) {
          rmSync(p.unfinishedFile);
          console.log(`${label}: --force: deleted its unfinished run ${unfinished}; starting over`);
        }
        if (!browser.isConnected()) browser = await launchChromium();
        let result: RunResult;
        try {
          const before = p.request.kind === 'train' && existsSync(p.unfinishedFile) ? readUnfinishedExperimentRun(p.unfinishedFile, p.request, codeSha256) : null;
          if (before) console.log(`${label}: going on after step ${before.step} of ${p.request.config.steps} (${unfinished}, segment ${before.segments.length + 1})`);
          const machine = `${cpus().length} cores, load ${loadavg()[0].toFixed(1)} at start`;
          result = await runOne(browser, served.url, p, label, opts.runTimeoutMs, source, p.request.kind === 'train' ? { path: p.unfinishedFile, codeSha256, before, machine } : null);
        } catch (e) {
          if (!(e instanceof UnfinishedRunRefused)) throw e;
          const now = new Date().toISOString();
          result = { ...failedRun(p.request, e.message, 0, now), provenance: { ...source, startedAt: now, finishedAt: now } };
        }
        const target = result.status === 'ok' ? p.file : p.failedFile;
        writeFileWhole(target, JSON.stringify(result) + '\n');
        if (result.status === 'ok') {
          rmSync(p.failedFile, { force: true });
          rmSync(p.unfinishedFile, { force: true });
        }
        const kept = result.status !== 'ok' && existsSync(p.unfinishedFile) ? ` (its unfinished run ${unfinished} is kept: the next invocation goes on from it)` : '';
        console.log(`${label}: ${result.status}${result.error ? ` (${result.error.split('\n')[0]})` : ''}, ${(result.wallMs / 1000).toFixed(1)} s -> ${relative(process.cwd(), target)}${kept}`);
        writeOutputs(opts, plan, command);
        if (result.status === 'ok') finished.push({ preset: result.preset, kind: result.kind, wallMs: result.wallMs });
        console.log(`experiment: ${remainingLine(i + 1)}`);
      }
    } finally {
      await browser.close().catch(() => undefined);
      await served.close();
    }
  }
  const { runs } = writeOutputs(opts, plan, command);
  const ratio = pairedComparison(runs, 'grpo-all-real', 'wmrl', 'busyTotal', 'ratio');
  if (ratio.seeds.length > 0) console.log(`claim 1: total busy grpo-all-real / wmrl per seed ${ratio.perSeed.map((x) => x.toFixed(2)).join(', ')}; mean ${ratio.interval?.mean.toFixed(2)}`);
  const failed = runs.filter((r) => r.status !== 'ok').length;
  console.log(`wrote ${relative(process.cwd(), resolve(opts.out, 'summary.md'))}, runs.csv, summary.json (${runs.length - failed} ok, ${failed} failed)`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  if (e instanceof UsageError) {
    console.error(`experiment: ${e.message}${e.showUsage ? `\n${USAGE}` : ''}`);
    process.exit(2);
  }
  if (e instanceof InputError) {
    console.error(`experiment: ${e.message}`);
    process.exit(2);
  }
  // a models folder that differs from its manifest is the user's input, as in predict and wm-eval
  if (e instanceof ModelIntegrityError) {
    console.error(`experiment: ${e.message}`);
    process.exit(2);
  }
  console.error(e);
  process.exit(1);
});
