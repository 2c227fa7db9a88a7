// What the decoding kernels share (decode_qkv, decode_attn_mlp, decode_logits): the per-row state
// (kernels/decode-state.wgsl), one row of the residual stream in workgroup memory with its layer
// norm (kernels/decode-row.wgsl), and the model's sizes as override constants, so workgroup arrays
// are sized exactly and one pipeline serves every layer (the layers differ only in weight offsets).
import stateSource from './kernels/decode-state.wgsl?raw';
import rowSource from './kernels/decode-row.wgsl?raw';
import { type BufferRef, withReductions } from './kernel.ts';

export interface DecodeDims {
  /** channels, heads, MLP width, vocabulary */
  C: number;
  H: number;
  F: number;
  V: number;
  /** positions in a KV cache row (the context length) */
  maxT: number;
  eps: number;
}

/** What the two kernels of a layer's token step work on. */
export interface DecodeLayerBuffers {
  /** the flat parameter buffer; each kernel's tensors are offsets (floats) into it */
  weights: BufferRef;
  /** RowState [rows] */
  state: BufferRef;
  /** the residual stream [rows, C] */
  x: BufferRef;
  /** the queries [rows, C] and the layer's caches [rows, maxT, C] */
  q: BufferRef;
  kCache: BufferRef;
  vCache: BufferRef;
  rows: number;
  dims: DecodeDims;
}

/** A decoding kernel's source with its preludes: reductions, row state, the row and its layer norm. */
export function withDecodeRow(kernel: string, ...more: string[]): string {
  return withReductions([stateSource, rowSource, ...more, kernel].join('\n'));
}

export function rowConstants(d: DecodeDims): Record<string, number> {
  return { C: d.C, EPS: d.eps };
}

/** Throws a clear error when a kernel's workgroup arrays do not fit this device. */
export function checkWorkgroupMemory(device: GPUDevice, kernel: string, bytes: number): void {
  const limit = device.limits.maxComputeWorkgroupStorageSize;
  if (bytes > limit) {
    throw new Error(`${kernel}: needs ${bytes} bytes of workgroup memory for this model, the device allows ${limit}`);
  }
}

/** Bytes of decode-row.wgsl's row and reduce.wgsl's buffer (64 vec2). */
export function rowWorkgroupBytes(d: DecodeDims): number {
  return 4 * d.C + 64 * 8;
}
