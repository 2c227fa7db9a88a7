// Tiny models and batches for the model tests.

import { namedConfig } from '../../../src/model/config.ts';
import type { Model } from '../../../src/model/init.ts';
import { createModel } from '../../../src/model/init.ts';
import type { SequenceBatch } from '../../../src/model/sequence-batch.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { mulberry32, normal } from '../../../src/primitives/random.ts';

/** The project's generator under the name the model tests use. */
export const testRng = mulberry32;

/**
 * The tiny model with weights far from the init (std 0.3, gains 1 +- 0.2, nonzero biases) so that
 * every gradient is large enough for float32 finite differences to resolve.
 */
export function tinyTestModel(seed: number): Model {
  const rng = testRng(seed);
  const model = createModel(namedConfig('tiny'), rng);
  for (const v of model.layout.views) {
    const leaf = v.name.slice(v.name.lastIndexOf('.') + 1);
    for (let i = v.offset; i < v.offset + v.size; i++) {
      if (leaf === 'g') model.params[i] = 1 + 0.2 * normal(rng);
      else model.params[i] = (v.decay ? 0.3 : 0.1) * normal(rng);
    }
  }
  return model;
}

/** A batch of B sequences with different lengths, a card prefix (unmasked) and a program part. */
export function tinyBatch(model: Model, seed: number, B = 3): SequenceBatch {
  const rng = testRng(seed);
  const V = model.config.vocabSize;
  const T = model.config.contextLength - 2;
  const specs = [];
  for (let b = 0; b < B; b++) {
    const len = T - 3 * b;
    const tokens = Array.from({ length: len }, () => 4 + Math.floor(rng() * (V - 4)));
    specs.push({ tokens, programStart: 3 + b });
  }
  return makeSequenceBatch(specs, T);
}
