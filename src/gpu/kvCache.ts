// KV cache for incremental decoding: append one step's keys/values, attend one query per sequence.
import kernel from './kernels/kv_cache.wgsl?raw';
import { ATTENTION_MAX_T } from './attention.ts';
import { type BufferRef, encodeKernel, grid, uniformBuffer, withReductions } from './kernel.ts';

const code = withReductions(kernel);

export interface KvCacheDims {
  B: number;
  /** capacity of the cache in positions */
  maxT: number;
  H: number;
  Dh: number;
}

function params(device: GPUDevice, d: KvCacheDims, pos: number): GPUBuffer {
  if (d.maxT > ATTENTION_MAX_T) throw new Error(`kv cache: maxT = ${d.maxT} exceeds ${ATTENTION_MAX_T}`);
  if (pos < 0 || pos >= d.maxT) throw new Error(`kv cache: position ${pos} outside 0..${d.maxT - 1}`);
  return uniformBuffer(device, [['u32', d.B], ['u32', d.maxT], ['u32', d.H], ['u32', d.Dh], ['u32', pos],
    ['f32', 1 / Math.sqrt(d.Dh)]]);
}

/** Writes k, v ([B, H*Dh]) into the caches ([B, maxT, H*Dh]) at position pos. */
export function encodeKvAppend(encoder: GPUCommandEncoder, device: GPUDevice, k: BufferRef, v: BufferRef,
  kCache: BufferRef, vCache: BufferRef, d: KvCacheDims, pos: number): void {
  encodeKernel(encoder, device, { code, entryPoint: 'append', label: 'kv_cache' },
    [k, v, kCache, vCache, params(device, d, pos)], grid(Math.ceil((d.B * d.H * d.Dh) / 64)));
}

/** out [B, H*Dh] = attention of q [B, H*Dh] over cache positions 0..pos. */
export function encodeKvDecode(encoder: GPUCommandEncoder, device: GPUDevice, q: BufferRef,
  kCache: BufferRef, vCache: BufferRef, out: BufferRef, d: KvCacheDims, pos: number): void {
  encodeKernel(encoder, device, { code, entryPoint: 'decode', label: 'kv_cache' },
    [q, kCache, vCache, out, params(device, d, pos)], grid(d.B * d.H));
}
