// Softmax cross-entropy / log-prob gather on the GPU, matching src/model/ops/reference-ops.ts.
import kernel from './kernels/cross-entropy.wgsl?raw';
import { type BufferRef, encodeKernel, grid, uniformBuffer, withReductions } from './kernel.ts';

const code = withReductions(kernel);

export interface CrossEntropyForwardArgs {
  logits: BufferRef; // [rows, V]
  targets: BufferRef; // int32 [rows]
  logprobs: BufferRef; // out [rows]
  lse: BufferRef; // out [rows]
  rows: number;
  V: number;
}

export function encodeCrossEntropyForward(encoder: GPUCommandEncoder, device: GPUDevice, a: CrossEntropyForwardArgs): void {
  const p = uniformBuffer(device, [['u32', a.rows], ['u32', a.V]]);
  encodeKernel(encoder, device, { code, entryPoint: 'forward', label: 'cross_entropy' },
    [a.logits, a.targets, a.logprobs, a.lse, p], grid(a.rows));
}

export interface CrossEntropyBackwardArgs {
  dlogp: BufferRef; // [rows]
  logits: BufferRef;
  targets: BufferRef;
  lse: BufferRef;
  dlogits: BufferRef; // out [rows, V]
  rows: number;
  V: number;
}

export function encodeCrossEntropyBackward(encoder: GPUCommandEncoder, device: GPUDevice, a: CrossEntropyBackwardArgs): void {
  const p = uniformBuffer(device, [['u32', a.rows], ['u32', a.V]]);
  encodeKernel(encoder, device, { code, entryPoint: 'backward', label: 'cross_entropy' },
    [a.dlogp, a.logits, a.targets, a.lse, a.dlogits, p], grid(Math.ceil((a.rows * a.V) / 256)));
}
