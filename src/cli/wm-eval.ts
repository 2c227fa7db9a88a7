// `npm run wm-eval`: the world model's validation table (src/pipeline/wm-report.ts) on stored
// executed samples: programs a policy wrote on held-out tasks, run for real, never trained on.
//   npm run wm-eval -- [--models public/models] [--samples FILE.jsonl ...] [--verifier] [--json]
// Without --samples: the models folder's own heldout-samples.jsonl (its SFT policy's programs) and
// every file in data/wm-eval/ (programs of earlier policies: the world model must read failure from
// the code, not one policy's habits).
// --verifier adds, per file, the world model behind the free verifier of wmrl-static: a program
// that static_check.py rejects is predicted 0 (what that preset's reward is), the others keep the
// world model's score; and how many failed and valid programs the verifier rejected.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ModelIntegrityError } from '../model/model-integrity.ts';
import { WorldModelRunner } from '../model/onnx/world-model-runner.ts';
import { Tokenizer, type TokenizerJSON } from '../model/tokenizer.ts';
import { readExecutedSamples, type ExecutedSample } from '../pipeline/executed-samples.ts';
import { reportMarkdown, worldModelReport, type WmReport } from '../pipeline/wm-report.ts';
import { InputError } from './cli-input.ts';
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      models: { type: 'string', default: 'public/models' },
      samples: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      verifier: { type: 'boolean', default: false },
    },
  });
  const dir = resolve(values.models);
  let files = values.samples?.map((f) => resolve(f));
  if (!files) {
    const own = join(dir, 'heldout-samples.jsonl');
    const earlier = join(root, 'data/wm-eval');
    files = [...(existsSync(own) ? [own] : []), ...(existsSync(earlier) ? readdirSync(earlier).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(earlier, f)) : [])];
  }
  if (files.length === 0) throw new InputError(`no executed samples: ${relative(root, dir)}/heldout-samples.jsonl is missing and data/wm-eval/ is empty (give --samples FILE.jsonl; npm run sample writes one)`);
  for (const f of files) if (!existsSync(f)) throw new InputError(`samples file not found: ${f}`);
  const { manifest, files: bytes } = await readVerifiedModels(dir, root);
  // the models folder's own samples are listed in its manifest: checked before they are read
  for (const f of files) if (dirname(f) === dir) await verifyListedFile(dir, basename(f), manifest, root);
  const tokenizer = Tokenizer.fromJSON(JSON.parse(new TextDecoder().decode(bytes['tokenizer.json'])) as TokenizerJSON);
  const runner = await WorldModelRunner.create(bytes['world-model.onnx'], tokenizer, manifest.config, { prefer: 'wasm' });
  const verifier = values.verifier ? await NodeStaticVerifier.create() : null;
  const reports: { samples: string; report: WmReport; verified?: { report: WmReport; rejectedFailed: number; rejectedValid: number } }[] = [];
  try {
    for (const f of files) {
      let items: ExecutedSample[];
      try {
        items = population(readExecutedSamples(f));
      } catch (e) {
        throw new InputError((e as Error).message);
      }
      const pred: number[] = [];
      for (let s = 0; s < items.length; s += 32) pred.push(...(await runner.score(items.slice(s, s + 32).map((i) => ({ card: i.card, program: i.program })))).scores);
      const scored = items.map((i, k) => ({ taskId: i.taskId, valid: i.status === 'ok', y: i.y, predicted: pred[k] }));
      const entry: (typeof reports)[number] = { samples: relative(root, f), report: worldModelReport(scored) };
      if (verifier) {
        const checks = await verifier.check(items.map((i) => i.program));
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
    console.log(JSON.stringify({ models: relative(root, dir), reports }, null, 1));
    return;
  }
  console.log(`world model: ${relative(root, dir)}/world-model.onnx\n`);
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
