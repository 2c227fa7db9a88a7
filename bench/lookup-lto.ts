// How much of a program's quality, among programs that run, a lookup of its configuration carries
// from other tasks: each of the 16 scored training tasks is held out in turn, a lookup is fitted on
// the other 15 tasks' programs the build ran (src/pipeline/wm-fit-set.ts), and the held-out task's
// programs that ran are ranked by it. Keys from coarse to fine; a finer key falls back to the coarser
// ones when unseen. Leave-tasks-out on training tasks only: the held-out populations are not used.
// Nothing runs; seconds.   npx tsx bench/lookup-lto.ts
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { meanWithinSpearmanValid, pairwiseValid } from '../src/pipeline/group-metrics.ts';
import { fitMeanLookup } from '../src/pipeline/mean-lookup.ts';
import { OutcomeStore } from '../src/pipeline/outcome-store.ts';
import { programFamily } from '../src/pipeline/program-family.ts';
import { cardTaskType } from '../src/pipeline/sample-summary.ts';
import { fitSetPrograms, type FitProgram, type FitSetSettings } from '../src/pipeline/wm-fit-set.ts';
import { nodeFileLoader } from '../src/tasks/node-file-loader.ts';
import { TaskRegistry } from '../src/tasks/task-registry.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const settings = (JSON.parse(readFileSync(resolve(root, 'public/models/manifest.json'), 'utf8')) as { training: FitSetSettings }).training;
const store = new OutcomeStore(resolve(root, 'data/models-build/outcomes.jsonl'));
const { programs } = fitSetPrograms(await new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks'))).list({ includeSmoke: true }), settings, (k) => store.get(k));

/** The model line as written (whitespace dropped), or the candidates dict of a select_best program. */
const modelExpr = (src: string): string => (src.match(/^model = (.*)$/m)?.[1] ?? src.match(/candidates = \{[\s\S]*?\n\}/)?.[0] ?? 'none').replace(/\s+/g, '');
const prep = (src: string): string => src.match(/tk\.Preprocessor\((.*)\)/)?.[1]?.replace(/\s+/g, '') ?? 'none';
const type = (p: FitProgram): string => cardTaskType(p.card) ?? '?';
const candidates: Record<string, (p: FitProgram) => string[]> = {
  'model family': (p) => [programFamily(p.program)],
  'family x task type': (p) => [`${programFamily(p.program)}|${type(p)}`, programFamily(p.program)],
  'model expression x task type': (p) => [`${modelExpr(p.program)}|${type(p)}`, `${programFamily(p.program)}|${type(p)}`, programFamily(p.program)],
  'model expression x preprocessing x task type': (p) => [`${modelExpr(p.program)}|${prep(p.program)}|${type(p)}`, `${modelExpr(p.program)}|${type(p)}`, `${programFamily(p.program)}|${type(p)}`, programFamily(p.program)],
};
const tasks = [...new Set(programs.map((p) => p.taskId))].sort();
console.log(`${programs.length} programs the build ran on ${tasks.length} training tasks; each task held out in turn\n`);
console.log('| lookup | within-task Spearman (ran) | pairwise acc. (ran) |\n|---|---|---|');
for (const [name, keys] of Object.entries(candidates)) {
  const groups = tasks.map((t) => {
    const lookup = fitMeanLookup(programs.filter((p) => p.taskId !== t).map((p) => ({ keys: keys(p), y: p.y })));
    return programs.filter((p) => p.taskId === t).map((p) => ({ valid: p.status === 'ok', y: p.y, predicted: lookup.predict(keys(p)) }));
  });
  const pw = pairwiseValid(groups);
  console.log(`| ${name} | ${meanWithinSpearmanValid(groups).toFixed(3)} | ${pw.accuracy.toFixed(3)} (${pw.pairs} pairs) |`);
}
