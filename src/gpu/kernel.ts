// Compute kernels: a pipeline cache keyed by WGSL source, entry point and override constants, and
// helpers to encode a dispatch with its bindings (bind groups kept across dispatches) and a small
// uniform block of parameters.

import reductions from './kernels/reduce.wgsl?raw';

/**
 * Kernel source with the shared workgroup reductions (kernels/reduce.wgsl) in front, for kernels
 * that declare `const WG` and call reduceSum/reduceMax/reduceSum2: WGSL has no #include.
 */
export function withReductions(kernel: string): string {
  return `${reductions}\n${kernel}`;
}

export interface KernelSpec {
  /** WGSL source, imported with `?raw` */
  code: string;
  entryPoint: string;
  /** values for `override` declarations (booleans as 0/1) */
  constants?: Record<string, number>;
  label?: string;
}

// Keyed by the source first: a string's hash is cached on the string, and a kernel's source is the same
// string at every call, whereas a key built by concatenating it would be hashed in full at every
// dispatch (about 11 us for a 7 kB kernel on the 2-core VM; the training pass makes hundreds of dispatches).
const pipelines = new WeakMap<GPUDevice, Map<string, Map<string, GPUComputePipeline>>>();
const modules = new WeakMap<GPUDevice, Map<string, GPUShaderModule>>();

export function getPipeline(device: GPUDevice, spec: KernelSpec): GPUComputePipeline {
  let byDevice = pipelines.get(device);
  if (!byDevice) pipelines.set(device, (byDevice = new Map()));
  let byCode = byDevice.get(spec.code);
  if (!byCode) byDevice.set(spec.code, (byCode = new Map()));
  const constants = spec.constants ?? {};
  const key = `${spec.entryPoint}|${JSON.stringify(constants)}`;
  let pipeline = byCode.get(key);
  if (!pipeline) {
    let mods = modules.get(device);
    if (!mods) modules.set(device, (mods = new Map()));
    let module = mods.get(spec.code);
    if (!module) mods.set(spec.code, (module = device.createShaderModule({ code: spec.code, label: spec.label })));
    pipeline = device.createComputePipeline({
      label: spec.label ? `${spec.label}:${spec.entryPoint}` : spec.entryPoint,
      layout: 'auto',
      compute: { module, entryPoint: spec.entryPoint, constants },
    });
    byCode.set(key, pipeline);
  }
  return pipeline;
}

/** Scalar fields of a uniform block, in declaration order; every field is 4 bytes. */
export type UniformField = readonly ['u32' | 'i32' | 'f32', number];

// Parameter blocks repeat across steps (same shapes), so uniform buffers are shared by content.
// They are never written after creation, which makes sharing safe. Evicted entries are dropped,
// not destroyed: a command buffer still being encoded may use them; the GC frees them.
const UNIFORM_CACHE_SIZE = 2048;
const uniforms = new WeakMap<GPUDevice, Map<string, GPUBuffer>>();

export function uniformBuffer(device: GPUDevice, fields: readonly UniformField[]): GPUBuffer {
  const size = Math.max(16, Math.ceil((fields.length * 4) / 16) * 16);
  const data = new ArrayBuffer(size);
  const view = new DataView(data);
  fields.forEach(([type, value], i) => {
    if (type === 'f32') view.setFloat32(i * 4, value, true);
    else if (type === 'i32') view.setInt32(i * 4, value, true);
    else view.setUint32(i * 4, value, true);
  });
  let cache = uniforms.get(device);
  if (!cache) uniforms.set(device, (cache = new Map()));
  const key = Array.from(new Uint32Array(data), (w) => w.toString(16)).join(',');
  const hit = cache.get(key);
  if (hit) return hit;
  const buffer = device.createBuffer({ size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  device.queue.writeBuffer(buffer, 0, data);
  if (cache.size >= UNIFORM_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, buffer);
  return buffer;
}

/**
 * What a kernel operand is bound as: a whole buffer, or a GPUBufferBinding for a byte range of one
 * (offset aligned to minStorageBufferOffsetAlignment, 256 by default), e.g. one tensor of a flat
 * parameter buffer.
 */
export type BufferRef = GPUBuffer | GPUBufferBinding;

/**
 * Buffers in binding order: entry i is @binding(i) of @group(0). null leaves a binding out, for
 * entry points that do not use every binding of a shared layout ('auto' layouts drop unused ones).
 */
export type Bindings = readonly (BufferRef | null)[];

/** True for a GPUBufferBinding range, false for a whole GPUBuffer. */
export function isBufferBinding(b: BufferRef): b is GPUBufferBinding {
  return (b as GPUBufferBinding).buffer !== undefined && (b as GPUBuffer).mapState === undefined;
}

export const MAX_WORKGROUPS_PER_DIM = 65535;

/**
 * Splits a 1-D count of workgroups into a 2-D grid within the per-dimension limit; kernels
 * rebuild the linear index as wid.x + wid.y * num_workgroups.x and skip indices past the count.
 */
export function grid(count: number): [number, number] {
  if (count <= MAX_WORKGROUPS_PER_DIM) return [Math.max(1, count), 1];
  const y = Math.ceil(count / MAX_WORKGROUPS_PER_DIM);
  return [Math.ceil(count / y), y];
}

// Bind groups repeat too (the same buffers every step, and at every token of a sampled program), and
// making one is most of what encoding a dispatch costs (docs/engines.md). A bind group is kept per
// pipeline and the exact buffers and ranges it binds; buffers are told apart by an id given once, never
// reused, so an entry for a buffer since destroyed is never hit again and ages out. Bounded per pipeline
// like the uniforms: the oldest entry is dropped, and the GC frees it.
const BIND_GROUPS_PER_PIPELINE = 4096;
const bindGroups = new WeakMap<GPUComputePipeline, Map<string, GPUBindGroup>>();
const bufferIds = new WeakMap<GPUBuffer, number>();
let nextBufferId = 0;

function bufferId(buffer: GPUBuffer): number {
  let id = bufferIds.get(buffer);
  if (id === undefined) bufferIds.set(buffer, (id = nextBufferId++));
  return id;
}

function bindGroupFor(device: GPUDevice, pipeline: GPUComputePipeline, bindings: Bindings): GPUBindGroup {
  let kept = bindGroups.get(pipeline);
  if (!kept) bindGroups.set(pipeline, (kept = new Map()));
  const key = bindings.map((b) => (b === null ? '-' : isBufferBinding(b) ? `${bufferId(b.buffer)}@${b.offset ?? 0}+${b.size ?? ''}` : String(bufferId(b)))).join(',');
  const hit = kept.get(key);
  if (hit) return hit;
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: bindings.flatMap((b, binding) =>
      b ? [{ binding, resource: isBufferBinding(b) ? b : { buffer: b } }] : []),
  });
  if (kept.size >= BIND_GROUPS_PER_PIPELINE) kept.delete(kept.keys().next().value as string);
  kept.set(key, group);
  return group;
}

/** One dispatch made ready: its pipeline, its (kept) bind group and its grid. */
export interface Dispatch {
  readonly pipeline: GPUComputePipeline;
  readonly bindGroup: GPUBindGroup;
  readonly workgroups: readonly [number, number, number];
}

export function prepareKernel(device: GPUDevice, spec: KernelSpec, bindings: Bindings,
  workgroups: readonly [number, number?, number?]): Dispatch {
  const pipeline = getPipeline(device, spec);
  return { pipeline, bindGroup: bindGroupFor(device, pipeline, bindings), workgroups: [workgroups[0], workgroups[1] ?? 1, workgroups[2] ?? 1] };
}

/**
 * Records dispatches into one compute pass, in order: WebGPU makes each dispatch's storage writes
 * visible to the next, so a chain of kernels needs no pass of its own per kernel.
 */
export function encodeDispatches(pass: GPUComputePassEncoder, dispatches: readonly Dispatch[]): void {
  for (const d of dispatches) {
    pass.setPipeline(d.pipeline);
    pass.setBindGroup(0, d.bindGroup);
    pass.dispatchWorkgroups(d.workgroups[0], d.workgroups[1], d.workgroups[2]);
  }
}

export function encodeKernel(
  encoder: GPUCommandEncoder,
  device: GPUDevice,
  spec: KernelSpec,
  bindings: Bindings,
  workgroups: readonly [number, number?, number?],
): void {
  const pass = encoder.beginComputePass({ label: spec.label });
  encodeDispatches(pass, [prepareKernel(device, spec, bindings, workgroups)]);
  pass.end();
}

/** Encodes with `fn` and submits at once: for one-off calls and tests. */
export function submit(device: GPUDevice, fn: (encoder: GPUCommandEncoder) => void): void {
  const encoder = device.createCommandEncoder();
  fn(encoder);
  device.queue.submit([encoder.finish()]);
}
