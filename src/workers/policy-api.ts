// The contract between the page and the policy worker (comlink). Types only: both sides import it.
import type { PolicyUpdateRequest, PolicyUpdateResult, PolicyWeights, SampleBatchResult, SampleRequest, SamplingOptions, SamplingProgress } from '../training/ports.ts';
import type { WorldModelInfo, WorldModelLoadRequest, WorldModelPair, WorldModelScores } from './world-model-api.ts';

export type PolicyBackendChoice = 'auto' | 'cpu' | 'webgpu';

export interface PolicyLoadRequest {
  /** A checkpoint (src/model/checkpoint.ts) with its tokenizer, as bytes (transferred) or a URL. */
  checkpoint: ArrayBuffer | string;
  /** 'auto' (default): WebGPU on a real (non-software) adapter, else the CPU engine. */
  prefer?: PolicyBackendChoice;
  /** Largest sampling batch (sequences); also sizes the WebGPU engine's buffers. Default 64. */
  maxBatch?: number;
}

export interface PolicyInfo {
  /** The engine's own label, e.g. 'cpu (onnxruntime-web wasm, 4 threads)' or 'webgpu (NVIDIA ...)'. */
  backend: string;
  kind: 'cpu' | 'webgpu';
  /** Why this backend (e.g. "WebGPU adapter 'SwiftShader' is software emulation"). */
  reason: string;
  numParameters: number;
  contextLength: number;
  vocabSize: number;
}

export interface PolicyWorkerApi {
  load(request: PolicyLoadRequest): Promise<PolicyInfo>;
  /** `onProgress`: a Comlink.proxy on the page's side; the worker releases it when the call ends. */
  sample(requests: SampleRequest[], options: SamplingOptions, onProgress?: (p: SamplingProgress) => void): Promise<SampleBatchResult>;
  update(request: PolicyUpdateRequest): Promise<PolicyUpdateResult>;
  getWeights(): Promise<PolicyWeights>;
  setWeights(weights: PolicyWeights): Promise<void>;
  /**
   * The frozen world model on the policy's WebGPU engine and device (its `prefer` is not read); refused
   * when the policy runs on the CPU engine, or when the model fails its self-check against the reference.
   */
  loadWorldModel(request: WorldModelLoadRequest): Promise<WorldModelInfo>;
  /** Scores (card, program) pairs with the world model loaded by loadWorldModel. */
  scoreWorldModel(pairs: WorldModelPair[]): Promise<WorldModelScores>;
  /** Releases the policy and the world model it holds. */
  release(): Promise<void>;
}
