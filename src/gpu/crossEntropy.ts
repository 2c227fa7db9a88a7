// Softmax cross-entropy / log-prob gather on the GPU, matching src/model/ops.ts.
import code from './kernels/cross_entropy.wgsl?raw';
import { encodeKernel, grid, uniformBuffer } from './kernel.ts';

export interface CrossEntropyForwardArgs {
  logits: GPUBuffer; // [rows, V]
  targets: GPUBuffer; // int32 [rows]
  logprobs: GPUBuffer; // out [rows]
  lse: GPUBuffer; // out [rows]
  rows: number;
  V: number;
}

export function encodeCrossEntropyForward(encoder: GPUCommandEncoder, device: GPUDevice, a: CrossEntropyForwardArgs): void {
  const p = uniformBuffer(device, [['u32', a.rows], ['u32', a.V]]);
  encodeKernel(encoder, device, { code, entryPoint: 'forward', label: 'cross_entropy' },
    [a.logits, a.targets, a.logprobs, a.lse, p], grid(a.rows));
}

export interface CrossEntropyBackwardArgs {
  dlogp: GPUBuffer; // [rows]
  logits: GPUBuffer;
  targets: GPUBuffer;
  lse: GPUBuffer;
  dlogits: GPUBuffer; // out [rows, V]
  rows: number;
  V: number;
}

export function encodeCrossEntropyBackward(encoder: GPUCommandEncoder, device: GPUDevice, a: CrossEntropyBackwardArgs): void {
  const p = uniformBuffer(device, [['u32', a.rows], ['u32', a.V]]);
  encodeKernel(encoder, device, { code, entryPoint: 'backward', label: 'cross_entropy' },
    [a.dlogp, a.logits, a.targets, a.lse, a.dlogits, p], grid(Math.ceil((a.rows * a.V) / 256)));
}
