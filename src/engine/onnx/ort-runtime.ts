// onnxruntime-web set-up shared by everything that runs our ONNX graphs on the wasm backend:
// thread count, where the runtime's .wasm/.mjs files are served in the browser, session options, and
// a queue because onnxruntime-web may only create one session at a time.

import { appUrl } from '../../primitives/app-root.ts';
import * as ort from 'onnxruntime-web';

export { ort };

export interface OrtRuntimeOptions {
  /** wasm threads; default: hardware concurrency capped at 4 (1 when not crossOriginIsolated). */
  numThreads?: number;
  /** URL prefix of ort-wasm-simd-threaded*.{mjs,wasm} in the browser (the app serves /vendor/ort/). */
  wasmPaths?: string;
}

/** Node sets process.versions.node; pages and workers do not (the runtime files are then fetched by URL). */
const isBrowser = typeof process === 'undefined' || !process.versions?.node;

let configured = false;

export function defaultThreads(): number {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  const isolated = typeof crossOriginIsolated === 'undefined' ? true : crossOriginIsolated;
  return isolated ? Math.max(1, Math.min(4, cores)) : 1;
}

/** Configures the wasm backend once, before the first session (later calls change nothing). */
export function configureOrt(options: OrtRuntimeOptions = {}): void {
  if (configured) return;
  configured = true;
  ort.env.wasm.numThreads = options.numThreads ?? defaultThreads();
  if (options.wasmPaths) ort.env.wasm.wasmPaths = options.wasmPaths;
  else if (isBrowser) ort.env.wasm.wasmPaths = appUrl('vendor/ort/');
  ort.env.logLevel = 'error';
}

let creation: Promise<unknown> = Promise.resolve();

/** Creates a wasm-EP session; creations are serialised. */
export function createWasmSession(bytes: Uint8Array): Promise<ort.InferenceSession> {
  configureOrt();
  const next = creation.then(() =>
    ort.InferenceSession.create(bytes, {
      executionProviders: ['wasm'],
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
    }),
  );
  creation = next.catch(() => undefined);
  return next;
}

export function int64Tensor(values: ArrayLike<number>, dims: readonly number[]): ort.Tensor {
  const data = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) data[i] = BigInt(values[i]);
  return new ort.Tensor('int64', data, dims);
}

export function floatTensor(values: Float32Array, dims: readonly number[]): ort.Tensor {
  return new ort.Tensor('float32', values, dims);
}

/** The float data of an output tensor (onnxruntime-web returns CPU tensors on the wasm EP). */
export function floatData(t: ort.Tensor | undefined, name = 'output'): Float32Array {
  if (!t) throw new Error(`onnx: missing output ${name}`);
  if (t.type !== 'float32') throw new Error(`onnx: output ${name} is ${t.type}, expected float32`);
  return t.data as Float32Array;
}
