// Buffer helpers: storage buffers for tensors, uploads, and read-back through a staging buffer.

// Read lazily: in Node the GPU* globals only exist once the Dawn module has installed them.
function storageUsage(): number {
  return GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
}

/** WebGPU wants sizes in multiples of 4 bytes and rejects zero-sized bindings. */
function paddedSize(bytes: number): number {
  return Math.max(4, Math.ceil(bytes / 4) * 4);
}

export function createStorageBuffer(device: GPUDevice, byteLength: number, label?: string): GPUBuffer {
  return device.createBuffer({ size: paddedSize(byteLength), usage: storageUsage(), label });
}

/** A storage buffer holding a copy of `data` (Float32Array, Int32Array, Uint32Array). */
export function uploadBuffer(
  device: GPUDevice,
  data: Float32Array | Int32Array | Uint32Array,
  label?: string,
): GPUBuffer {
  const buffer = createStorageBuffer(device, data.byteLength, label);
  writeBuffer(device, buffer, data);
  return buffer;
}

export function writeBuffer(device: GPUDevice, buffer: GPUBuffer, data: Float32Array | Int32Array | Uint32Array): void {
  // Copy views backed by SharedArrayBuffer: Dawn in Node refuses them.
  const plain = data.buffer instanceof ArrayBuffer ? data : data.slice();
  if (plain.byteLength > 0) device.queue.writeBuffer(buffer, 0, plain.buffer, plain.byteOffset, plain.byteLength);
}

/** A zero-filled storage buffer of n float32 (or 32-bit integer) elements. */
export function zerosBuffer(device: GPUDevice, n: number, label?: string): GPUBuffer {
  // createBuffer memory starts zeroed per the WebGPU spec
  return createStorageBuffer(device, n * 4, label);
}

/**
 * Encodes a copy of the first `byteLength` bytes of `buffer` into a staging buffer; after the
 * encoder's commands are submitted, the returned function maps them and gives them back. Lets a
 * read-back ride in the submission that computes it.
 */
export function encodeReadback(encoder: GPUCommandEncoder, device: GPUDevice, buffer: GPUBuffer, byteLength = buffer.size): () => Promise<ArrayBuffer> {
  const size = paddedSize(byteLength);
  const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, size);
  return async () => {
    await staging.mapAsync(GPUMapMode.READ);
    const copy = staging.getMappedRange().slice(0, byteLength);
    staging.unmap();
    staging.destroy();
    return copy;
  };
}

/** Reads `byteLength` bytes (default: the whole buffer) back to the CPU after all submitted work. */
export async function readBuffer(device: GPUDevice, buffer: GPUBuffer, byteLength = buffer.size): Promise<ArrayBuffer> {
  const encoder = device.createCommandEncoder();
  const read = encodeReadback(encoder, device, buffer, byteLength);
  device.queue.submit([encoder.finish()]);
  return read();
}

export async function readFloat32(device: GPUDevice, buffer: GPUBuffer, n: number): Promise<Float32Array> {
  return new Float32Array(await readBuffer(device, buffer, n * 4));
}

export async function readInt32(device: GPUDevice, buffer: GPUBuffer, n: number): Promise<Int32Array> {
  return new Int32Array(await readBuffer(device, buffer, n * 4));
}
