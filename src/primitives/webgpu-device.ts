// WebGPU device acquisition: one place that asks for an adapter and a device, reports what it got,
// and turns every way of not getting one into a single, explainable error.

export type WebGPUUnavailableReason = 'no-webgpu' | 'no-adapter' | 'device-failed';

/** Thrown when WebGPU cannot be used; `reason` lets the UI pick a message and a fallback. */
export class WebGPUUnavailableError extends Error {
  readonly reason: WebGPUUnavailableReason;
  constructor(reason: WebGPUUnavailableReason, detail: string) {
    super(`WebGPU unavailable (${reason}): ${detail}`);
    this.name = 'WebGPUUnavailableError';
    this.reason = reason;
  }
}

export interface AdapterDescription {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** best human-readable name: description, else vendor/architecture/device joined */
  name: string;
  /** true for CPU emulation (SwiftShader, llvmpipe, WARP): correctness only, never fast */
  isSoftware: boolean;
}

export interface GpuContext {
  adapter: GPUAdapter;
  device: GPUDevice;
  info: AdapterDescription;
}

export interface AcquireOptions {
  /** the GPU entry point; defaults to navigator.gpu (Node tests pass Dawn's) */
  gpu?: GPU;
  powerPreference?: GPUPowerPreference;
}

const SOFTWARE_NAMES = /swiftshader|llvmpipe|lavapipe|warp|software|basic render/i;

export function describeAdapter(adapter: GPUAdapter): AdapterDescription {
  const i = adapter.info;
  const vendor = i?.vendor ?? '';
  const architecture = i?.architecture ?? '';
  const device = i?.device ?? '';
  const description = i?.description ?? '';
  const name = description || [vendor, architecture, device].filter((s) => s).join(' ') || 'unknown adapter';
  const isSoftware = SOFTWARE_NAMES.test(`${vendor} ${architecture} ${device} ${description}`);
  return { vendor, architecture, device, description, name, isSoftware };
}

function defaultGpu(): GPU | undefined {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  return nav?.gpu;
}

// Limits the kernels benefit from, raised to what the adapter allows (defaults are small: 128 MiB buffers).
const WANTED_LIMITS = [
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxStorageBuffersPerShaderStage',
] as const;

export async function acquireDevice(options: AcquireOptions = {}): Promise<GpuContext> {
  const gpu = options.gpu ?? defaultGpu();
  if (!gpu) throw new WebGPUUnavailableError('no-webgpu', 'this environment has no navigator.gpu');
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: options.powerPreference ?? 'high-performance' });
  } catch (e) {
    throw new WebGPUUnavailableError('no-adapter', `requestAdapter threw: ${String(e)}`);
  }
  if (!adapter) throw new WebGPUUnavailableError('no-adapter', 'requestAdapter returned null (blocklisted or disabled)');
  const requiredLimits: Record<string, number> = {};
  for (const key of WANTED_LIMITS) requiredLimits[key] = adapter.limits[key];
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredLimits });
  } catch (e) {
    throw new WebGPUUnavailableError('device-failed', `requestDevice threw: ${String(e)}`);
  }
  return { adapter, device, info: describeAdapter(adapter) };
}
