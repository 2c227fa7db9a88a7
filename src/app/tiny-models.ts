// A tiny random policy and world model, made in the page: for checks of the plumbing (workers,
// pool, grader, checkpoints) that must not wait for or depend on the committed models. Its
// programs do not run. The tokenizer is trained on the suite's cards and some reference programs,
// so its tokens look like the real ones.
import { namedConfig } from '../model/config.ts';
import { saveCheckpoint } from '../model/checkpoint.ts';
import { createModel } from '../model/init.ts';
import { exportWorldModel } from '../model/onnx/export.ts';
import { trainTokenizer } from '../model/tokenizer-training.ts';
import { referencePrograms } from '../sandbox-pyodide/reference-programs.ts';
import { fetchLoader, TaskRegistry } from '../tasks/task-registry.ts';
import { mulberry32 } from '../primitives/random.ts';
import type { ModelSources } from './models.ts';

export async function tinyRandomModels(opts: { seed: number; contextLength: number; purpose: string; labelNote?: string }): Promise<ModelSources> {
  const registry = new TaskRegistry(fetchLoader());
  const cards = (await registry.list({ includeSmoke: true })).map((t) => t.card);
  const programs = (['regression', 'binary', 'multiclass'] as const).flatMap((t) => referencePrograms(t).slice(0, 10).map((p) => p.source));
  const tokenizer = trainTokenizer([...cards, ...programs], { vocabSize: 400 });
  const config = namedConfig('tiny', { vocabSize: tokenizer.vocabSize, contextLength: opts.contextLength });
  const model = createModel(config, mulberry32(opts.seed));
  return {
    policyCheckpoint: saveCheckpoint(model, tokenizer, { note: `tiny random policy for ${opts.purpose}` }),
    // The world model shares the policy's backbone and tokenizer (method.md 2); here, untrained.
    worldModel: exportWorldModel(model, 'initializers'),
    tokenizer: tokenizer.toJSON(),
    contextLength: config.contextLength,
    nHeads: config.nHeads,
    label: `tiny random model (seed ${opts.seed}${opts.labelNote ? `; ${opts.labelNote}` : ''})`,
  };
}
