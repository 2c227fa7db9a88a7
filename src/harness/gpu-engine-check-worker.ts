// Worker side of the browser check (gpu-engine-check.ts): builds the engine on this worker's own
// WebGPU device and returns what the test compares with the reference computed in Node.
import { acquireDevice } from '../primitives/webgpu-device.ts';
import { makeSequenceBatch } from '../model/sequence-batch.ts';
import { mulberry32 } from '../primitives/random.ts';
import { GpuPolicyEngine } from '../engine/webgpu/gpu-policy-engine.ts';
import type { EngineCheckRequest, EngineCheckResult } from './gpu-engine-check-api.ts';

self.onmessage = async (e: MessageEvent<EngineCheckRequest>) => {
  try {
    const req = e.data;
    const { device, info } = await acquireDevice();
    const batch = makeSequenceBatch(req.sequences.map((tokens) => ({ tokens, programStart: req.programStart })), req.T);
    const engine = new GpuPolicyEngine(device, req.config, { maxBatch: batch.B, maxSeq: req.T }, Float32Array.from(req.params), info.name);
    const logProbs = await engine.logProbs(batch, 'all');
    const grads = await engine.gradients(batch, { kind: 'sft' });
    const samples = await engine.sample([req.prompt], { maxNewTokens: req.maxNewTokens, rngs: [mulberry32(req.seed)], stopToken: -1 });
    await engine.dispose();
    const result: EngineCheckResult = {
      adapter: info.name, isSoftware: info.isSoftware, backend: engine.backend,
      logProbs: Array.from(logProbs), loss: grads.loss, grads: Array.from(grads.grads), sampled: samples[0].tokens,
    };
    self.postMessage({ ok: true, result });
  } catch (err) {
    self.postMessage({ ok: false, error: String(err instanceof Error ? err.stack ?? err.message : err) });
  }
};
