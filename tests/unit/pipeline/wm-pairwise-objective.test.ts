// The world-model stage's pairwise objective (src/pipeline/world-model.ts): what each batch's
// objective carries, and a short real training run of it on the tiny network.
import { describe, expect, it } from 'vitest';
import { namedConfig } from '../../../src/model/config.ts';
import { createModel } from '../../../src/model/init.ts';
import { trainTokenizer } from '../../../src/model/tokenizer-training.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';
import type { WmExample } from '../../../src/pipeline/wm-data.ts';
import { trainWorldModel, worldModelObjective } from '../../../src/pipeline/world-model.ts';

const examples: WmExample[] = Array.from({ length: 24 }, (_, i) => ({
  taskId: `task${i % 3}`,
  card: `Task ${i % 3}: predict the label.`,
  program: `model = make_model(depth=${i})\nfit(model)\n`,
  y: i % 5 === 0 ? 0 : (i % 7) / 7,
  origin: 'sample' as const,
  valid: i % 5 !== 0,
}));

describe('the pairwise world-model objective in the pipeline', () => {
  it("'pairwise' batches carry each row's task and ran flag and the weight; 'mse' carries no ranking", () => {
    const targets = examples.map((e) => e.y);
    const idx = [0, 1, 3, 5, 6];
    const pw = worldModelObjective(examples, targets, { loss: 'pairwise', pairWeight: 0.5 })(idx);
    expect(pw).toEqual({
      kind: 'wm',
      targets: idx.map((i) => examples[i].y),
      loss: 'pairwise',
      ranking: { groups: ['task0', 'task1', 'task0', 'task2', 'task0'], ran: [false, true, true, false, true], weight: 0.5 },
    });
    expect(worldModelObjective(examples, targets, { loss: 'pairwise' })(idx)).toMatchObject({ ranking: { weight: 1 } });
    const mse = worldModelObjective(examples, targets, {})(idx);
    expect(mse).toEqual({ kind: 'wm', targets: idx.map((i) => examples[i].y), loss: 'mse' });
  });

  it('trains the tiny network a few steps on task-grouped batches, with a finite loss, and differs from mse', async () => {
    const tokenizer = trainTokenizer(examples.flatMap((e) => [e.card, e.program]), { vocabSize: 300 });
    const init = createModel(namedConfig('tiny', { vocabSize: tokenizer.vocabSize, contextLength: 64 }), mulberry32(5));
    const common = { seed: 3, steps: 3, batchSize: 8, peakLr: 1e-2, warmup: 1, weightDecay: 0.01, maxGradNorm: 1, threads: 1 };
    const pw = await trainWorldModel(init, tokenizer, examples, { ...common, loss: 'pairwise', pairWeight: 1 });
    const mse = await trainWorldModel(init, tokenizer, examples, { ...common, loss: 'mse' });
    expect(pw.curve).toHaveLength(3);
    for (const p of pw.curve) expect(Number.isFinite(p.loss)).toBe(true);
    expect(pw.model.params).not.toEqual(mse.model.params);
  }, 120_000);
});
