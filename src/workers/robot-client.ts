import * as Comlink from 'comlink';
import type { RobotLoadRequest, RobotWorkerApi } from './robot-api.ts';

export interface RobotWorkerHandle {
  api: Comlink.Remote<RobotWorkerApi>;
  /** load() with the checkpoints transferred rather than copied */
  load(request: RobotLoadRequest): ReturnType<RobotWorkerApi['load']>;
  terminate(): void;
}

/** Starts the robot worker (a module worker, so onnxruntime-web can use threads there). */
export function startRobotWorker(): RobotWorkerHandle {
  const worker = new Worker(new URL('./robot-worker.ts', import.meta.url), { type: 'module', name: 'robot' });
  const api = Comlink.wrap<RobotWorkerApi>(worker);
  return {
    api,
    load: (request) => api.load(Comlink.transfer(request, [request.policy, request.progress])),
    terminate: () => {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
