// `npm run predict`: the frozen world model's guess of a program's score (its predicted leaderboard
// percentile), from the command line, without running the program. Beside `npm run score`, which
// runs it for real. The model files are checked against their manifest before use.
//   npm run predict -- --task <id> --program <file.py> [--json] [--models DIR]
//   npm run predict -- --csv <file.csv> --target <column> --metric <metric> --program <file.py>
//                      [--type <t>] [--positive <class>] [--json] [--models DIR]
//   npm run predict -- --batch <file.jsonl> [--models DIR]
//       each line {"task": "<suite task id>", "program": "<source>"}; one JSON line out per input,
//       in input order; a bad line gets {"line": n, "error": ...} and the exit status is 1 at the end.
// --verifier (any mode): the free verifier of wmrl-static reads each program too (parses it, never
// runs it); its answer is added ("verifier": {"ok", "reason"}), and a rejected program's score is 0,
// the reward wmrl-static gives it ("worldModelScore" keeps the world model's own guess).
import { dirname, relative, resolve } from 'node:path';
import { Tokenizer, type TokenizerJSON } from '../model/tokenizer.ts';
import { WorldModelRunner } from '../engine/onnx/world-model-runner.ts';
import { createCustomTask } from '../tasks/byo-data.ts';
import { nodeFileLoader } from '../tasks/node-file-loader.ts';
import { TaskDataError } from '../tasks/task-errors.ts';
import { TaskRegistry } from '../tasks/task-registry.ts';
import { InputError, parseFlags, readCsvInput, readInput } from './cli-input.ts';
import { readVerifiedModels } from './model-files.ts';
import { ModelIntegrityError } from '../model/model-integrity.ts';
import { NodeStaticVerifier } from './node-verifier.ts';
import type { StaticCheck } from '../training/ports.ts';

import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const USAGE =
  'usage: npm run predict -- --task <id> --program <file.py> [--json] [--models DIR] [--verifier]\n' +
  '       npm run predict -- --csv <file.csv> --target <column> --metric <metric> --program <file.py> [--type <t>] [--positive <class>] [--json] [--verifier]\n' +
  '       npm run predict -- --batch <file.jsonl> [--models DIR] [--verifier]   (lines {"task": "<id>", "program": "<source>"})';

interface Job {
  line?: number;
  task: string;
  card: string;
  program: string;
}

async function openWorldModel(dir: string): Promise<{ runner: WorldModelRunner; label: string }> {
  const { manifest, files } = await readVerifiedModels(dir, root);
  const tokenizer = Tokenizer.fromJSON(JSON.parse(new TextDecoder().decode(files['tokenizer.json'])) as TokenizerJSON);
  const runner = await WorldModelRunner.create(files['world-model.onnx'], tokenizer, manifest.config, { prefer: 'wasm' });
  return { runner, label: `${relative(root, dir) || "."} (world-model.onnx ${manifest.files.find((f) => f.name === 'world-model.onnx')?.sha256.slice(0, 8)})` };
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseFlags({
      options: {
        task: { type: 'string' },
        csv: { type: 'string' },
        target: { type: 'string' },
        metric: { type: 'string' },
        type: { type: 'string' },
        positive: { type: 'string' },
        program: { type: 'string' },
        batch: { type: 'string' },
        models: { type: 'string', default: 'public/models' },
        json: { type: 'boolean', default: false },
        verifier: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (e) {
    throw new InputError(`${(e as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const modes = [values.task, values.csv, values.batch].filter((v) => v !== undefined).length;
  if (modes !== 1) throw new InputError(`give exactly one of --task, --csv or --batch\n${USAGE}`);
  if (!values.batch && !values.program) throw new InputError('--program <file.py> is required');
  if (values.csv && (!values.target || !values.metric)) throw new InputError('--csv needs --target <column> and --metric <metric>');
  const registry = new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks')));
  const known = new Map((await registry.list({ includeSmoke: true })).map((t) => [t.id, t.card]));
  const cardOf = (id: string): string => {
    const card = known.get(id);
    if (card === undefined) throw new InputError(`unknown task ${JSON.stringify(id)} (npm run score -- --list shows the suite's tasks)`);
    return card;
  };

  // Everything the user gave is checked before the model loads; bad batch lines answer on their own.
  const jobs: Job[] = [];
  const bad: { line: number; error: string }[] = [];
  if (values.batch) {
    const lines = readInput(values.batch, 'batch file').split('\n');
    lines.forEach((text, i) => {
      if (!text.trim()) return;
      const line = i + 1;
      try {
        let o: unknown;
        try {
          o = JSON.parse(text);
        } catch {
          throw new InputError('not JSON');
        }
        const { task, program } = (o ?? {}) as { task?: unknown; program?: unknown };
        if (typeof task !== 'string' || typeof program !== 'string') throw new InputError('needs string fields "task" and "program"');
        jobs.push({ line, task, card: cardOf(task), program });
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        bad.push({ line, error: e.message });
      }
    });
  } else if (values.csv) {
    const built = createCustomTask({ csv: readCsvInput(values.csv), target: values.target!, metric: values.metric!, type: values.type, positive: values.positive });
    jobs.push({ task: built.meta.id, card: built.meta.card, program: readInput(values.program!, 'program file') });
  } else {
    jobs.push({ task: values.task!, card: cardOf(values.task!), program: readInput(values.program!, 'program file') });
  }

  const answers = new Map<number, string>(bad.map((b) => [b.line, JSON.stringify({ line: b.line, error: b.error })]));
  if (jobs.length > 0) {
    const { runner, label } = await openWorldModel(resolve(values.models));
    try {
      const scored: number[] = [];
      for (let s = 0; s < jobs.length; s += 32) scored.push(...(await runner.score(jobs.slice(s, s + 32))).scores);
      const checks: StaticCheck[] | null = values.verifier ? await (await NodeStaticVerifier.create()).check(jobs.map((j) => j.program)) : null;
      // with the verifier: a rejected program scores 0, as in wmrl-static; the world model's guess stays beside it
      const fields = (i: number) =>
        checks ? { score: checks[i].ok ? scored[i] : 0, worldModelScore: scored[i], verifier: checks[i] } : { score: scored[i] };
      if (!values.batch) {
        const j = jobs[0];
        const out = { task: j.task, ...fields(0), model: label, backend: runner.backend };
        if (values.json) console.log(JSON.stringify(out));
        else {
          console.log(`${j.task}: predicted percentile ${scored[0].toFixed(3)} (world model ${label}, ${runner.backend}; not run — npm run score runs it)`);
          if (checks) console.log(checks[0].ok ? 'free verifier: passes (it compiles, and every toolkit constructor takes its keywords)' : `free verifier: rejected, so wmrl-static's reward is 0: ${checks[0].reason}`);
        }
      }
      jobs.forEach((j, i) => answers.set(j.line!, JSON.stringify({ line: j.line, task: j.task, ...fields(i) })));
    } finally {
      await runner.release();
    }
  }
  if (values.batch) for (const line of [...answers.keys()].sort((a, b) => a - b)) console.log(answers.get(line));
  if (bad.length > 0) {
    console.error(`${bad.length} of ${bad.length + jobs.length} lines could not be scored (see their "error")`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof InputError || e instanceof TaskDataError || e instanceof ModelIntegrityError) {
      console.error(`predict: ${e.message}`);
      process.exit(2);
    }
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
