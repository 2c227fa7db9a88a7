// Residual add, bias add and bias gradient on the GPU.
import code from './kernels/bias-residual.wgsl?raw';
import { type BufferRef, encodeKernel, grid, uniformBuffer } from './kernel.ts';

function params(device: GPUDevice, rows: number, C: number): GPUBuffer {
  return uniformBuffer(device, [['u32', rows], ['u32', C]]);
}

/** out = a + b, all [rows, C]; out may not alias a or b. */
export function encodeResidualAdd(encoder: GPUCommandEncoder, device: GPUDevice,
  a: BufferRef, b: BufferRef, out: BufferRef, rows: number, C: number): void {
  encodeKernel(encoder, device, { code, entryPoint: 'residual_add', label: 'residual' },
    [a, b, out, params(device, rows, C)], grid(Math.ceil((rows * C) / 256)));
}

/** x[r, c] += bias[c] in place. */
export function encodeBiasAdd(encoder: GPUCommandEncoder, device: GPUDevice,
  x: BufferRef, bias: BufferRef, rows: number, C: number): void {
  encodeKernel(encoder, device, { code, entryPoint: 'bias_add', label: 'bias' },
    [x, bias, params(device, rows, C)], grid(Math.ceil((rows * C) / 256)));
}

/** db[c] = sum over rows of dy[r, c] (overwritten). */
export function encodeBiasGrad(encoder: GPUCommandEncoder, device: GPUDevice,
  dy: BufferRef, db: BufferRef, rows: number, C: number): void {
  encodeKernel(encoder, device, { code, entryPoint: 'bias_grad', label: 'bias' },
    [dy, db, params(device, rows, C)], grid(Math.ceil(C / 256)));
}
