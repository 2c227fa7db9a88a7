// `npm run own-data-samples`: population (c) of wm-eval (issue 21): the SFT policy's programs on
// tasks built through the own-data path (src/tasks/byo-data.ts) from data sets whose source packages
// the world model never trained on, with targets the suite does not ask for. Each task's leaderboard
// is built on the spot by `npm run score -- --csv ... --save-leaderboard` (the Playground's code
// path: a reference population in the browser sandbox, graded in Node); then the policy's samples
// run in the browser sandbox and are graded against it. Evaluation only: nothing here trains or
// chooses a model.
// USAGE below lists the flags.
// Resumable: leaderboards are saved in --work and outcomes go to --work/outcomes.jsonl.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCheckpoint } from '../model/checkpoint.ts';
import { ModelIntegrityError } from '../model/model-integrity.ts';
import { toExecutedSample, writeExecutedSamples, type ExecutedSample } from '../pipeline/executed-samples.ts';
import { runAndGrade } from '../pipeline/graded-runs.ts';
import { executeWithStore, OutcomeStore } from '../pipeline/outcome-store.ts';
import { samplePrograms } from '../pipeline/policy-samples.ts';
import { deriveSeed } from '../primitives/random.ts';
import { referencePrograms } from '../sandbox-pyodide/reference-programs.ts';
import { createCustomTask } from '../tasks/byo-data.ts';
import type { Leaderboard } from '../tasks/leaderboard.ts';
import { nodeFileLoader } from '../tasks/node-file-loader.ts';
import { TaskRegistry } from '../tasks/task-registry.ts';
import { decodeCsvUpload } from '../tasks/text-files.ts';
import { openBrowserSandbox } from './browser-sandbox.ts';
import { InputError, optionalPositiveInt, parseFlags, readInput, readInputBytes } from './cli-input.ts';
import { readVerifiedModels } from './model-files.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface OwnTaskSpec {
  name: string;
  csv: string;
  target: string;
  metric: string;
  type?: string;
  positive?: string;
}

const USAGE = `usage: npm run own-data-samples -- [options]
  --tasks FILE          the own-data task specs (default data/wm-eval-own/tasks.json)
  --models DIR          the models folder whose SFT policy samples (default public/models)
  --per-task N          programs a task at each temperature (default 8)
  --temperatures T,T    sampling temperatures (default 0.6,1)
  --population N        reference programs each task's leaderboard is built from (default 24)
  --workers N           sandbox workers (default 2)
  --timeout S           seconds a program may run (default 20)
  --seed N              sampling seed (default 1)
  --work DIR            leaderboards and outcomes, kept for resuming (default .cache/own-data)
  --out FILE.jsonl      the executed samples (default data/wm-eval/own-data-heldout-sources.jsonl)
  --help                this list`;

async function main(): Promise<void> {
  const { values } = parseFlags({
    options: {
      tasks: { type: 'string', default: 'data/wm-eval-own/tasks.json' },
      models: { type: 'string', default: 'public/models' },
      'per-task': { type: 'string', default: '8' },
      temperatures: { type: 'string', default: '0.6,1' },
      population: { type: 'string', default: '24' },
      workers: { type: 'string', default: '2' },
      timeout: { type: 'string', default: '20' },
      seed: { type: 'string', default: '1' },
      work: { type: 'string', default: '.cache/own-data' },
      out: { type: 'string', default: 'data/wm-eval/own-data-heldout-sources.jsonl' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const perTask = Number(values['per-task']);
  const temperatures = values.temperatures.split(',').map(Number);
  const population = Number(values.population);
  const timeoutMs = Math.round(Number(values.timeout) * 1000);
  const seed = Number(values.seed);
  if (!(perTask >= 1) || temperatures.some((t) => !(t > 0)) || !(population >= 1) || !(timeoutMs > 0) || !Number.isInteger(seed)) throw new InputError('--per-task, --temperatures, --population, --timeout must be positive and --seed an integer');
  const workers = optionalPositiveInt(values.workers, '--workers');
  const tasksText = readInput(resolve(values.tasks), 'task list');
  let specs: OwnTaskSpec[];
  try {
    specs = (JSON.parse(tasksText) as { tasks: OwnTaskSpec[] }).tasks;
  } catch (e) {
    throw new InputError(`${values.tasks}: ${(e as Error).message}`);
  }
  if (!Array.isArray(specs)) throw new InputError(`${values.tasks}: no "tasks" list`);
  // the policy is read and checked against its manifest before any leaderboard is built: a bad models folder costs nothing
  const { files } = await readVerifiedModels(resolve(values.models), root);
  const { model, tokenizer } = loadCheckpoint(files['policy.ckpt']);
  if (!tokenizer) throw new InputError(`${values.models}/policy.ckpt carries no tokenizer`);
  const work = resolve(values.work);
  mkdirSync(work, { recursive: true });
  const registry = new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks')));
  const tasks: { id: string; card: string; spec: OwnTaskSpec }[] = [];
  for (const spec of specs) {
    const csv = decodeCsvUpload(readInputBytes(resolve(root, spec.csv), 'CSV file'), spec.csv);
    const built = createCustomTask({ csv, target: spec.target, metric: spec.metric, type: spec.type, positive: spec.positive });
    await registry.addCustomTask(built);
    const lbPath = join(work, `${spec.name}.leaderboard.json`);
    if (!existsSync(lbPath)) {
      // Any program does for score's own run; the leaderboard is what is kept.
      const probe = join(work, `${spec.name}.probe.py`);
      writeFileSync(probe, referencePrograms(built.meta.type, built.meta.metric)[0].source);
      const args = ['src/cli/score.ts', '--csv', spec.csv, '--target', spec.target, '--metric', spec.metric, '--program', probe, '--population', String(population), '--workers', values.workers, '--save-leaderboard', lbPath, '--json'];
      if (spec.type) args.push('--type', spec.type);
      if (spec.positive) args.push('--positive', spec.positive);
      console.log(`${spec.name}: building its leaderboard on the spot (${population} reference programs)`);
      const r = spawnSync(process.execPath, [resolve(root, 'node_modules/tsx/dist/cli.mjs'), ...args], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0 || !existsSync(lbPath)) throw new Error(`${spec.name}: npm run score could not build the leaderboard (exit ${r.status})`);
    }
    registry.setCustomLeaderboard(built.meta.id, JSON.parse(readFileSync(lbPath, 'utf8')) as Leaderboard);
    tasks.push({ id: built.meta.id, card: built.meta.card, spec });
  }
  const sampled: { taskId: string; card: string; index: number; program: string; stopped: boolean; temperature: number }[] = [];
  for (const temperature of temperatures) {
    const t0 = performance.now();
    const got = await samplePrograms(model, tokenizer, tasks, { seed: deriveSeed(seed + 7, Math.round(temperature * 100)), perTask, temperature });
    sampled.push(...got.map((s) => ({ ...s, temperature })));
    console.log(`sampled ${got.length} programs at T ${temperature} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const store = new OutcomeStore(join(work, 'outcomes.jsonl'));
  const sandbox = await openBrowserSandbox({ size: workers });
  const t1 = performance.now();
  let runs;
  try {
    runs = await executeWithStore(store, sampled, timeoutMs, (chunk) => runAndGrade(registry, chunk, sandbox.runMany, timeoutMs), {
      chunk: 8,
      log: (done, total) => console.log(`executed ${done}/${total} (${((performance.now() - t1) / 1000).toFixed(0)} s)`),
    });
  } finally {
    await sandbox.close();
  }
  // The task id is a hash of the data; the file names the task as the spec does, for readers.
  const nameOf = new Map(tasks.map((t) => [t.id, t.spec.name]));
  // a run that gave no verdict (unscored: the sandbox's backstop) is no outcome to measure on
  const out: ExecutedSample[] = sampled.flatMap((s, i) => (runs[i].status === 'unscored' ? [] : [{ ...toExecutedSample({ ...s, run: runs[i] }), taskId: s.taskId }]));
  mkdirSync(dirname(resolve(values.out)), { recursive: true });
  writeExecutedSamples(resolve(values.out), out);
  const failed = out.filter((o) => o.status !== 'ok').length;
  console.log(`wrote ${out.length} executed samples (${failed} failed) on ${tasks.map((t) => `${nameOf.get(t.id)} = ${t.id}`).join(', ')} to ${values.out}`);
}

main().catch((e: unknown) => {
  if (e instanceof InputError || e instanceof ModelIntegrityError) {
    console.error(`own-data-samples: ${e.message}`);
    process.exit(2);
  }
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
