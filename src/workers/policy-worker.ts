// The policy worker: hosts the policy engine and the tokenizer, so sampling and updates never block
// the page. The CPU engine (onnxruntime-web wasm) by default; the WebGPU engine when the machine has
// a real adapter (WebGPU on CPU emulation is far slower than the wasm path, see docs/engines.md) whose
// engine passes its self-check against the reference model (src/engine/engine-self-check.ts).
// On the WebGPU engine the worker can also hold the frozen world model on the same device
// (loadWorldModel: a WebGPU engine of its own, src/engine/webgpu/gpu-world-model.ts), so that a
// training step's sampling, scoring and update all run on one GPUDevice: a device cannot cross workers.
import * as Comlink from 'comlink';
import { CpuEngine } from '../engine/cpu/cpu-engine.ts';
import type { PolicyEngine } from '../engine/policy-engine.ts';
import { acquireDevice } from '../primitives/webgpu-device.ts';
import { GpuPolicyEngine } from '../engine/webgpu/gpu-policy-engine.ts';
import { GpuWorldModel } from '../engine/webgpu/gpu-world-model.ts';
import { Tokenizer } from '../model/tokenizer.ts';
import { engineSelfCheck } from '../engine/engine-self-check.ts';
import { loadCheckpoint } from '../model/checkpoint.ts';
import type { Model } from '../model/init.ts';
import { PolicyHost } from './policy-host.ts';
import type { PolicyInfo, PolicyLoadRequest, PolicyWorkerApi } from './policy-api.ts';
import type { SamplingProgress } from '../training/ports.ts';
import type { WorldModelInfo, WorldModelScores } from './world-model-api.ts';

let host: PolicyHost | null = null;
/** The WebGPU engine's device and adapter, while the policy runs on it. */
let gpu: { device: GPUDevice; adapterName: string } | null = null;
let worldModel: GpuWorldModel | null = null;

async function bytesOf(source: ArrayBuffer | string): Promise<ArrayBuffer> {
  if (typeof source !== 'string') return source;
  const response = await fetch(source);
  if (!response.ok) throw new Error(`policy: fetching ${source} failed (${response.status})`);
  return response.arrayBuffer();
}

interface Chosen {
  engine: PolicyEngine;
  kind: 'cpu' | 'webgpu';
  reason: string;
  makeReference: (params: Float32Array) => Promise<PolicyEngine>;
  /** the WebGPU engine's device, which the world model may share */
  gpu?: { device: GPUDevice; adapterName: string };
}

async function chooseEngine(model: Model, prefer: PolicyLoadRequest['prefer'], maxBatch: number): Promise<Chosen> {
  const cpu = (why: string): Chosen => ({
    engine: CpuEngine.fromModel(model),
    kind: 'cpu',
    reason: why,
    makeReference: async (params) => CpuEngine.create(model.config, params),
  });
  if (prefer === 'cpu') return cpu('CPU engine requested');
  let acquired: GPUDevice | undefined;
  try {
    const { device, info } = await acquireDevice();
    acquired = device;
    if (info.isSoftware && prefer !== 'webgpu') {
      device.destroy();
      return cpu(`WebGPU adapter '${info.name}' is software emulation; CPU engine`);
    }
    const options = { maxBatch };
    const engine = new GpuPolicyEngine(device, model.config, options, model.params, info.name);
    const failed = await engineSelfCheck(engine, model);
    if (failed !== null) {
      await engine.dispose();
      device.destroy();
      const why = `the WebGPU engine on adapter '${info.name}' failed its self-check: ${failed}`;
      if (prefer === 'webgpu') throw new Error(`policy: ${why}`);
      return cpu(`${why}; CPU engine`);
    }
    return {
      engine,
      kind: 'webgpu',
      reason: `WebGPU adapter '${info.name}' (passed its self-check against the reference model)`,
      makeReference: async (params) => new GpuPolicyEngine(device, model.config, options, params, info.name),
      gpu: { device, adapterName: info.name },
    };
  } catch (e) {
    acquired?.destroy(); // an engine that threw while built or checked is not used: its device goes too
    if (prefer === 'webgpu') throw e;
    return cpu(`${e instanceof Error ? e.message : String(e)}; CPU engine`);
  }
}

function need(): PolicyHost {
  if (!host) throw new Error('policy: load() a checkpoint first');
  return host;
}

async function releaseAll(): Promise<void> {
  if (worldModel) await worldModel.dispose();
  worldModel = null;
  if (host) await host.dispose();
  host = null;
  gpu = null;
}

const api: PolicyWorkerApi = {
  async load(request): Promise<PolicyInfo> {
    await releaseAll();
    const { model, tokenizer } = loadCheckpoint(await bytesOf(request.checkpoint));
    if (!tokenizer) throw new Error('policy: the checkpoint carries no tokenizer');
    const maxBatch = request.maxBatch ?? 64;
    const chosen = await chooseEngine(model, request.prefer ?? 'auto', maxBatch);
    host = await PolicyHost.create(chosen.engine, tokenizer, { maxSampleBatch: maxBatch, makeReference: chosen.makeReference });
    gpu = chosen.gpu ?? null;
    return {
      backend: chosen.engine.backend,
      kind: chosen.kind,
      reason: chosen.reason,
      numParameters: model.layout.numParameters,
      contextLength: model.config.contextLength,
      vocabSize: model.config.vocabSize,
    };
  },
  async sample(requests, options, onProgress) {
    if (!onProgress) return need().sample(requests, options);
    const remote = onProgress as Comlink.Remote<(p: SamplingProgress) => void>;
    try {
      // Fire and forget: the page's answer is not waited for, and a page that went away stops nothing.
      return await need().sample(requests, options, (p) => void Promise.resolve(remote(p)).catch(() => undefined));
    } finally {
      remote[Comlink.releaseProxy]();
    }
  },
  async update(request) {
    return need().update(request);
  },
  async getWeights() {
    const w = await need().getWeights();
    const transfer = [w.params.buffer as ArrayBuffer, ...(w.optimizer ? [w.optimizer.m.buffer as ArrayBuffer, w.optimizer.v.buffer as ArrayBuffer] : [])];
    return Comlink.transfer(w, transfer);
  },
  setWeights: (weights) => need().setWeights(weights),
  async loadWorldModel(request): Promise<WorldModelInfo> {
    if (!gpu) throw new Error('world model: the policy does not run on the WebGPU engine, so there is no device to share');
    if (worldModel) await worldModel.dispose();
    worldModel = null;
    const bytes = typeof request.model === 'string' ? new Uint8Array(await bytesOf(request.model)) : request.model;
    const wm = GpuWorldModel.create(gpu.device, bytes, Tokenizer.fromJSON(request.tokenizer), request.nHeads, { adapterName: gpu.adapterName });
    try {
      if (wm.model.config.contextLength !== request.contextLength) {
        throw new Error(`world model: the model's context is ${wm.model.config.contextLength} tokens, the request says ${request.contextLength}`);
      }
      const failed = await wm.selfCheck();
      if (failed !== null) throw new Error(`world model: the WebGPU engine on adapter '${gpu.adapterName}' failed its self-check: ${failed}`);
    } catch (e) {
      await wm.dispose();
      throw e;
    }
    worldModel = wm;
    return { backend: 'webgpu', reason: `the policy's WebGPU engine, on its device (adapter '${gpu.adapterName}'; passed its self-check against the reference model)` };
  },
  async scoreWorldModel(pairs): Promise<WorldModelScores> {
    if (!worldModel) throw new Error('world model: loadWorldModel() first');
    const r = await worldModel.score(pairs);
    return { scores: Array.from(r.scores), backend: worldModel.backend, truncated: r.truncated, forwards: r.forwards, ms: r.ms };
  },
  release: releaseAll,
};

Comlink.expose(api);
