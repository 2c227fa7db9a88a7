// Does a policy read its card? For each held-out card, the share of sampled programs whose model is
// of the card's task type, (a) with the real card, (b) with the card's first sentence (task type and
// metric) swapped for another type's, the rest unchanged, and (c) with the real first sentence but
// the statistics of a training card of another type. A policy that reads the type follows (b); one
// that recognises cards by their statistics follows (c). Sampling only, nothing is executed.
//   npx tsx bench/card-reading.ts [--models public/models] [--per-card 16] [--temperature 0.6]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCheckpoint } from '../src/model/checkpoint.ts';
import { programTaskKind } from '../src/pipeline/program-kind.ts';
import { samplePrograms } from '../src/pipeline/policy-samples.ts';
import { cardTaskType } from '../src/pipeline/sample-summary.ts';
import { nodeFileLoader } from '../src/tasks/node-file-loader.ts';
import { TaskRegistry } from '../src/tasks/task-registry.ts';

const { values } = parseArgs({ options: { models: { type: 'string', default: 'public/models' }, 'per-card': { type: 'string', default: '16' }, temperature: { type: 'string', default: '0.6' } } });
const { model, tokenizer } = loadCheckpoint(new Uint8Array(readFileSync(resolve(values.models!, 'policy.ckpt'))));
if (!tokenizer) throw new Error('the checkpoint carries no tokenizer');
const registry = new TaskRegistry(nodeFileLoader(resolve(import.meta.dirname, '../public/tasks')));
const all = await registry.list();
const heldout = all.filter((t) => t.split === 'heldout' && t.role === 'scored');
const firstSentence = (card: string): string => card.slice(0, card.indexOf(').') + 2);
const rest = (card: string): string => card.slice(card.indexOf(').') + 2);
const other = (type: string): string => (type === 'regression' ? 'binary' : 'regression');
const variants = heldout.flatMap((t) => {
  const swapType = all.find((u) => u.type === other(t.type) && u.split === 'train')!;
  const lookAlike = all.find((u) => u.type === other(t.type) && u.split === 'train' && u.role === 'scored')!;
  return [
    { id: t.id, variant: 'real card', card: t.card },
    { id: `${t.id}~type`, variant: 'type sentence swapped', card: firstSentence(swapType.card) + rest(t.card) },
    { id: `${t.id}~stats`, variant: 'statistics of another type', card: firstSentence(t.card) + rest(lookAlike.card) },
  ];
});
const sampled = await samplePrograms(model, tokenizer, variants.map((v) => ({ id: v.id, card: v.card })), { seed: 5, perTask: Number(values['per-card']), temperature: Number(values.temperature) });
for (const variant of ['real card', 'type sentence swapped', 'statistics of another type']) {
  const mine = variants.filter((v) => v.variant === variant);
  let right = 0;
  let typed = 0;
  for (const v of mine) {
    for (const s of sampled.filter((x) => x.taskId === v.id)) {
      const kind = programTaskKind(s.program);
      if (kind === null) continue;
      typed++;
      if ((kind === 'regression') === (cardTaskType(v.card) === 'regression')) right++;
    }
  }
  console.log(`${values.models}: ${variant.padEnd(28)} model of the card's stated type in ${right}/${typed} programs (${((100 * right) / Math.max(1, typed)).toFixed(0)}%)`);
}
