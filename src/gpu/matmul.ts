// Matrix multiply on the GPU: C = op(A) op(B), or C += ... for gradient accumulation.
import code from './kernels/matmul.wgsl?raw';
import { type BufferRef, encodeKernel, isBufferBinding, type KernelSpec, uniformBuffer } from './kernel.ts';

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

function offsetOf(ref: BufferRef): number {
  return isBufferBinding(ref) ? ref.offset ?? 0 : 0;
}

/**
 * Whether the vec4 entry point may run: the contiguous axis of each stored matrix (A: K, or M when
 * transposed; B: N, or K when transposed; C: N) is a multiple of 4, K > 0 (an empty A or B would bind
 * less than one vec4), and every binding starts on a 16-byte boundary (always true for the
 * 256-byte-aligned ranges the engine binds; checked anyway).
 */
export function matmulUsesVec4(args: MatmulArgs): boolean {
  const { M, K, N } = args;
  const aInner = args.transA ? M : K;
  const bInner = args.transB ? K : N;
  return K > 0 && aInner % 4 === 0 && bInner % 4 === 0 && N % 4 === 0
    && [args.a, args.b, args.c].every((r) => offsetOf(r) % 16 === 0);
}

/** The entry point and override constants encodeMatmul dispatches for these arguments. */
export function matmulSpec(args: MatmulArgs): KernelSpec {
  return {
    code,
    entryPoint: matmulUsesVec4(args) ? 'main_vec4' : 'main',
    label: 'matmul',
    constants: { TRANS_A: args.transA ? 1 : 0, TRANS_B: args.transB ? 1 : 0 },
  };
}

export function encodeMatmul(encoder: GPUCommandEncoder, device: GPUDevice, args: MatmulArgs): void {
  const { M, K, N } = args;
  if (M === 0 || N === 0) return;
  const params = uniformBuffer(device, [['u32', M], ['u32', K], ['u32', N], ['u32', args.accumulate ? 1 : 0]]);
  encodeKernel(encoder, device, matmulSpec(args), [args.a, args.b, args.c, params],
    [Math.ceil(N / TILE), Math.ceil(M / TILE)]);
}
