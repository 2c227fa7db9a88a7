// Next-token sampling on the GPU (temperature, top-k, one seeded uniform per row), matching
// sampleToken in src/model/ops/sampling.ts.
import code from './kernels/sampling.wgsl?raw';
import type { SamplingConfig } from '../model/ops/sampling.ts';
import { type BufferRef, encodeKernel, grid, uniformBuffer } from './kernel.ts';

/** Largest top-k the kernel selects exactly; larger values are rejected rather than silently cut. */
export const SAMPLING_MAX_TOP_K = 256;

export interface SampleArgs {
  logits: BufferRef; // [rows, V]
  uniforms: BufferRef; // [rows] in [0, 1), from a seeded generator
  tokens: BufferRef; // out, int32 [rows]
  rows: number;
  V: number;
}

export function encodeSample(encoder: GPUCommandEncoder, device: GPUDevice, a: SampleArgs, cfg: SamplingConfig): void {
  const topK = cfg.topK >= a.V ? 0 : cfg.topK;
  if (topK > SAMPLING_MAX_TOP_K) throw new Error(`sampling: top-k ${cfg.topK} exceeds ${SAMPLING_MAX_TOP_K}`);
  const p = uniformBuffer(device, [['u32', a.rows], ['u32', a.V], ['u32', topK], ['f32', cfg.temperature]]);
  encodeKernel(encoder, device, { code, entryPoint: 'sample', label: 'sampling' },
    [a.logits, a.uniforms, a.tokens, p], grid(a.rows));
}
