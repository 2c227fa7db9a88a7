// Token + position embedding on the GPU, matching src/model/ops/reference-ops.ts.
import code from './kernels/embedding.wgsl?raw';
import { type BufferRef, encodeKernel, grid, uniformBuffer } from './kernel.ts';

export interface EmbeddingDims {
  B: number;
  T: number;
  C: number;
  V: number;
}

function params(device: GPUDevice, d: EmbeddingDims): GPUBuffer {
  return uniformBuffer(device, [['u32', d.B], ['u32', d.T], ['u32', d.C], ['u32', d.V]]);
}

/** x [B,T,C] = wte[tokens] + wpe[0..T-1]; tokens int32 [B,T]. */
export function encodeEmbeddingForward(encoder: GPUCommandEncoder, device: GPUDevice,
  tokens: BufferRef, wte: BufferRef, wpe: BufferRef, x: BufferRef, d: EmbeddingDims): void {
  encodeKernel(encoder, device, { code, entryPoint: 'forward', label: 'embedding' },
    [tokens, wte, wpe, x, params(device, d)], grid(Math.ceil((d.B * d.T * d.C) / 256)));
}

/** Overwrites dwte [V,C] and dwpe [T,C] with the gradients of x = embedding(tokens). */
export function encodeEmbeddingBackward(encoder: GPUCommandEncoder, device: GPUDevice,
  dx: BufferRef, tokens: BufferRef, dwte: BufferRef, dwpe: BufferRef, d: EmbeddingDims): void {
  const p = params(device, d);
  encodeKernel(encoder, device, { code, entryPoint: 'backward_wte', label: 'embedding' },
    [dx, tokens, dwte, p], grid(Math.ceil((d.V * d.C) / 256)));
  encodeKernel(encoder, device, { code, entryPoint: 'backward_wpe', label: 'embedding' },
    [dx, dwpe, p], grid(Math.ceil((d.T * d.C) / 256)));
}
