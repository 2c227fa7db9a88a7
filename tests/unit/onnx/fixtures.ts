// Models and batches for the ONNX tests (own copy, so that changes to other test helpers do not move these).
import { namedConfig } from '../../../src/model/config.ts';
import type { ConfigName } from '../../../src/model/config.ts';
import type { Model } from '../../../src/model/init.ts';
import { createModel } from '../../../src/model/init.ts';
import { mulberry32, normal } from '../../../src/primitives/random.ts';

export const testRng = mulberry32;

/** A model whose weights are far from the init (std 0.3, gains 1 +- 0.2, nonzero biases): every path matters. */
export function roughModel(name: ConfigName, seed: number): Model {
  const rng = mulberry32(seed);
  const model = createModel(namedConfig(name), rng);
  for (const v of model.layout.views) {
    const leaf = v.name.slice(v.name.lastIndexOf('.') + 1);
    for (let i = v.offset; i < v.offset + v.size; i++) {
      if (leaf === 'g') model.params[i] = 1 + 0.2 * normal(rng);
      else model.params[i] = (v.decay ? 0.3 : 0.1) * normal(rng);
    }
  }
  return model;
}

export function randomTokens(model: Model, B: number, T: number, seed: number): Int32Array {
  const rng = mulberry32(seed);
  return Int32Array.from({ length: B * T }, () => Math.floor(rng() * model.config.vocabSize));
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} != ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}
