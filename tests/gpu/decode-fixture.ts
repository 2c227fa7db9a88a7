// Shared by the decoding kernels' tests: a small model whose sizes are not multiples of the
// kernels' 64-wide workgroups (C = 40, 4 heads of 10, F = 160, V = 70, 80 cache positions), its
// parameters perturbed away from their init values, and the per-row state the kernels read.
import type { ModelConfig } from '../../src/model/config.ts';
import { createModel, type Model } from '../../src/model/init.ts';
import { view } from '../../src/model/parameter-layout.ts';
import type { DecodeDims } from '../../src/gpu/decode-row.ts';
import { uploadBuffer } from '../../src/gpu/buffers.ts';
import { seededRandom } from '../unit/ops/random.ts';

export const decodeConfig: ModelConfig = { vocabSize: 70, contextLength: 80, dModel: 40, nLayers: 2, nHeads: 4, mlpRatio: 4, layerNormEps: 1e-5 };

export const decodeDims: DecodeDims = { C: 40, H: 4, F: 160, V: 70, maxT: 80, eps: 1e-5 };

export function decodeModel(seed: number): Model {
  const rand = seededRandom(seed);
  const m = createModel(decodeConfig, rand);
  for (const v of m.layout.views) {
    const t = view(m.layout, m.params, v.name);
    for (let i = 0; i < t.length; i++) t[i] += (rand() * 2 - 1) * (v.decay ? 0.15 : 0.3);
  }
  return m;
}

/** Offset (floats) of a tensor in the flat parameter buffer. */
export function offsetOf(model: Model, name: string): number {
  return model.layout.byName.get(name)!.offset;
}

export function tensor(model: Model, name: string): Float32Array {
  return view(model.layout, model.params, name);
}

export interface RowStateValues { pos: number; token: number; step: number; limit: number }

export function stateBuffer(device: GPUDevice, rows: readonly RowStateValues[]): GPUBuffer {
  return uploadBuffer(device, Uint32Array.from(rows.flatMap((r) => [r.pos, r.token, r.step, r.limit])));
}

/** Row r of a [rows, width] tensor. */
export function rowOf(x: Float32Array, r: number, width: number): Float32Array {
  return x.subarray(r * width, (r + 1) * width);
}
