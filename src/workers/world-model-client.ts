import * as Comlink from 'comlink';
import type { WorldModelApi, WorldModelLoadRequest } from './world-model-api.ts';

export interface WorldModelWorkerHandle {
  api: Comlink.Remote<WorldModelApi>;
  /** load() with the model bytes transferred rather than copied */
  load(request: WorldModelLoadRequest): ReturnType<WorldModelApi['load']>;
  terminate(): void;
}

/** Starts the world-model worker (a module worker, so onnxruntime-web can use threads and WebGPU there). */
export function startWorldModelWorker(): WorldModelWorkerHandle {
  const worker = new Worker(new URL('./world-model-worker.ts', import.meta.url), { type: 'module', name: 'world-model' });
  const api = Comlink.wrap<WorldModelApi>(worker);
  return {
    api,
    load: (request) => {
      const transfer = typeof request.model === 'string' ? [] : [request.model.buffer as ArrayBuffer];
      return api.load(Comlink.transfer(request, transfer));
    },
    terminate: () => {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
