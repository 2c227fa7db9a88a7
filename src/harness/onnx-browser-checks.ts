// Checks of the exported graphs inside a browser, for the Chromium e2e tests (and usable as start-up
// checks): run a model on the wasm EP, on the WebGPU EP sharing a device we own (gpu-buffer outputs,
// Tensor.fromGpuBuffer inputs), and through the world-model worker. Inputs and outputs are plain
// arrays so that they cross page.evaluate unchanged.

import { appUrl } from '../primitives/app-root.ts';
import { startWorldModelWorker } from '../workers/world-model-client.ts';
import { WorldModelRunner } from '../engine/onnx/world-model-runner.ts';
import type { WorldModelPair } from '../engine/onnx/world-model-runner.ts';
import { Tokenizer } from '../model/tokenizer.ts';
import type { TokenizerJSON } from '../model/tokenizer.ts';

type OrtModule = typeof import('onnxruntime-web');

function configure(ortModule: OrtModule, threads: number): void {
  ortModule.env.wasm.wasmPaths = appUrl('vendor/ort/');
  ortModule.env.wasm.numThreads = threads;
  ortModule.env.logLevel = 'error';
}

const i64 = (values: readonly number[]): BigInt64Array => BigInt64Array.from(values.map((v) => BigInt(v)));

export interface GraphRun {
  /** output name -> values */
  outputs: Record<string, number[]>;
  /** wasm threads used (wasm EP) */
  threads: number;
  crossOriginIsolated: boolean;
  ms: number;
}

export interface GraphRequest {
  model: number[];
  /** int64 inputs: name -> [values, dims] */
  ints: Record<string, [number[], number[]]>;
  outputs: string[];
}

/** Runs a model on the wasm EP (default onnxruntime-web bundle) with int64 inputs. */
export async function runOnWasm(request: GraphRequest): Promise<GraphRun> {
  const ortModule = await import('onnxruntime-web');
  const threads = crossOriginIsolated ? Math.min(4, navigator.hardwareConcurrency || 2) : 1;
  configure(ortModule, threads);
  const session = await ortModule.InferenceSession.create(Uint8Array.from(request.model), { executionProviders: ['wasm'], logSeverityLevel: 3 });
  const feeds: Record<string, InstanceType<OrtModule['Tensor']>> = {};
  for (const [name, [values, dims]] of Object.entries(request.ints)) feeds[name] = new ortModule.Tensor('int64', i64(values), dims);
  const t0 = performance.now();
  const out = await session.run(feeds);
  const ms = performance.now() - t0;
  const outputs: Record<string, number[]> = {};
  for (const name of request.outputs) outputs[name] = Array.from(out[name].data as Float32Array);
  await session.release();
  return { outputs, threads: ortModule.env.wasm.numThreads ?? 1, crossOriginIsolated, ms };
}

export interface WebgpuRun extends GraphRun {
  adapter: string;
  /** where each output was left by the EP (expected 'gpu-buffer') */
  locations: Record<string, string>;
  /** an output buffer copied and read back with OUR device: proves it belongs to that device */
  copiedWithOurDevice: boolean;
  /** whether the int64 inputs were passed as GPU buffers (Tensor.fromGpuBuffer) */
  gpuInputs: boolean;
}

/**
 * Runs a model on the WebGPU EP of the onnxruntime-web/webgpu bundle on a device this page acquired,
 * inputs uploaded to buffers of that device (Tensor.fromGpuBuffer) when gpuInputs, outputs in GPU buffers.
 */
export async function runOnWebgpu(request: GraphRequest & { gpuInputs: boolean }): Promise<WebgpuRun> {
  const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
  if (!gpu) throw new Error('no navigator.gpu');
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter');
  const device = await adapter.requestDevice({
    requiredLimits: { maxBufferSize: adapter.limits.maxBufferSize, maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize, maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize },
  });
  const ortModule = (await import('onnxruntime-web/webgpu')) as unknown as OrtModule;
  configure(ortModule, 1);
  const provider = { name: 'webgpu', device } as unknown as import('onnxruntime-web').InferenceSession.ExecutionProviderConfig;
  const session = await ortModule.InferenceSession.create(Uint8Array.from(request.model), {
    executionProviders: [provider],
    preferredOutputLocation: 'gpu-buffer',
    logSeverityLevel: 3,
  });
  const feeds: Record<string, InstanceType<OrtModule['Tensor']>> = {};
  const owned: GPUBuffer[] = [];
  for (const [name, [values, dims]] of Object.entries(request.ints)) {
    if (request.gpuInputs) {
      const data = i64(values);
      const buffer = device.createBuffer({ size: Math.max(16, Math.ceil(data.byteLength / 16) * 16), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(buffer, 0, data);
      owned.push(buffer);
      feeds[name] = ortModule.Tensor.fromGpuBuffer(buffer, { dataType: 'int64', dims });
    } else {
      feeds[name] = new ortModule.Tensor('int64', i64(values), dims);
    }
  }
  const t0 = performance.now();
  const out = await session.run(feeds);
  await device.queue.onSubmittedWorkDone();
  const ms = performance.now() - t0;
  const outputs: Record<string, number[]> = {};
  const locations: Record<string, string> = {};
  let copiedWithOurDevice = false;
  for (const name of request.outputs) {
    const t = out[name];
    locations[name] = t.location;
    if (t.location === 'gpu-buffer' && !copiedWithOurDevice) {
      // Copy with our own encoder: a buffer from another device would fail validation here.
      const src = t.gpuBuffer as GPUBuffer;
      const size = t.size * 4; // float32 outputs
      const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      device.pushErrorScope('validation');
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(src, 0, staging, 0, size);
      device.queue.submit([encoder.finish()]);
      const error = await device.popErrorScope();
      if (!error) {
        await staging.mapAsync(GPUMapMode.READ);
        const copied = new Float32Array(staging.getMappedRange().slice(0));
        staging.unmap();
        const viaOrt = (await t.getData()) as Float32Array;
        copiedWithOurDevice = copied.length >= viaOrt.length && viaOrt.every((v, i) => v === copied[i]);
      }
      staging.destroy();
    }
    outputs[name] = Array.from((await t.getData(true)) as Float32Array);
  }
  await session.release();
  for (const b of owned) b.destroy();
  const info = adapter.info;
  return { outputs, threads: 1, crossOriginIsolated, ms, adapter: `${info.vendor} ${info.architecture} ${info.description}`.trim(), locations, copiedWithOurDevice, gpuInputs: request.gpuInputs };
}

export interface WorkerRun {
  backend: string;
  reason: string;
  scores: number[];
  forwards: number;
  truncated: number;
}

/** Loads a world model into the world-model worker and scores pairs through comlink. */
export async function scoreInWorker(request: { model: number[]; tokenizer: TokenizerJSON; contextLength: number; nHeads: number; prefer: 'auto' | 'wasm' | 'webgpu'; pairs: WorldModelPair[] }): Promise<WorkerRun> {
  const handle = startWorldModelWorker();
  try {
    const info = await handle.load({ model: Uint8Array.from(request.model), tokenizer: request.tokenizer, contextLength: request.contextLength, nHeads: request.nHeads, prefer: request.prefer });
    const r = await handle.api.score(request.pairs);
    return { backend: info.backend, reason: info.reason, scores: r.scores, forwards: r.forwards, truncated: r.truncated };
  } finally {
    handle.terminate();
  }
}

/** The same scoring in the page itself (no worker), e.g. to exercise the runner's WebGPU path cheaply. */
export async function scoreInPage(request: { model: number[]; tokenizer: TokenizerJSON; contextLength: number; nHeads: number; prefer: 'auto' | 'wasm' | 'webgpu'; pairs: WorldModelPair[] }): Promise<WorkerRun> {
  const runner = await WorldModelRunner.create(Uint8Array.from(request.model), Tokenizer.fromJSON(request.tokenizer), request, { prefer: request.prefer });
  try {
    const r = await runner.score(request.pairs);
    return { backend: runner.backend, reason: runner.reason, scores: Array.from(r.scores), forwards: r.forwards, truncated: r.truncated };
  } finally {
    await runner.release();
  }
}
