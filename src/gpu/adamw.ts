// AdamW with global-norm clipping on the GPU, matching adamwStep / clipByGlobalNorm in src/model/ops/reference-ops.ts.
import kernel from './kernels/adamw.wgsl?raw';
import type { AdamWConfig } from '../model/ops/reference-ops.ts';
import { createStorageBuffer } from './buffers.ts';
import { type BufferRef, encodeKernel, grid, uniformBuffer, withReductions } from './kernel.ts';

const code = withReductions(kernel);

export interface TensorRef {
  buffer: BufferRef;
  /** element count */
  n: number;
}

// Partial sums per tensor: enough workgroups to fill a GPU, few enough for one finalize workgroup.
const MAX_GROUPS = 256;

function groupsFor(n: number): number {
  return Math.max(1, Math.min(MAX_GROUPS, Math.ceil(n / 256)));
}

// One partials buffer per device and size, kept: a fresh one each update would also be a fresh bind
// group each update, and the kernel cache keeps bind groups alive. Sharing is safe: passes run in
// order, and each finalize reads its sums before the next sumsq writes them.
const partialsKept = new WeakMap<GPUDevice, Map<number, GPUBuffer>>();
function partialsFor(device: GPUDevice, count: number): GPUBuffer {
  let bySize = partialsKept.get(device);
  if (!bySize) partialsKept.set(device, (bySize = new Map()));
  let b = bySize.get(count);
  if (!b) bySize.set(count, (b = createStorageBuffer(device, count * 4, 'norm partials')));
  return b;
}

/**
 * Writes [globalNorm, clipScale] into `normOut` (2 floats): the L2 norm over all `grads` together and
 * min(1, maxNorm / norm) (1 when maxNorm <= 0). Nothing is read back to the CPU.
 */
export function encodeGlobalNorm(encoder: GPUCommandEncoder, device: GPUDevice,
  grads: readonly TensorRef[], normOut: BufferRef, maxNorm: number): void {
  const total = grads.reduce((s, g) => s + groupsFor(g.n), 0);
  const partials = partialsFor(device, total);
  let offset = 0;
  for (const g of grads) {
    const groups = groupsFor(g.n);
    const p = uniformBuffer(device, [['u32', g.n], ['u32', offset], ['u32', groups]]);
    encodeKernel(encoder, device, { code, entryPoint: 'sumsq', label: 'adamw' }, [g.buffer, partials, p], [groups]);
    offset += groups;
  }
  const fp = uniformBuffer(device, [['u32', total], ['f32', maxNorm]]);
  encodeKernel(encoder, device, { code, entryPoint: 'finalize', label: 'adamw' }, [partials, normOut, fp], [1]);
}

export interface AdamWTensor {
  params: BufferRef;
  grads: BufferRef;
  m: BufferRef;
  v: BufferRef;
  n: number;
}

/** One AdamW step (step counts from 1) on each tensor, gradients scaled by normOut[1] from encodeGlobalNorm. */
export function encodeAdamW(encoder: GPUCommandEncoder, device: GPUDevice,
  tensors: readonly AdamWTensor[], normOut: BufferRef, step: number, cfg: AdamWConfig): void {
  // bias corrections in float64 on the host: beta^step underflows gracefully there
  const bc1 = 1 - Math.pow(cfg.beta1, step);
  const bc2 = 1 - Math.pow(cfg.beta2, step);
  for (const t of tensors) {
    const p = uniformBuffer(device, [['u32', t.n], ['f32', cfg.lr], ['f32', cfg.beta1], ['f32', cfg.beta2],
      ['f32', cfg.eps], ['f32', cfg.weightDecay], ['f32', bc1], ['f32', bc2]]);
    encodeKernel(encoder, device, { code, entryPoint: 'step', label: 'adamw' },
      [t.params, t.grads, t.m, t.v, normOut, p], grid(Math.ceil(t.n / 256)));
  }
}
