import * as Comlink from 'comlink';
import type { GpuWorkerApi } from './gpu-api.ts';

export interface GpuWorkerHandle {
  api: Comlink.Remote<GpuWorkerApi>;
  terminate(): void;
}

/** Starts the GPU worker. WebGPU is used from workers so the page stays responsive during long dispatches. */
export function startGpuWorker(): GpuWorkerHandle {
  const worker = new Worker(new URL('./gpu-worker.ts', import.meta.url), { type: 'module', name: 'gpu' });
  const api = Comlink.wrap<GpuWorkerApi>(worker);
  return {
    api,
    terminate: () => {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
