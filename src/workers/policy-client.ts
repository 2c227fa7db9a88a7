import * as Comlink from 'comlink';
import type { PolicyInfo, PolicyLoadRequest, PolicyWorkerApi } from './policy-api.ts';
import type { PolicyPort, PolicyUpdateRequest, PolicyWeights } from '../training/ports.ts';

export interface PolicyWorkerHandle {
  api: Comlink.Remote<PolicyWorkerApi>;
  /** load() with checkpoint bytes transferred rather than copied */
  load(request: PolicyLoadRequest): Promise<PolicyInfo>;
  terminate(): void;
}

/** Starts the policy worker (a module worker, so onnxruntime-web threads and WebGPU work there). */
export function startPolicyWorker(): PolicyWorkerHandle {
  const worker = new Worker(new URL('./policy-worker.ts', import.meta.url), { type: 'module', name: 'policy' });
  const api = Comlink.wrap<PolicyWorkerApi>(worker);
  return {
    api,
    load: (request) => {
      const transfer = typeof request.checkpoint === 'string' ? [] : [request.checkpoint];
      return api.load(Comlink.transfer(request, transfer));
    },
    terminate: () => {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

/** The PolicyPort over a loaded policy worker. Update batches are copied (the trainer keeps nothing of them). */
export function workerPolicyPort(handle: PolicyWorkerHandle, info: PolicyInfo): PolicyPort {
  const { api } = handle;
  return {
    backend: info.backend,
    sample: (requests, options, onProgress) => (onProgress ? api.sample([...requests], options, Comlink.proxy(onProgress)) : api.sample([...requests], options)),
    update: (request: PolicyUpdateRequest) => api.update(request),
    getWeights: () => api.getWeights(),
    setWeights: (weights: PolicyWeights) => api.setWeights(weights),
  };
}
