// Sub-range bindings: the engine keeps every parameter in ONE buffer (the flat layout of
// src/model/parameter-layout.ts, views aligned to 256 bytes) and passes each tensor to the kernel
// wrappers of src/gpu/*.ts as a GPUBufferBinding of its range (a BufferRef, see src/gpu/kernel.ts).

/** WebGPU's default minStorageBufferOffsetAlignment, in floats (256 bytes). */
export const SLICE_ALIGNMENT = 64;

/**
 * A float32 (or int32) range of a buffer, offset and length in elements, and the same range as a
 * kernel operand. It has no `buffer` field of its own, so an element range cannot be passed where a
 * byte-range binding is expected by mistake.
 */
export interface TensorSlice {
  readonly offset: number;
  readonly length: number;
  readonly binding: GPUBufferBinding;
}

/** A range WebGPU can bind: the offset aligned, the end inside the buffer. */
export function slice(buffer: GPUBuffer, offset: number, length: number): TensorSlice {
  if (offset % SLICE_ALIGNMENT !== 0) throw new Error(`slice: offset ${offset} is not a multiple of ${SLICE_ALIGNMENT} floats`);
  if ((offset + length) * 4 > buffer.size) {
    throw new Error(`slice: [${offset}, ${offset + length}) exceeds buffer '${buffer.label}' of ${buffer.size / 4} floats`);
  }
  // zero-sized bindings are invalid; a 4-byte one is harmless for an empty tensor
  return { offset, length, binding: { buffer, offset: offset * 4, size: Math.max(4, length * 4) } };
}

/** Copies `length` floats between ranges (byte offsets need only 4-byte alignment here). */
export function copyFloats(encoder: GPUCommandEncoder, src: GPUBuffer, srcOffset: number,
  dst: GPUBuffer, dstOffset: number, length: number): void {
  if (length > 0) encoder.copyBufferToBuffer(src, srcOffset * 4, dst, dstOffset * 4, length * 4);
}
