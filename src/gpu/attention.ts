// Causal multi-head attention on the GPU (forward and backward), matching src/model/ops/reference-ops.ts.
import kernel from './kernels/attention.wgsl?raw';
import { type BufferRef, encodeKernel, grid, uniformBuffer, withReductions } from './kernel.ts';

const code = withReductions(kernel);

/** Longest sequence the kernels accept: one query row of scores sits in workgroup memory. */
export const ATTENTION_MAX_T = 1024;

export interface AttentionDims {
  B: number;
  T: number;
  H: number;
  Dh: number;
}

function params(device: GPUDevice, d: AttentionDims): GPUBuffer {
  if (d.T > ATTENTION_MAX_T) throw new Error(`attention: T = ${d.T} exceeds ${ATTENTION_MAX_T}`);
  return uniformBuffer(device, [['u32', d.B], ['u32', d.T], ['u32', d.H], ['u32', d.Dh], ['f32', 1 / Math.sqrt(d.Dh)]]);
}

/** out [B,T,H*Dh] and probs [B,H,T,T] (kept for the backward). */
export function encodeAttentionForward(encoder: GPUCommandEncoder, device: GPUDevice,
  q: BufferRef, k: BufferRef, v: BufferRef, out: BufferRef, probs: BufferRef, d: AttentionDims): void {
  encodeKernel(encoder, device, { code, entryPoint: 'forward', label: 'attention' },
    [q, k, v, out, probs, params(device, d)], grid(d.B * d.H * d.T));
}

export interface AttentionBackwardArgs {
  dout: BufferRef;
  q: BufferRef;
  k: BufferRef;
  v: BufferRef;
  probs: BufferRef;
  /** scratch [B,H,T,T] for the score gradients */
  dscores: BufferRef;
  dq: BufferRef;
  dk: BufferRef;
  dv: BufferRef;
}

export function encodeAttentionBackward(encoder: GPUCommandEncoder, device: GPUDevice, a: AttentionBackwardArgs, d: AttentionDims): void {
  const p = params(device, d);
  encodeKernel(encoder, device, { code, entryPoint: 'backward_scores', label: 'attention' },
    [a.dout, a.v, a.probs, a.dscores, p], grid(d.B * d.H * d.T));
  const elems = Math.ceil((d.B * d.T * d.H * d.Dh) / 64);
  encodeKernel(encoder, device, { code, entryPoint: 'backward_dq', label: 'attention' }, [a.dscores, a.k, a.dq, p], grid(elems));
  encodeKernel(encoder, device, { code, entryPoint: 'backward_dkdv', label: 'attention' },
    [a.dscores, a.probs, a.q, a.dout, a.dk, a.dv, p], grid(elems));
}
