// What the page module (gpu-engine-check.ts) sends its worker (gpu-engine-check-worker.ts) and gets back;
// a file of its own so that neither of the two imports the other.
import type { ModelConfig } from '../model/config.ts';

export interface EngineCheckRequest {
  config: ModelConfig;
  params: number[];
  sequences: number[][];
  programStart: number;
  T: number;
  prompt: number[];
  maxNewTokens: number;
  seed: number;
}

export interface EngineCheckResult {
  adapter: string;
  isSoftware: boolean;
  backend: string;
  /** [B, T], 'all' tokens */
  logProbs: number[];
  loss: number;
  grads: number[];
  sampled: number[];
}
