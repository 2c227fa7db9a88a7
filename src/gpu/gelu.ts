// GELU (tanh approximation) on the GPU, matching src/model/ops/reference-ops.ts.
import kernel from './kernels/gelu.wgsl?raw';
import tanhGelu from './kernels/tanh-gelu.wgsl?raw';
import { type BufferRef, encodeKernel, grid, uniformBuffer } from './kernel.ts';

const code = `${tanhGelu}\n${kernel}`;

export function encodeGeluForward(encoder: GPUCommandEncoder, device: GPUDevice, x: BufferRef, y: BufferRef, n: number): void {
  const p = uniformBuffer(device, [['u32', n]]);
  encodeKernel(encoder, device, { code, entryPoint: 'forward', label: 'gelu' }, [x, y, p], grid(Math.ceil(n / 256)));
}

export function encodeGeluBackward(encoder: GPUCommandEncoder, device: GPUDevice,
  dy: BufferRef, x: BufferRef, dx: BufferRef, n: number): void {
  const p = uniformBuffer(device, [['u32', n]]);
  encodeKernel(encoder, device, { code, entryPoint: 'backward', label: 'gelu' }, [dy, x, dx, p], grid(Math.ceil(n / 256)));
}
