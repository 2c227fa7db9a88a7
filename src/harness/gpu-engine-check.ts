// Page module for the browser test of the engine (tests/e2e/gpu-engine.test.ts): runs the engine in
// a dedicated module worker, as the product's policy worker does, and returns its outputs.
import type { EngineCheckRequest, EngineCheckResult } from './gpu-engine-check-api.ts';

export function runEngineInWorker(req: EngineCheckRequest): Promise<EngineCheckResult> {
  const worker = new Worker(new URL('./gpu-engine-check-worker.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<{ ok: true; result: EngineCheckResult } | { ok: false; error: string }>) => {
      worker.terminate();
      if (e.data.ok) resolve(e.data.result);
      else reject(new Error(e.data.error));
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(`engine worker failed: ${e.message}`));
    };
    worker.postMessage(req);
  });
}
