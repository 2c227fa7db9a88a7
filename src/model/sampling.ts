// Reference autoregressive sampling: recomputes the full forward for every new token (no KV cache).
// Quadratic in length and slow, but obviously correct: engines are tested against it.
//
// One step: logits of the last position -> sampleToken (./ops/sampling.ts): temperature, top-k,
// inverse CDF over the candidates with one uniform draw u = rng().

import type { Model } from './init.ts';
import type { Uniform } from './init.ts';
import { forward, lmLogits } from './transformer.ts';
import { SPECIAL_TOKENS } from './tokenizer.ts';
import { sampleToken, samplingCandidates, samplingWeights } from './ops/sampling.ts';

export interface SampleOptions {
  /** Stop after this many new tokens (also stops at the context length). */
  maxNewTokens: number;
  /** > 0 scales logits; 0 means greedy (argmax, lowest id on ties). Default 1. */
  temperature?: number;
  /** Keep only the k most likely tokens; 0 or undefined keeps all. */
  topK?: number;
  /** Seeded uniform generator; exactly one draw per generated token. */
  rng: Uniform;
  /** Sampling stops after emitting this token (included in the output). Default eos. */
  stopToken?: number;
}

export interface SampleResult {
  /** The generated tokens only (the prompt is not repeated). */
  tokens: number[];
  /** log-probability of each generated token under the distribution it was drawn from (after temperature and top-k; 0 when greedy). */
  logProbs: number[];
  /** Whether generation ended with the stop token (false: length limit). */
  stopped: boolean;
}

/** Logits [V] of the next token after `tokens`, from the reference forward. */
export function nextTokenLogits(model: Model, tokens: readonly number[]): Float32Array {
  const T = tokens.length;
  const cache = forward(model, Int32Array.from(tokens), 1, T);
  return lmLogits(model, cache.hidden, [T - 1]).logits;
}

/**
 * One draw from logits with temperature and top-k, by the shared sampling op (./ops/sampling.ts) so
 * engines that follow that op reproduce the token from the same uniform. Exactly one uniform is
 * drawn per call, greedy included, so the generator's position does not depend on the settings.
 * Returns the token and its log-probability under the distribution sampled from (0 when greedy).
 */
export function sampleFromLogits(
  logits: Float32Array,
  options: { temperature?: number; topK?: number; rng: Uniform },
): { token: number; logProb: number } {
  const temperature = options.temperature ?? 1;
  if (!(temperature >= 0)) throw new Error(`sampling: temperature must be >= 0, got ${temperature}`);
  const cfg = { temperature, topK: options.topK ?? 0 };
  const u = options.rng();
  const token = sampleToken(logits, u, cfg);
  if (temperature === 0) return { token, logProb: 0 };
  const candidates = samplingCandidates(logits, cfg.topK);
  const weights = samplingWeights(logits, candidates, temperature);
  const z = weights.reduce((a, w) => a + w, 0);
  return { token, logProb: Math.log(weights[candidates.indexOf(token)] / z) };
}

export function sample(model: Model, prompt: readonly number[], options: SampleOptions): SampleResult {
  if (prompt.length < 1) throw new Error('sampling: the prompt must hold at least one token (bos)');
  const stop = options.stopToken ?? SPECIAL_TOKENS.eos;
  const seq = [...prompt];
  const tokens: number[] = [];
  const logProbs: number[] = [];
  while (tokens.length < options.maxNewTokens && seq.length < model.config.contextLength) {
    const { token, logProb } = sampleFromLogits(nextTokenLogits(model, seq), options);
    seq.push(token);
    tokens.push(token);
    logProbs.push(logProb);
    if (token === stop) return { tokens, logProbs, stopped: true };
  }
  return { tokens, logProbs, stopped: false };
}
