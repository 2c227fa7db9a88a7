// `npm run build:models`: the models pipeline (src/pipeline/run-pipeline.ts) from the command line
// (USAGE below lists the flags).
// Sampled programs run only in the browser sandbox (headless Chromium), never in Node.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_NAMES, type ConfigName } from '../model/config.ts';
import { nodeFileLoader } from '../tasks/node-file-loader.ts';
import { TaskRegistry } from '../tasks/task-registry.ts';
import type { Stage } from '../pipeline/run-pipeline.ts';
import { BuildInputError, STAGES, fullSettings, quickSettings, runPipeline } from '../pipeline/run-pipeline.ts';
import { openBrowserSandbox } from './browser-sandbox.ts';
import { InputError, optionalPositiveInt, parseFlags } from './cli-input.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const USAGE = `usage: npm run build:models -- [options]
  --seed N                 seed of every stage (default 1)
  --config NAME            model size: ${CONFIG_NAMES.join(', ')} (default small)
  --stage S                all (default), one of ${STAGES.join(', ')}, or FROM..TO
  --quick                  a tiny build for checks (into .cache/models-quick unless --out)
  --sft-steps N            SFT optimiser steps (default: the settings')
  --wm-steps N             world-model optimiser steps (not with --wm-epochs)
  --wm-epochs E            world-model epochs over its data, which fix its steps (not with --wm-steps)
  --wm-loss L              mse, bce or pairwise
  --wm-pair-weight X       weight of the pairwise term (needs --wm-loss pairwise)
  --wm-rows-per-task K     rows of one task in a world-model batch (2 to the batch size)
  --wm-target T            percentile (default) or task-centred
  --wm-lr X                world-model peak learning rate
  --validate-only TAG      the wm stage stops after its leave-tasks-out validation, written to
                           wm-validation-TAG.json (compares settings without fitting the final model)
  --samples-per-task K     policy programs a training card at each temperature (the world model's data)
  --splice-per-task K      programs spliced like the policy's slips, a task
  --composed-per-task K    composed programs a task in the world model's data
  --context N              context length in tokens
  --threads N              CPU threads of the engine
  --out DIR                where the models go (default public/models)
  --work DIR               intermediate files, kept for resuming (default .cache/models-build)
  --world-model-from DIR   export: take DIR's world model (the same tokenizer required)
  --help                   this list`;

function stagesFrom(spec: string): Stage[] {
  if (spec === 'all') return [...STAGES];
  const [from, to = from] = spec.split('..');
  const a = STAGES.indexOf(from as Stage);
  const b = STAGES.indexOf(to as Stage);
  if (a < 0 || b < 0 || b < a) throw new InputError(`--stage ${spec}: use all, one of ${STAGES.join(', ')}, or from..to`);
  return STAGES.slice(a, b + 1);
}

async function main(): Promise<void> {
  const { values } = parseFlags({
    options: {
      seed: { type: 'string', default: '1' },
      config: { type: 'string', default: 'small' },
      stage: { type: 'string', default: 'all' },
      quick: { type: 'boolean', default: false },
      'sft-steps': { type: 'string' },
      'wm-steps': { type: 'string' },
      'wm-epochs': { type: 'string' },
      'wm-loss': { type: 'string' },
      'wm-pair-weight': { type: 'string' },
      'wm-rows-per-task': { type: 'string' },
      'wm-target': { type: 'string' },
      'wm-lr': { type: 'string' },
      'validate-only': { type: 'string' },
      'samples-per-task': { type: 'string' },
      'splice-per-task': { type: 'string' },
      'composed-per-task': { type: 'string' },
      context: { type: 'string' },
      threads: { type: 'string' },
      out: { type: 'string' },
      work: { type: 'string' },
      'world-model-from': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new InputError(`--seed must be an integer, got ${values.seed}`);
  if (!(CONFIG_NAMES as readonly string[]).includes(values.config)) throw new InputError(`--config must be one of ${CONFIG_NAMES.join(', ')}, got ${values.config}`);
  const settings = values.quick ? quickSettings(seed) : fullSettings(seed, values.config as ConfigName);
  const sftSteps = optionalPositiveInt(values['sft-steps'], '--sft-steps');
  if (sftSteps !== undefined) settings.sft.steps = sftSteps;
  if (values['wm-steps'] !== undefined && values['wm-epochs'] !== undefined) throw new InputError('--wm-steps and --wm-epochs both set the world model\'s training length: give one');
  const wmSteps = optionalPositiveInt(values['wm-steps'], '--wm-steps');
  if (wmSteps !== undefined) {
    settings.wm.steps = wmSteps;
    delete settings.wm.epochs;
  }
  const wmEpochs = optionalPositiveInt(values['wm-epochs'], '--wm-epochs');
  if (wmEpochs !== undefined) settings.wm.epochs = wmEpochs;
  if (values['wm-loss']) {
    const loss = values['wm-loss'];
    if (loss !== 'mse' && loss !== 'bce' && loss !== 'pairwise') throw new InputError(`--wm-loss must be mse, bce or pairwise, got ${loss}`);
    settings.wm.loss = loss;
  }
  if (values['wm-pair-weight'] !== undefined) {
    if (settings.wm.loss !== 'pairwise') throw new InputError('--wm-pair-weight weighs the pairwise term: it needs --wm-loss pairwise');
    const w = Number(values['wm-pair-weight']);
    if (!(w >= 0 && Number.isFinite(w)) || values['wm-pair-weight'].trim() === '') throw new InputError(`--wm-pair-weight must be a number >= 0, got ${values['wm-pair-weight']}`);
    settings.wm.pairWeight = w;
  }
  if (values['wm-rows-per-task'] !== undefined) {
    const k = Number(values['wm-rows-per-task']);
    if (!(Number.isInteger(k) && k >= 2 && k <= settings.wm.batchSize)) throw new InputError(`--wm-rows-per-task must be a whole number from 2 to the batch size ${settings.wm.batchSize}, got ${values['wm-rows-per-task']}`);
    settings.wm.rowsPerTask = k;
  }
  if (values['wm-target'] !== undefined && values['wm-target'] !== 'percentile') {
    if (values['wm-target'] !== 'task-centred') throw new InputError(`--wm-target must be percentile or task-centred, got ${values['wm-target']}`);
    settings.wm.target = 'task-centred';
  }
  if (values['wm-lr']) {
    const lr = Number(values['wm-lr']);
    if (!(lr > 0)) throw new InputError(`--wm-lr must be a positive number, got ${values['wm-lr']}`);
    settings.wm.peakLr = lr;
  }
  const perTask = optionalPositiveInt(values['samples-per-task'], '--samples-per-task');
  if (perTask !== undefined) settings.samples.perTask = perTask;
  if (values['splice-per-task']) {
    const k = Number(values['splice-per-task']);
    if (!(Number.isInteger(k) && k >= 0)) throw new InputError(`--splice-per-task must be a whole number, got ${values['splice-per-task']}`);
    settings.samples.splicePerTask = k;
  }
  if (values['composed-per-task']) {
    const k = Number(values['composed-per-task']);
    if (!(Number.isInteger(k) && k >= 0)) throw new InputError(`--composed-per-task must be a whole number, got ${values['composed-per-task']}`);
    settings.samples.composedPerTask = k;
  }
  const context = optionalPositiveInt(values.context, '--context');
  if (context !== undefined) settings.contextLength = context;
  const threads = optionalPositiveInt(values.threads, '--threads');
  if (threads !== undefined) settings.threads = threads;
  const stages = stagesFrom(values.stage);
  const t0 = performance.now();
  await runPipeline(
    {
      root,
      workDir: resolve(values.work ?? resolve(root, values.quick ? '.cache/models-build-quick' : '.cache/models-build')),
      outDir: resolve(values.out ?? resolve(root, values.quick ? '.cache/models-quick' : 'public/models')),
      registry: new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks'))),
      settings,
      openSandbox: (size) => openBrowserSandbox({ size, spares: 0 }),
      ...(values['world-model-from'] ? { worldModelFrom: resolve(values['world-model-from']) } : {}),
      ...(values['validate-only'] ? { validateOnly: values['validate-only'] } : {}),
      log: (line) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(5)} s] ${line}`),
    },
    stages,
  );
}

main().catch((e: unknown) => {
  if (e instanceof InputError || e instanceof BuildInputError) {
    console.error(`build-models: ${e.message}`);
    process.exit(2);
  }
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
