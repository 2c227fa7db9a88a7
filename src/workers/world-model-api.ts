// The contract between the page (or the trainer worker) and the world-model worker (comlink). Types only.
import type { TokenizerJSON } from '../model/tokenizer.ts';
import type { WorldModelBackend, WorldModelPair } from '../engine/onnx/world-model-runner.ts';

export type { WorldModelBackend, WorldModelPair };

export interface WorldModelLoadRequest {
  /** ONNX bytes of exportWorldModel (transferred), or a URL to fetch them from */
  model: Uint8Array | string;
  tokenizer: TokenizerJSON;
  contextLength: number;
  nHeads: number;
  /** 'auto' (default) picks WebGPU when the machine has it, else wasm */
  prefer?: 'auto' | WorldModelBackend;
  /** where ort-wasm-simd-threaded*.{mjs,wasm} are served; default /vendor/ort/ */
  wasmPaths?: string;
}

export interface WorldModelInfo {
  backend: WorldModelBackend;
  /** why this backend (e.g. 'no WebGPU adapter; wasm (4 threads)') */
  reason: string;
}

export interface WorldModelScores {
  /** one score in (0, 1) per pair, in request order */
  scores: number[];
  backend: WorldModelBackend;
  truncated: number;
  forwards: number;
  ms: number;
}

/** What a training step asks of a world model wherever it runs (its worker, or the policy worker's WebGPU engine). */
export interface WorldModelScorer {
  score(pairs: WorldModelPair[]): Promise<WorldModelScores>;
}

export interface WorldModelApi {
  load(request: WorldModelLoadRequest): Promise<WorldModelInfo>;
  /** Scores a whole step's (card, program) pairs in one call: tokenise, pad, batched forward. */
  score(pairs: WorldModelPair[]): Promise<WorldModelScores>;
  release(): Promise<void>;
}
