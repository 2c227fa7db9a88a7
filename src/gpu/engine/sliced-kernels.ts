// The project's kernels whose operands include parameters or gradients, dispatched with range
// bindings (see tensor-slice.ts). Uniform blocks and workgroup counts follow the host wrappers in
// src/gpu/*.ts exactly; the engine tests check the composition against the reference.

import adamwCode from '../kernels/adamw.wgsl?raw';
import biasCode from '../kernels/bias_residual.wgsl?raw';
import embeddingCode from '../kernels/embedding.wgsl?raw';
import layernormCode from '../kernels/layernorm.wgsl?raw';
import matmulCode from '../kernels/matmul.wgsl?raw';
import scoreHeadCode from '../kernels/score_head.wgsl?raw';
import type { AdamWConfig } from '../../model/ops.ts';
import { grid, uniformBuffer } from '../kernel.ts';
import { dispatch, type Operand } from './tensor-slice.ts';

const MATMUL_TILE = 64;

export interface SlicedMatmul {
  a: Operand;
  b: Operand;
  c: Operand;
  M: number;
  K: number;
  N: number;
  transA?: boolean;
  transB?: boolean;
  accumulate?: boolean;
}

/** C = op(A) op(B) (or C +=), as encodeMatmul in src/gpu/matmul.ts. */
export function matmul(encoder: GPUCommandEncoder, device: GPUDevice, m: SlicedMatmul): void {
  if (m.M === 0 || m.N === 0) return;
  const p = uniformBuffer(device, [['u32', m.M], ['u32', m.K], ['u32', m.N], ['u32', m.accumulate ? 1 : 0]]);
  dispatch(encoder, device,
    { code: matmulCode, entryPoint: 'main', label: 'matmul', constants: { TRANS_A: m.transA ? 1 : 0, TRANS_B: m.transB ? 1 : 0 } },
    [m.a, m.b, m.c, p], [Math.ceil(m.N / MATMUL_TILE), Math.ceil(m.M / MATMUL_TILE)]);
}

function lnParams(device: GPUDevice, rows: number, dim: number, eps: number): GPUBuffer {
  return uniformBuffer(device, [['u32', rows], ['u32', dim], ['f32', eps], ['u32', 0]]);
}

export function layerNormForward(encoder: GPUCommandEncoder, device: GPUDevice,
  x: Operand, gamma: Operand, beta: Operand, y: Operand, mean: Operand, rstd: Operand,
  rows: number, dim: number, eps: number): void {
  dispatch(encoder, device, { code: layernormCode, entryPoint: 'forward', label: 'layernorm' },
    [x, gamma, beta, y, mean, rstd, lnParams(device, rows, dim, eps)], grid(rows));
}

/** dx (overwritten) and dgamma, dbeta (overwritten). */
export function layerNormBackward(encoder: GPUCommandEncoder, device: GPUDevice,
  dy: Operand, x: Operand, gamma: Operand, mean: Operand, rstd: Operand,
  dx: Operand, dgamma: Operand, dbeta: Operand, rows: number, dim: number): void {
  const p = lnParams(device, rows, dim, 0);
  dispatch(encoder, device, { code: layernormCode, entryPoint: 'backward_dx', label: 'layernorm' },
    [dy, x, gamma, mean, rstd, dx, p], grid(rows));
  dispatch(encoder, device, { code: layernormCode, entryPoint: 'backward_params', label: 'layernorm' },
    [dy, x, mean, rstd, dgamma, dbeta, p], grid(dim));
}

function embParams(device: GPUDevice, B: number, T: number, C: number, V: number): GPUBuffer {
  return uniformBuffer(device, [['u32', B], ['u32', T], ['u32', C], ['u32', V]]);
}

/** x [B,T,C] = wte[tokens] + wpe[0..T-1]. */
export function embeddingForward(encoder: GPUCommandEncoder, device: GPUDevice,
  tokens: Operand, wte: Operand, wpe: Operand, x: Operand, B: number, T: number, C: number, V: number): void {
  dispatch(encoder, device, { code: embeddingCode, entryPoint: 'forward', label: 'embedding' },
    [tokens, wte, wpe, x, embParams(device, B, T, C, V)], grid(Math.ceil((B * T * C) / 256)));
}

/** Overwrites dwte [V,C] and dwpe [T,C]. */
export function embeddingBackward(encoder: GPUCommandEncoder, device: GPUDevice,
  dx: Operand, tokens: Operand, dwte: Operand, dwpe: Operand, B: number, T: number, C: number, V: number): void {
  const p = embParams(device, B, T, C, V);
  dispatch(encoder, device, { code: embeddingCode, entryPoint: 'backward_wte', label: 'embedding' },
    [dx, tokens, dwte, p], grid(Math.ceil((V * C) / 256)));
  dispatch(encoder, device, { code: embeddingCode, entryPoint: 'backward_wpe', label: 'embedding' },
    [dx, dwpe, p], grid(Math.ceil((T * C) / 256)));
}

function rowParams(device: GPUDevice, rows: number, C: number): GPUBuffer {
  return uniformBuffer(device, [['u32', rows], ['u32', C]]);
}

/** x[r, c] += bias[c] in place. */
export function biasAdd(encoder: GPUCommandEncoder, device: GPUDevice, x: Operand, bias: Operand, rows: number, C: number): void {
  dispatch(encoder, device, { code: biasCode, entryPoint: 'bias_add', label: 'bias' },
    [x, bias, rowParams(device, rows, C)], grid(Math.ceil((rows * C) / 256)));
}

/** db[c] = sum_r dy[r, c] (overwritten). */
export function biasGrad(encoder: GPUCommandEncoder, device: GPUDevice, dy: Operand, db: Operand, rows: number, C: number): void {
  dispatch(encoder, device, { code: biasCode, entryPoint: 'bias_grad', label: 'bias' },
    [dy, db, rowParams(device, rows, C)], grid(Math.ceil(C / 256)));
}

/** score [rows] = sigmoid(x . w + b). */
export function scoreHeadForward(encoder: GPUCommandEncoder, device: GPUDevice,
  x: Operand, w: Operand, b: Operand, score: Operand, rows: number, C: number): void {
  dispatch(encoder, device, { code: scoreHeadCode, entryPoint: 'forward', label: 'score_head' },
    [x, w, b, score, rowParams(device, rows, C)], grid(rows));
}

/** dx [rows, C] and dwb [C + 1] (dw then db), both overwritten. */
export function scoreHeadBackward(encoder: GPUCommandEncoder, device: GPUDevice,
  ds: Operand, score: Operand, x: Operand, w: Operand, dx: Operand, dwb: Operand, rows: number, C: number): void {
  const p = rowParams(device, rows, C);
  dispatch(encoder, device, { code: scoreHeadCode, entryPoint: 'backward_dx', label: 'score_head' },
    [ds, score, null, w, dx, null, p], grid(Math.ceil((rows * C) / 64)));
  dispatch(encoder, device, { code: scoreHeadCode, entryPoint: 'backward_dw', label: 'score_head' },
    [ds, score, x, null, null, dwb, p], [Math.ceil((C + 1) / 64)]);
}

/** One AdamW step on n elements of ranges of params/grads/m/v, gradient scaled by clip[1]. */
export function adamwStep(encoder: GPUCommandEncoder, device: GPUDevice,
  params: Operand, grads: Operand, m: Operand, v: Operand, clip: GPUBuffer, n: number,
  step: number, cfg: AdamWConfig, weightDecay: number): void {
  const bc1 = 1 - Math.pow(cfg.beta1, step);
  const bc2 = 1 - Math.pow(cfg.beta2, step);
  const p = uniformBuffer(device, [['u32', n], ['f32', cfg.lr], ['f32', cfg.beta1], ['f32', cfg.beta2],
    ['f32', cfg.eps], ['f32', weightDecay], ['f32', bc1], ['f32', bc2]]);
  dispatch(encoder, device, { code: adamwCode, entryPoint: 'step', label: 'adamw' },
    [params, grads, m, v, clip, p], grid(Math.ceil(n / 256)));
}
