// Sub-range bindings: the engine keeps every parameter in ONE buffer (the flat layout of
// src/model/parameter-layout.ts, views aligned to 256 bytes) and binds each tensor as a range of it.
// The project's host wrappers (src/gpu/*.ts) bind whole buffers only, so the kernels that take a
// parameter or a gradient are dispatched here with the same WGSL, entry points and uniform blocks.

import { getPipeline, type KernelSpec } from '../kernel.ts';

/** A float32 (or int32) range of a buffer; offset and length in elements. */
export interface TensorSlice {
  buffer: GPUBuffer;
  offset: number;
  length: number;
}

/** A whole buffer or a range of one. */
export type Operand = GPUBuffer | TensorSlice;

/** WebGPU's default minStorageBufferOffsetAlignment, in floats (256 bytes). */
export const SLICE_ALIGNMENT = 64;

export function isSlice(o: Operand): o is TensorSlice {
  return (o as TensorSlice).length !== undefined && (o as TensorSlice).buffer !== undefined;
}

export function slice(buffer: GPUBuffer, offset: number, length: number): TensorSlice {
  if (offset % SLICE_ALIGNMENT !== 0) throw new Error(`slice: offset ${offset} is not a multiple of ${SLICE_ALIGNMENT} floats`);
  if ((offset + length) * 4 > buffer.size) {
    throw new Error(`slice: [${offset}, ${offset + length}) exceeds buffer '${buffer.label}' of ${buffer.size / 4} floats`);
  }
  return { buffer, offset, length };
}

function binding(o: Operand): GPUBufferBinding {
  if (!isSlice(o)) return { buffer: o };
  return { buffer: o.buffer, offset: o.offset * 4, size: Math.max(4, o.length * 4) };
}

/** encodeKernel of src/gpu/kernel.ts, with operands that may be ranges of a buffer. */
export function dispatch(
  encoder: GPUCommandEncoder,
  device: GPUDevice,
  spec: KernelSpec,
  bindings: readonly (Operand | null)[],
  workgroups: readonly [number, number?, number?],
): void {
  const pipeline = getPipeline(device, spec);
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: bindings.flatMap((o, i) => (o ? [{ binding: i, resource: binding(o) }] : [])),
  });
  const pass = encoder.beginComputePass({ label: spec.label });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(workgroups[0], workgroups[1] ?? 1, workgroups[2] ?? 1);
  pass.end();
}

/** Copies `length` floats between ranges (byte offsets need only 4-byte alignment here). */
export function copyFloats(encoder: GPUCommandEncoder, src: GPUBuffer, srcOffset: number,
  dst: GPUBuffer, dstOffset: number, length: number): void {
  if (length > 0) encoder.copyBufferToBuffer(src, srcOffset * 4, dst, dstOffset * 4, length * 4);
}
