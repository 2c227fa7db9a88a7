// Node-side WebGPU for the gpu test project: Dawn (the `webgpu` package) on SwiftShader.
import { existsSync } from 'node:fs';
import { create, globals } from 'webgpu';
import { acquireDevice, type GpuContext } from '../../src/primitives/webgpu-device.ts';
import { type Dispatch, encodeDispatches, submit } from '../../src/gpu/kernel.ts';

Object.assign(globalThis, globals);

// Must stay referenced for the life of the process: if Dawn's GPU object is collected, Dawn crashes.
// disable_robustness drops bounds-check instrumentation; our kernels check bounds themselves.
const gpu: GPU = create(['enable-dawn-features=disable_robustness']);
(globalThis as { __dawnGpu?: GPU }).__dawnGpu = gpu;

let context: Promise<GpuContext> | undefined;

/** The process-wide device; fails with a clear message when SwiftShader's Vulkan driver is missing. */
export function testDevice(): Promise<GpuContext> {
  const icd = process.env.VK_ICD_FILENAMES;
  if (icd && !existsSync(icd)) {
    return Promise.reject(new Error(`VK_ICD_FILENAMES points to ${icd}, which does not exist (install chromium)`));
  }
  context ??= acquireDevice({ gpu }).then((ctx) => {
    ctx.device.addEventListener('uncapturederror', (e) => {
      console.error('WebGPU uncaptured error:', (e as GPUUncapturedErrorEvent).error.message);
    });
    return ctx;
  });
  return context;
}

/** Runs fn inside validation and out-of-memory error scopes and throws the first error found. */
export async function expectNoGpuError<T>(device: GPUDevice, fn: () => Promise<T>): Promise<T> {
  device.pushErrorScope('validation');
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('internal');
  const result = await fn();
  const errors = await Promise.all([device.popErrorScope(), device.popErrorScope(), device.popErrorScope()]);
  const first = errors.find((e) => e !== null);
  if (first) throw new Error(`GPU error: ${first.message}`);
  return result;
}

/** Encodes `dispatches` as one compute pass (as the decoder does) and submits it. */
export function submitPass(device: GPUDevice, dispatches: readonly Dispatch[]): void {
  submit(device, (encoder) => {
    const pass = encoder.beginComputePass();
    encodeDispatches(pass, dispatches);
    pass.end();
  });
}
