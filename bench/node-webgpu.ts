// WebGPU in a Node bench process: Dawn (the `webgpu` package), set up as tests/gpu/dawn.ts does.
// The kernels import WGSL with vite's `?raw`; outside vite a module hook provides the same thing, so
// every module that reaches src/gpu/ must be imported dynamically AFTER startNodeWebGpu().
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import type { GpuContext } from '../src/primitives/webgpu-device.ts';

const rawHook = `
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
export async function resolve(specifier, context, next) {
  if (specifier.endsWith('?raw')) return { url: new URL(specifier, context.parentURL).href, shortCircuit: true };
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (url.endsWith('?raw')) {
    const text = await readFile(fileURLToPath(url.slice(0, -4)), 'utf8');
    return { format: 'module', source: 'export default ' + JSON.stringify(text), shortCircuit: true };
  }
  return next(url, context);
}`;

/** Debian's Chromium ships SwiftShader's Vulkan driver here (vite.config.ts uses the same file for the tests). */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

export interface NodeWebGpuOptions {
  /**
   * Point the Vulkan loader at SwiftShader when VK_ICD_FILENAMES is unset (a box without a GPU).
   * Off for a real-GPU run, where the system's own drivers must be found.
   */
  swiftShaderFallback: boolean;
}

export type NodeWebGpu = { ok: true; context: GpuContext } | { ok: false; reason: string };

// Kept referenced for the life of the process: Dawn crashes if its GPU object is collected.
let dawnGpu: GPU | undefined;
let started: Promise<NodeWebGpu> | undefined;

/**
 * Points the Vulkan loader at SwiftShader when VK_ICD_FILENAMES is unset and the driver is installed.
 * The loader reads the variable once, when Dawn first starts: call this before (an entry calls it
 * first thing; startNodeWebGpu calls it again, harmlessly).
 */
export function useSwiftShaderIfUnset(): void {
  if (process.env.VK_ICD_FILENAMES === undefined && existsSync(SWIFTSHADER_ICD)) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
}

async function start(options: NodeWebGpuOptions): Promise<NodeWebGpu> {
  if (options.swiftShaderFallback) useSwiftShaderIfUnset();
  register(`data:text/javascript,${encodeURIComponent(rawHook)}`);
  try {
    const { create, globals } = await import('webgpu');
    Object.assign(globalThis, globals);
    // disable_robustness drops bounds-check instrumentation; the kernels check bounds themselves
    dawnGpu = create(['enable-dawn-features=disable_robustness']);
    const { acquireDevice } = await import('../src/primitives/webgpu-device.ts');
    return { ok: true, context: await acquireDevice({ gpu: dawnGpu }) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/** Starts Dawn once per process and asks for an adapter and a device; never throws. */
export function startNodeWebGpu(options: NodeWebGpuOptions): Promise<NodeWebGpu> {
  started ??= start(options);
  return started;
}
