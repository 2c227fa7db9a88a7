// The contract between the page and the GPU worker (comlink). Types only: both sides import it.
/** What the GPU worker reports of the adapter it found (GPUAdapterInfo's fields that it fills in). */
export interface AdapterSummary {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  isFallbackAdapter?: boolean;
}

export interface GpuProbe {
  adapter: AdapterSummary | null;
  /** Why there is no adapter, when there is none. */
  error?: string;
  /** Limits that decide which model configurations fit. */
  maxStorageBufferBindingSize?: number;
  maxBufferSize?: number;
}

export interface KernelCheck {
  kernel: string;
  /** M, K, N of the product checked. */
  shape: [number, number, number];
  maxAbsError: number;
  tolerance: number;
  passed: boolean;
  /** Wall time of the GPU dispatch including the read-back, in ms. */
  gpuMs: number;
}

export interface GpuWorkerApi {
  probe(): Promise<GpuProbe>;
  /** Runs a real WGSL kernel on seeded inputs and compares it with the TypeScript reference. */
  kernelCheck(seed: number): Promise<KernelCheck>;
}
