// `npm run wm-eval`: the world model beside its baselines (src/pipeline/wm-baselines.ts) and its
// validation table (src/pipeline/wm-report.ts) on stored executed samples: programs a policy wrote
// on held-out tasks, run for real, never trained on.
// USAGE below lists the flags.
// The baselines (constant, compile(), the static verifier, family lookups) and every predictor's
// reading onto the authors' status ladder are fitted on the training tasks' programs the build ran
// (src/pipeline/wm-fit-set.ts: composed and broken-on-purpose programs, outcomes from --outcomes).
// Each population is reported pooled and, where it mixes temperatures, at the temperature RL samples at.
// Without --samples: the models folder's own heldout-samples.jsonl (its SFT policy's programs) and
// every file in data/wm-eval/ (programs of earlier policies: the world model must read failure from
// the code, not one policy's habits).
// --verifier adds, per file, the world model behind the free verifier of wmrl-static: a program
// that static_check.py rejects is predicted 0 (what that preset's reward is), the others keep the
// world model's score; and how many failed and valid programs the verifier rejected.
// --write-lookup writes the family x task-type lookup, fitted on the same fitting set as its row here, into
// the models folder as family-type-lookup.json and lists it in its manifest: the paper-wmrl-lookup
// preset scores programs with it in the world model's place.
// --write-reading writes the world model's reading onto the authors' ladder (ladder-reading.ts, fitted
// on the fitting set, without the gate) into the models folder as ladder-reading.json and lists it in
// its manifest: the Playground reads the status and quality the world model's score stands for from it.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelIntegrityError } from '../model/model-integrity.ts';
import { WorldModelRunner } from '../engine/onnx/world-model-runner.ts';
import { Tokenizer, type TokenizerJSON } from '../model/tokenizer.ts';
import { readExecutedSamples, type ExecutedSample } from '../pipeline/executed-samples.ts';
import { reportMarkdown, worldModelReport, type WmReport } from '../pipeline/wm-report.ts';
import { baselineTableMarkdown, populationCounts, type PopulationCounts, type PredictorRow } from '../pipeline/baseline-table.ts';
import { baselineRows, type CheckedProgram } from '../pipeline/wm-baselines.ts';
import { ladderReward, ladderStatus } from '../pipeline/status-ladder.ts';
import { fitLadderReading, ladderReadingJSON, READING_FILE } from '../pipeline/ladder-reading.ts';
import { addListedFile } from '../pipeline/manifest.ts';
import { cardTaskType } from '../pipeline/sample-summary.ts';
import { fitSetPrograms, type FitSetSettings } from '../pipeline/wm-fit-set.ts';
import { familyTypeLookupFile, fitFamilyTypeLookup, LOOKUP_FILE } from '../pipeline/family-type-lookup.ts';
import { OutcomeStore } from '../pipeline/outcome-store.ts';
import { deriveSeed, mulberry32, sampleIndices } from '../primitives/random.ts';
import { nodeFileLoader } from '../tasks/node-file-loader.ts';
import { TaskRegistry } from '../tasks/task-registry.ts';
import { InputError, parseFlags } from './cli-input.ts';
import { readVerifiedModels, verifyListedFile } from './model-files.ts';
import { NodeStaticVerifier } from './node-verifier.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** One program per distinct (task, text), with a true score (tasks without a leaderboard have none). */
function population(samples: readonly ExecutedSample[]): ExecutedSample[] {
  const seen = new Set<string>();
  return samples.filter((s) => {
    const k = `${s.taskId}\u0000${s.program}`;
    if (seen.has(k) || Number.isNaN(s.y)) return false;
    seen.add(k);
    return true;
  });
}

const USAGE = `usage: npm run wm-eval -- [options]
  --models DIR            the models folder (default public/models)
  --samples FILE.jsonl    executed samples to read, repeatable (default: DIR/heldout-samples.jsonl and data/wm-eval/)
  --outcomes FILE         the build's outcome store, for the baselines' fitting set (default data/models-build/outcomes.jsonl)
  --fit-programs N        programs of the fitting set, at least 10 (default 1000)
  --seed N                seed of the fitting set and the bootstrap (default 1)
  --resamples N           task-bootstrap resamples of each interval (default 1000)
  --verifier              add the world model behind the free verifier (wmrl-static's reward)
  --write-lookup          write the family x task-type lookup into DIR (paper-wmrl-lookup scores with it)
  --write-reading         write the world model's reading onto the authors' ladder into DIR (the Playground's)
  --json                  print the report as JSON
  --help                  this list`;

async function main(): Promise<void> {
  const { values } = parseFlags({
    options: {
      models: { type: 'string', default: 'public/models' },
      samples: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      verifier: { type: 'boolean', default: false },
      'write-reading': { type: 'boolean', default: false },
      outcomes: { type: 'string', default: 'data/models-build/outcomes.jsonl' },
      'fit-programs': { type: 'string', default: '1000' },
      'write-lookup': { type: 'boolean' },
      seed: { type: 'string', default: '1' },
      resamples: { type: 'string', default: '1000' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const seed = Number(values.seed);
  const fitPrograms = Number(values['fit-programs']);
  if (!Number.isInteger(fitPrograms) || fitPrograms < 10) throw new InputError('--fit-programs must be an integer >= 10');
  const resamples = Number(values.resamples);
  if (!Number.isInteger(seed) || !Number.isInteger(resamples) || resamples < 1) throw new InputError('--seed must be an integer and --resamples a positive integer');
  const outcomesFile = resolve(values.outcomes);
  if (!existsSync(outcomesFile)) throw new InputError(`outcome store not found: ${values.outcomes} (the baselines are fitted on the training programs it holds)`);
  const dir = resolve(values.models);
  let files = values.samples?.map((f) => resolve(f));
  if (!files) {
    const own = join(dir, 'heldout-samples.jsonl');
    const earlier = join(root, 'data/wm-eval');
    files = [...(existsSync(own) ? [own] : []), ...(existsSync(earlier) ? readdirSync(earlier).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(earlier, f)) : [])];
  }
  if (files.length === 0) throw new InputError(`no executed samples: ${relative(root, dir)}/heldout-samples.jsonl is missing and data/wm-eval/ is empty (give --samples FILE.jsonl; npm run sample writes one)`);
  for (const f of files) if (!existsSync(f)) throw new InputError(`samples file not found: ${f}`);
  const readPopulation = (f: string): ExecutedSample[] => {
    try {
      return population(readExecutedSamples(f));
    } catch (e) {
      throw new InputError((e as Error).message);
    }
  };
  // The models folder's files first, and its own samples against its manifest before they are read;
  // then every population file is read (and refused if broken, or if it holds a training task's
  // programs) before anything expensive starts.
  const { manifest, files: bytes } = await readVerifiedModels(dir, root);
  for (const f of files) if (dirname(f) === dir) await verifyListedFile(dir, basename(f), manifest, root);
  const populations = files.map((f) => ({ f, items: readPopulation(f) }));
  const registry = new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks')));
  const suite = await registry.list({ includeSmoke: true });
  const trainIds = new Set(suite.filter((t) => t.split === 'train').map((t) => t.id));
  for (const { f, items } of populations) {
    const leaked = items.find((i) => trainIds.has(i.taskId));
    if (leaked) throw new InputError(`${relative(root, f)}: task ${leaked.taskId} is a training task, in the fitting set; the baselines must be measured on other tasks`);
  }
  const tokenizer = Tokenizer.fromJSON(JSON.parse(new TextDecoder().decode(bytes['tokenizer.json'])) as TokenizerJSON);
  const runner = await WorldModelRunner.create(bytes['world-model.onnx'], tokenizer, manifest.config, { prefer: 'wasm' });
  const verifier = await NodeStaticVerifier.create();
  const rlTemperature = (manifest as unknown as { training?: { samples?: { heldoutTemperature?: number } } }).training?.samples?.heldoutTemperature ?? 0.6;
  const reports: { samples: string; report: WmReport; verified?: { report: WmReport; rejectedFailed: number; rejectedValid: number } }[] = [];
  let fitSummary = { programs: 0, of: 0, failed: 0, missing: 0 };
  const baselines: { population: string; samples: string; temperature: number | null; counts: PopulationCounts; rows: PredictorRow[] }[] = [];
  /** Every predictor's inputs for each program: the checks' answers and the world model's score. */
  const check = async (items: readonly ExecutedSample[]): Promise<{ checked: CheckedProgram[]; checks: Awaited<ReturnType<NodeStaticVerifier['check']>>; pred: number[] }> => {
    const pred: number[] = [];
    for (let s = 0; s < items.length; s += 32) pred.push(...(await runner.score(items.slice(s, s + 32).map((i) => ({ card: i.card, program: i.program })))).scores);
    const checks = await verifier.check(items.map((i) => i.program));
    const checked = items.map((i, k): CheckedProgram => {
      // The card's first sentence states the type, for suite tasks and own-data tasks alike.
      const taskType = cardTaskType(i.card);
      if (!taskType) throw new InputError(`task ${i.taskId}: its card does not state a task type (${JSON.stringify(i.card.slice(0, 40))})`);
      // The verifier compiles first; any other rejection means the program compiled.
      const compiles = checks[k].ok || !(checks[k].reason ?? '').startsWith('does not compile');
      const status = ladderStatus(i.program, compiles, i.status);
      return { taskId: i.taskId, valid: i.status === 'ok', y: i.y, status, reward: ladderReward(status, i.y), program: i.program, taskType, compiles, verifierOk: checks[k].ok, wm: pred[k] };
    });
    return { checked, checks, pred };
  };
  try {
    const training = (manifest as unknown as { training?: FitSetSettings }).training;
    if (!training?.samples) throw new InputError(`${relative(root, dir)}/manifest.json does not record the build's settings (training), so its training programs cannot be rebuilt`);
    const store = new OutcomeStore(outcomesFile);
    const fitSet = fitSetPrograms(suite, training, (k) => store.get(k));
    if (fitSet.programs.length === 0) throw new InputError(`${values.outcomes} holds none of the build's training programs`);
    // A seeded subsample keeps the run to minutes on a busy 2-core machine: every fitting program is
    // scored by the world model and checked by the verifier.
    const picked = sampleIndices(mulberry32(deriveSeed(seed, 31)), fitSet.programs.length, Math.min(fitPrograms, fitSet.programs.length)).sort((a, b) => a - b).map((i) => fitSet.programs[i]);
    fitSummary = { programs: picked.length, of: fitSet.programs.length, failed: picked.filter((p) => p.status !== 'ok').length, missing: fitSet.missing };
    console.error(`wm-eval: fitting set ${picked.length} of ${fitSet.programs.length} training-task programs; scoring and checking them`);
    const fitItems = picked.map((p, index): ExecutedSample => ({ taskId: p.taskId, card: p.card, index, temperature: Number.NaN, program: p.program, stopped: true, status: p.status, y: p.y, seconds: 0 }));
    const fit = (await check(fitItems)).checked;
    if (values['write-reading']) {
      const rows = fit.map((p) => ({ score: p.wm, status: p.status, reward: p.reward, compiles: p.compiles, blank: p.program.trim() === '' }));
      const fittedOn = `the world model's scores on ${picked.length} training-task programs the build ran (${fitSummary.failed} failed; a seeded subsample of ${fitSet.programs.length}; in-sample: it trained on them)`;
      const file = ladderReadingJSON(fitLadderReading(rows), fittedOn);
      const entry = addListedFile(dir, READING_FILE, new TextEncoder().encode(JSON.stringify(file, null, 1) + '\n'), "the world model's score read onto the authors' status ladder and quality bucket (src/pipeline/ladder-reading.ts; npm run wm-eval -- --write-reading)");
      console.error(`wm-eval: wrote ${relative(root, join(dir, READING_FILE))} (${entry.bytes} bytes) and listed it in the manifest`);
    }
    if (values['write-lookup']) {
      const fittedOn = `${picked.length} training-task programs the build ran (composed and broken on purpose; ${fitSummary.failed} failed; a subsample of ${fitSet.programs.length} drawn with seed ${seed}), the fitting set of wm-eval's baseline rows`;
      const file = familyTypeLookupFile(fitFamilyTypeLookup(fit), fittedOn);
      const entry = addListedFile(dir, LOOKUP_FILE, new TextEncoder().encode(JSON.stringify(file, null, 1) + '\n'), "the family x task-type lookup wm-eval reports, as a scorer in the world model's place (src/pipeline/family-type-lookup.ts; npm run wm-eval -- --write-lookup)");
      console.error(`wm-eval: wrote ${relative(root, join(dir, LOOKUP_FILE))} (${entry.bytes} bytes) and listed it in the manifest`);
    }
    for (const { f, items } of populations) {
      console.error(`wm-eval: ${relative(root, f)}: ${items.length} programs`);
      const { checked, checks, pred } = await check(items);
      const temps = [...new Set(items.map((i) => i.temperature))];
      const name = basename(f, '.jsonl');
      baselines.push({ population: `${name}, all temperatures (${temps.sort().join(', ')})`, samples: relative(root, f), temperature: null, counts: populationCounts(checked), rows: baselineRows(fit, checked, { seed, resamples }) });
      if (temps.length > 1 && temps.includes(rlTemperature)) {
        const at = checked.filter((_, k) => items[k].temperature === rlTemperature);
        baselines.push({ population: `${name}, T ${rlTemperature} (RL)`, samples: relative(root, f), temperature: rlTemperature, counts: populationCounts(at), rows: baselineRows(fit, at, { seed, resamples }) });
      }
      const scored = items.map((i, k) => ({ taskId: i.taskId, valid: i.status === 'ok', y: i.y, predicted: pred[k] }));
      const entry: (typeof reports)[number] = { samples: relative(root, f), report: worldModelReport(scored) };
      if (values.verifier) {
        const rejected = (valid: boolean) => scored.filter((s, k) => s.valid === valid && !checks[k].ok).length;
        entry.verified = {
          report: worldModelReport(scored.map((s, k) => (checks[k].ok ? s : { ...s, predicted: 0 }))),
          rejectedFailed: rejected(false),
          rejectedValid: rejected(true),
        };
      }
      reports.push(entry);
    }
  } finally {
    await runner.release();
  }
  if (values.json) {
    console.log(JSON.stringify({ models: relative(root, dir), fit: fitSummary, reports, baselines }, null, 1));
    return;
  }
  console.log(`world model: ${relative(root, dir)}/world-model.onnx; baselines and ladder readings fitted on ${fitSummary.programs} (seeded subsample of ${fitSummary.of}) training-task programs the build ran, ${fitSummary.failed} of them failed\n`);
  for (const b of baselines) console.log(baselineTableMarkdown(b.population, b.counts, b.rows));
  for (const r of reports) {
    const name = basename(r.samples, '.jsonl');
    console.log(reportMarkdown(name, r.report));
    if (r.verified) {
      console.log(`The free verifier rejected ${r.verified.rejectedFailed} of ${r.report.failed} failed programs and ${r.verified.rejectedValid} of ${r.report.valid} that ran.\n`);
      console.log(reportMarkdown(`${name} + free verifier`, r.verified.report));
    }
  }
}

main().catch((e: unknown) => {
  if (e instanceof InputError || e instanceof ModelIntegrityError) {
    console.error(`wm-eval: ${e.message}`);
    process.exit(2);
  }
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
