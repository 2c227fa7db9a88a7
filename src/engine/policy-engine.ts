// The policy engine: what the trainer needs from a backend (the CPU engine here; the WebGPU engine
// implements the same interface). All token arrays use the project's SequenceBatch conventions.

import type { ModelConfig } from '../model/config.ts';
import type { Uniform } from '../model/init.ts';
import type { AdamWConfig } from '../model/ops/reference-ops.ts';
import type { RlLossOptions, WorldModelLossKind } from '../model/losses.ts';
import type { WithinGroupRanking } from '../model/pairwise-rank-loss.ts';
import type { SequenceBatch } from '../model/sequence-batch.ts';
import type { OptimizerState } from './optimizer-state.ts';

export interface EngineSampleOptions {
  /** Stop after this many new tokens (also at the context length). */
  maxNewTokens: number;
  /** > 0 scales logits; 0 is greedy. Default 1. */
  temperature?: number;
  /** Keep the k most likely tokens; 0 or undefined keeps all. */
  topK?: number;
  /** One seeded generator per prompt, so a prompt's draws do not depend on its batch neighbours. */
  rngs: readonly Uniform[];
  /** Generation of a prompt ends after this token (included). Default eos. */
  stopToken?: number;
  /**
   * Hears the tokens generated so far after each decoding step, where the engine decodes on the
   * host (the CPU engine); `active[b]` is false once prompt b is finished. The arrays are the
   * engine's own: read them, keep nothing. An engine that decodes elsewhere may never call it.
   */
  onTokens?: (tokens: readonly (readonly number[])[], active: readonly boolean[]) => void;
}

export interface EngineSample {
  /** generated tokens only */
  tokens: number[];
  /** log-probability of each generated token under the distribution it was drawn from */
  logProbs: number[];
  /** true when the stop token ended it (false: length limit) */
  stopped: boolean;
}

/** What an update minimises: SFT cross-entropy, the RL loss of losses.ts, or the world-model loss. */
export type Objective =
  | { kind: 'sft' }
  | ({ kind: 'rl' } & RlLossOptions)
  /**
   * the world model's score head against targets in [0, 1]; loss 'mse' (default), 'bce', or
   * 'pairwise' (mse plus a within-group ranking term: needs `ranking`, src/model/pairwise-rank-loss.ts)
   */
  | { kind: 'wm'; targets: ArrayLike<number>; loss?: WorldModelLossKind; ranking?: WithinGroupRanking };

export interface UpdateOptions {
  adamw: AdamWConfig;
  /** Clip the global gradient norm to this value; undefined or <= 0: no clipping. */
  maxGradNorm?: number;
}

export interface GradientResult {
  loss: number;
  /** dL/dparams, flat, parameter layout */
  grads: Float32Array;
  /** tokens (or sequences, for 'wm') that entered the loss */
  count: number;
  /** pairwise world-model loss only: its squared-error part, its ranking part (before lambda), and the pairs it compared */
  pointwiseLoss?: number;
  pairwiseLoss?: number;
  pairs?: number;
  /** RL only */
  policyLoss?: number;
  meanKl?: number;
  clipFraction?: number;
}

export interface UpdateResult extends Omit<GradientResult, 'grads'> {
  /** global gradient norm before clipping */
  gradNorm: number;
  /** factor applied by clipping (1 when not clipped) */
  clipScale: number;
  /** optimiser step number after this update (counts from 1) */
  step: number;
  ms: number;
}

export interface PolicyEngine {
  /** e.g. 'cpu (onnxruntime-web wasm, 2 threads)' or 'webgpu' */
  readonly backend: string;
  readonly config: ModelConfig;
  sample(prompts: readonly (readonly number[])[], options: EngineSampleOptions): Promise<EngineSample[]>;
  /** log p(token t | < t) at [b, t] for masked tokens ('mask', default) or every real token t >= 1 ('all'); 0 elsewhere. */
  logProbs(batch: SequenceBatch, which?: 'mask' | 'all'): Promise<Float32Array>;
  /** Loss and gradients without changing the weights. */
  gradients(batch: SequenceBatch, objective: Objective): Promise<GradientResult>;
  /** One optimiser step (AdamW, optional clipping) on the objective. */
  update(batch: SequenceBatch, objective: Objective, options: UpdateOptions): Promise<UpdateResult>;
  /** A copy of the flat parameter array. */
  getWeights(): Promise<Float32Array>;
  /** Replaces the weights (same layout); resets the optimiser state when resetOptimizer is true. */
  setWeights(params: Float32Array, resetOptimizer?: boolean): Promise<void>;
  /**
   * A copy of the AdamW state: the step count and the moments m, v, flat in the parameter layout.
   * With the weights it is all a later update depends on, so a checkpoint of both resumes exactly.
   */
  getOptimizerState(): Promise<OptimizerState>;
  /** Restores a state from getOptimizerState (this engine's or another's of the same config); the weights are untouched. */
  setOptimizerState(state: OptimizerState): Promise<void>;
  dispose(): Promise<void>;
}
