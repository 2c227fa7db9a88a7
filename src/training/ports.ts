// The narrow interfaces the training loop talks to. The loop (trainer.ts) and the evaluation
// (evaluate.ts) see only these; the browser implements them with the policy worker
// (src/workers/policy-client.ts), the world-model worker, the sandbox pool plus grader and the task
// registry (src/app/ports-browser.ts) and the free verifier (src/app/static-verifier.ts), plugged in by
// src/app/create-trainer.ts; the Node tests with the CPU engine and deterministic fixtures. Nothing here imports DOM, workers or GPU code.
//
// Every port reports its own busy time (measured where the work runs), so the cost accounting adds
// measurements and never estimates.

import type { OptimizerState } from '../engine/optimizer-state.ts';
import type { SequenceBatch } from '../model/sequence-batch.ts';

/** One program to sample: the task card it answers and the seed of its private generator. */
export interface SampleRequest {
  card: string;
  seed: number;
}

export interface SamplingOptions {
  /** Program tokens at most (the eos included); also bounded by the context length. */
  maxNewTokens: number;
  temperature: number;
  /** 0 keeps the whole vocabulary. */
  topK: number;
}

export interface SampledSequence {
  /** [bos] card [sep]: the prompt the program was sampled from. */
  promptTokens: number[];
  /** The sampled program tokens, eos included when the policy closed the program. */
  programTokens: number[];
  /** The decoded program text (eos stripped). */
  program: string;
  /** True when eos ended the program (false: cut at the length limit). */
  stopped: boolean;
}

export interface SampleBatchResult {
  samples: SampledSequence[];
  /** Busy time of the sampling call where it ran, ms. */
  busyMs: number;
}

export interface PolicyUpdateRequest {
  batch: SequenceBatch;
  /** One loss coefficient per sequence (advantage times stream weight), in batch order. */
  coefficients: number[];
  /** The constant normaliser Z of L = -sum_i c_i sum_tokens log p / Z. */
  normalizer: number;
  lr: number;
  weightDecay: number;
  /** Global gradient-norm clip; 0 disables. */
  maxGradNorm: number;
  /** PPO ratio clip epsilon; used only with more than one inner epoch (the first epoch is on-policy). */
  clipEpsilon?: number;
  /** Inner epochs over the same batch (default 1). */
  epochs?: number;
  /** KL penalty to the reference (SFT) policy, k3 estimator; 0 or undefined: off. */
  klBeta?: number;
}

export interface PolicyUpdateResult {
  loss: number;
  gradNorm: number;
  clipScale: number;
  clipFraction: number;
  meanKl: number;
  /** Optimiser steps taken so far. */
  optimizerStep: number;
  busyMs: number;
}

export interface PolicyWeights {
  params: Float32Array;
  optimizer: OptimizerState | null;
}

/**
 * How far a sample() call is, told while it runs: what a page shows so that the minute a step's
 * sampling takes on a CPU is not a blank wait. Indices are request indices.
 */
export interface SamplingProgress {
  total: number;
  /** Programs finished so far (eos or the length limit). */
  done: number;
  /** Program tokens generated so far, over all requests. */
  tokens: number;
  /** Programs finished since the last report, with their final text. */
  finished: { index: number; program: string }[];
  /** The lowest-index program still being written, as far as it is; null when none is. */
  current: { index: number; program: string } | null;
}

export interface PolicyPort {
  /** e.g. 'cpu (onnxruntime-web wasm, 2 threads)' or 'webgpu (NVIDIA ...)'. */
  readonly backend: string;
  /** `onProgress` (optional) hears how far it is while it runs; the result does not depend on it. */
  sample(requests: readonly SampleRequest[], options: SamplingOptions, onProgress?: (p: SamplingProgress) => void): Promise<SampleBatchResult>;
  update(request: PolicyUpdateRequest): Promise<PolicyUpdateResult>;
  getWeights(): Promise<PolicyWeights>;
  setWeights(weights: PolicyWeights): Promise<void>;
}

export interface ScorePair {
  card: string;
  program: string;
}

export interface WorldModelScoreResult {
  /** One score in [0, 1] per pair, in request order. */
  scores: number[];
  forwards: number;
  busyMs: number;
}

export interface WorldModelPort {
  readonly backend: string;
  score(pairs: readonly ScorePair[]): Promise<WorldModelScoreResult>;
}

/**
 * Outcome of one real execution, as the grader saw it (resource: a file or output cap was passed;
 * timeout: over the work budget, the program's fault). `unscored`: the sandbox's wall-clock backstop
 * stopped it on two fresh interpreters before its work budget ran out (the machine's doing, not the
 * program's): its score of 0 is a placeholder, not a verdict (see isScored).
 */
export type ExecutionStatus = 'ok' | 'invalid' | 'error' | 'timeout' | 'memory' | 'resource' | 'killed' | 'unscored';

/**
 * Whether a real run gave a verdict on its program. An unscored run must be left out of its group's
 * update (no reward, no advantage, no calibration pair, coefficient 0) and out of evaluation
 * averages, and counted apart; never read its placeholder score as a failure.
 */
export function isScored(r: { status: ExecutionStatus }): boolean {
  return r.status !== 'unscored';
}

/** How many runs gave no verdict (the run file's count of unscored samples). */
export function countUnscored(runs: readonly { status: ExecutionStatus }[]): number {
  return runs.reduce((n, r) => n + (isScored(r) ? 0 : 1), 0);
}

export type MedalName = 'gold' | 'silver' | 'bronze';

/** The free verifier's answer for one program: it may run, or why it cannot. */
export interface StaticCheck {
  ok: boolean;
  reason?: string;
}

/**
 * A verifier that reads programs without running them (wmrl-static and the compile gate): does it
 * compile, does every toolkit constructor take the keywords it is given.
 */
export interface VerifierPort {
  check(programs: readonly string[]): Promise<{ results: StaticCheck[]; busyMs: number }>;
}

export interface ExecutionRequest {
  taskId: string;
  program: string;
}

export interface ExecutionResult {
  /** True score y in [0, 1]: the leaderboard percentile; 0 for any failure. */
  score: number;
  status: ExecutionStatus;
  medal: MedalName | null;
  /** Busy time of the worker that ran it (dispatch to result), ms. */
  busyMs: number;
  /** Start-up of the interpreter it had to itself (0 when none was started for it), ms. */
  startMs: number;
  /** Which executor worker ran it (-1 when not applicable). */
  workerId: number;
  /** A short reason for a failure (error line, invalid predictions message). */
  message?: string;
}

export interface ExecutorPort {
  /** Runs every request for real (in parallel where the executor can) and grades it; results in order. */
  run(requests: readonly ExecutionRequest[]): Promise<ExecutionResult[]>;
}

/** A task as the agent sees it: an id (for the executor) and its card (for policy and world model). */
export interface TaskView {
  id: string;
  card: string;
}

export interface TaskSource {
  trainingTasks(): Promise<TaskView[]>;
  heldOutTasks(): Promise<TaskView[]>;
}
