// Seeded GPT-2 style initialisation of the flat parameter array.

import type { ModelConfig } from './config.ts';
import type { ParameterLayout } from './parameter-layout.ts';
import { buildLayout } from './parameter-layout.ts';
import { normal } from '../primitives/random.ts';

/** A generator of uniform floats in [0, 1); structurally the same as the project's `Rng`. */
export type Uniform = () => number;

/** Weights and the layout that names them. */
export interface Model {
  config: ModelConfig;
  layout: ParameterLayout;
  params: Float32Array;
}

export const INIT_STD = 0.02;
export const POSITION_INIT_STD = 0.01;

/**
 * Linear and token-embedding weights ~ N(0, 0.02); positions ~ N(0, 0.01); the two projections that
 * write into the residual stream (attn.wo, mlp.wproj) are scaled by 1/sqrt(2 L) so the residual's
 * variance does not grow with depth; biases 0; LayerNorm gains 1. The score head starts at
 * N(0, 0.02) with bias 0 (an output near 0.5).
 * Tensors are filled in layout order, one normal draw per element, so the result depends on the
 * seed and the configuration only.
 */
export function initParameters(config: ModelConfig, rng: Uniform, layout: ParameterLayout = buildLayout(config)): Float32Array {
  const params = new Float32Array(layout.totalLength);
  const residualStd = INIT_STD / Math.sqrt(2 * config.nLayers);
  for (const v of layout.views) {
    const dst = params.subarray(v.offset, v.offset + v.size);
    const leaf = v.name.slice(v.name.lastIndexOf('.') + 1);
    let std = 0;
    if (v.name === 'wpe') std = POSITION_INIT_STD;
    else if (v.name.endsWith('attn.wo') || v.name.endsWith('mlp.wproj')) std = residualStd;
    else if (v.decay) std = INIT_STD;
    if (std > 0) {
      for (let i = 0; i < dst.length; i++) dst[i] = std * normal(rng);
    } else if (leaf === 'g') dst.fill(1);
    // biases and LayerNorm shifts stay 0
  }
  return params;
}

export function createModel(config: ModelConfig, rng: Uniform): Model {
  const layout = buildLayout(config);
  return { config, layout, params: initParameters(config, rng, layout) };
}
