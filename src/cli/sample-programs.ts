// `npm run sample`: programs from a models folder's SFT policy on the suite's cards, executed in the
// browser sandbox (headless Chromium) and graded here; written as executed samples (JSON lines) for
// `npm run wm-eval`. Outcomes are cached in --work, so a rerun executes only what is new.
// USAGE below lists the flags.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCheckpoint } from '../model/checkpoint.ts';
import { ModelIntegrityError } from '../model/model-integrity.ts';
import { executeWithStore, OutcomeStore } from '../pipeline/outcome-store.ts';
import { runAndGrade } from '../pipeline/graded-runs.ts';
import { samplePrograms } from '../pipeline/policy-samples.ts';
import { sampleSummary } from '../pipeline/sample-summary.ts';
import { toExecutedSample, writeExecutedSamples } from '../pipeline/executed-samples.ts';
import { nodeFileLoader } from '../tasks/node-file-loader.ts';
import { TaskRegistry } from '../tasks/task-registry.ts';
import { deriveSeed } from '../primitives/random.ts';
import { openBrowserSandbox } from './browser-sandbox.ts';
import { InputError, optionalPositiveInt, parseFlags } from './cli-input.ts';
import { readVerifiedModels } from './model-files.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const USAGE = `usage: npm run sample -- --out FILE.jsonl [options]
  --out FILE.jsonl      where the executed samples go (required)
  --models DIR          the models folder whose SFT policy samples (default public/models)
  --split S             heldout (default) or train: which cards
  --per-task N          programs a card (default 16)
  --temperature T       sampling temperature (default 0.6)
  --seed N              sampling seed (default 1)
  --timeout S           seconds a program may run (default 20)
  --workers N           sandbox workers (default 2)
  --work DIR            the outcome cache: a rerun executes only what is new (default .cache/sample-outcomes)
  --help                this list`;

async function main(): Promise<void> {
  const { values } = parseFlags({
    options: {
      models: { type: 'string', default: 'public/models' },
      split: { type: 'string', default: 'heldout' },
      'per-task': { type: 'string', default: '16' },
      temperature: { type: 'string', default: '0.6' },
      seed: { type: 'string', default: '1' },
      timeout: { type: 'string', default: '20' },
      workers: { type: 'string', default: '2' },
      work: { type: 'string', default: '.cache/sample-outcomes' },
      out: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.out) throw new InputError('--out FILE.jsonl is required');
  if (values.split !== 'heldout' && values.split !== 'train') throw new InputError(`--split must be heldout or train, got ${values.split}`);
  const perTask = Number(values['per-task']);
  const temperature = Number(values.temperature);
  const seed = Number(values.seed);
  const timeoutMs = Math.round(Number(values.timeout) * 1000);
  if (!(perTask >= 1) || !(temperature > 0) || !Number.isInteger(seed) || !(timeoutMs > 0)) throw new InputError('--per-task, --temperature, --seed and --timeout must be positive numbers');
  const workers = optionalPositiveInt(values.workers, '--workers');
  // the policy is checked against its folder's manifest, as predict and wm-eval check theirs
  const { files } = await readVerifiedModels(resolve(values.models), root);
  const { model, tokenizer } = loadCheckpoint(files['policy.ckpt']);
  if (!tokenizer) throw new InputError(`${values.models}/policy.ckpt carries no tokenizer`);
  const registry = new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks')));
  const tasks = (await registry.list()).filter((t) => t.split === values.split && t.role === 'scored');
  const t0 = performance.now();
  const sampled = await samplePrograms(model, tokenizer, tasks, { seed: deriveSeed(seed + 7, Math.round(temperature * 100)), perTask, temperature });
  console.log(`sampled ${sampled.length} programs on ${tasks.length} ${values.split} cards in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  mkdirSync(resolve(values.work), { recursive: true });
  const store = new OutcomeStore(join(resolve(values.work), 'outcomes.jsonl'));
  const sandbox = await openBrowserSandbox({ size: workers });
  let runs;
  try {
    runs = await executeWithStore(store, sampled, timeoutMs, (chunk) => runAndGrade(registry, chunk, sandbox.runMany, timeoutMs), {
      log: (done, total) => console.log(`executed ${done}/${total} (${((performance.now() - t0) / 1000).toFixed(0)} s)`),
    });
  } finally {
    await sandbox.close();
  }
  // a run that gave no verdict (unscored: the sandbox's backstop) is no outcome to learn or measure on
  const all = sampled.map((s, i) => ({ ...s, temperature, run: runs[i] }));
  const records = all.filter((r) => r.run.status !== 'unscored');
  if (records.length < all.length) console.log(`left out ${all.length - records.length} unscored run(s): the sandbox's backstop stopped them twice`);
  writeExecutedSamples(resolve(values.out), records.map(toExecutedSample));
  console.log(JSON.stringify(sampleSummary(records)));
  console.log(`wrote ${records.length} executed samples to ${values.out}`);
}

main().catch((e: unknown) => {
  console.error(`sample: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(e instanceof InputError || e instanceof ModelIntegrityError ? 2 : 1);
});
