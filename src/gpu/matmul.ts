// Matrix multiply on the GPU: C = op(A) op(B), or C += ... for gradient accumulation.
import code from './kernels/matmul.wgsl?raw';
import { type BufferRef, encodeKernel, uniformBuffer } from './kernel.ts';

export interface MatmulArgs {
  a: BufferRef;
  b: BufferRef;
  c: BufferRef;
  M: number;
  K: number;
  N: number;
  transA?: boolean;
  transB?: boolean;
  /** add into C instead of overwriting it */
  accumulate?: boolean;
}

const TILE = 64;

export function encodeMatmul(encoder: GPUCommandEncoder, device: GPUDevice, args: MatmulArgs): void {
  const { M, K, N } = args;
  if (M === 0 || N === 0) return;
  const params = uniformBuffer(device, [['u32', M], ['u32', K], ['u32', N], ['u32', args.accumulate ? 1 : 0]]);
  encodeKernel(
    encoder,
    device,
    { code, entryPoint: 'main', label: 'matmul', constants: { TRANS_A: args.transA ? 1 : 0, TRANS_B: args.transB ? 1 : 0 } },
    [args.a, args.b, args.c, params],
    [Math.ceil(N / TILE), Math.ceil(M / TILE)],
  );
}
