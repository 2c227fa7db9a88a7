// The decoder's KV caches filled from the prefill (the training forward's keys and values).
import code from './kernels/kv-cache.wgsl?raw';
import { type BufferRef, type Dispatch, grid, prepareKernel, uniformBuffer } from './kernel.ts';

export interface KvFillArgs {
  /** [rows, T, C] */
  k: BufferRef;
  v: BufferRef;
  /** [rows, maxT, C] */
  kCache: BufferRef;
  vCache: BufferRef;
  rows: number;
  T: number;
  C: number;
  maxT: number;
}

export function kvFillKernel(device: GPUDevice, a: KvFillArgs): Dispatch {
  if (a.T > a.maxT) throw new Error(`kv cache: ${a.T} positions exceed the cache's ${a.maxT}`);
  const p = uniformBuffer(device, [['u32', a.rows], ['u32', a.T], ['u32', a.C], ['u32', a.maxT]]);
  return prepareKernel(device, { code, entryPoint: 'fill', label: 'kv_cache' },
    [a.k, a.v, a.kCache, a.vCache, p], grid(Math.ceil((a.rows * a.T * a.C) / 64)));
}
