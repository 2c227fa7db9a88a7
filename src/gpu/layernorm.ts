// Layer norm on the GPU (forward, dx, and dgamma/dbeta), matching src/model/ops/reference-ops.ts.
import kernel from './kernels/layernorm.wgsl?raw';
import { type BufferRef, encodeKernel, grid, uniformBuffer, withReductions } from './kernel.ts';

const code = withReductions(kernel);

export interface LayerNormForwardArgs {
  x: BufferRef;
  gamma: BufferRef;
  beta: BufferRef;
  /** outputs: y [rows, dim], mean [rows], rstd [rows] */
  y: BufferRef;
  mean: BufferRef;
  rstd: BufferRef;
  rows: number;
  dim: number;
  eps?: number;
}

function params(device: GPUDevice, rows: number, dim: number, eps: number): GPUBuffer {
  return uniformBuffer(device, [['u32', rows], ['u32', dim], ['f32', eps], ['u32', 0]]);
}

export function encodeLayerNormForward(encoder: GPUCommandEncoder, device: GPUDevice, a: LayerNormForwardArgs): void {
  const p = params(device, a.rows, a.dim, a.eps ?? 1e-5);
  encodeKernel(encoder, device, { code, entryPoint: 'forward', label: 'layernorm' },
    [a.x, a.gamma, a.beta, a.y, a.mean, a.rstd, p], grid(a.rows));
}

export interface LayerNormBackwardArgs {
  dy: BufferRef;
  x: BufferRef;
  gamma: BufferRef;
  mean: BufferRef;
  rstd: BufferRef;
  /** outputs: dx [rows, dim], dgamma [dim], dbeta [dim] (overwritten) */
  dx: BufferRef;
  dgamma: BufferRef;
  dbeta: BufferRef;
  rows: number;
  dim: number;
}

export function encodeLayerNormBackward(encoder: GPUCommandEncoder, device: GPUDevice, a: LayerNormBackwardArgs): void {
  const p = params(device, a.rows, a.dim, 0);
  encodeKernel(encoder, device, { code, entryPoint: 'backward_dx', label: 'layernorm' },
    [a.dy, a.x, a.gamma, a.mean, a.rstd, a.dx, p], grid(a.rows));
  encodeKernel(encoder, device, { code, entryPoint: 'backward_params', label: 'layernorm' },
    [a.dy, a.x, a.mean, a.rstd, a.dgamma, a.dbeta, p], grid(a.dim));
}
