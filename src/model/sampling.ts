// Reference autoregressive sampling: recomputes the full forward for every new token (no KV cache).
// Quadratic in length and slow, but obviously correct: engines are tested against it.
//
// One step: logits of the last position, divided by the temperature; keep the top k (ties go to the
// smaller id); softmax; walk the kept tokens in that order (descending logit, then ascending id)
// accumulating probability until it exceeds one uniform draw u = rng().

import type { Model } from './init.ts';
import type { Uniform } from './init.ts';
import { forward, lmLogits } from './transformer.ts';
import { SPECIAL_TOKENS } from './tokenizer.ts';

export interface SampleOptions {
  /** Stop after this many new tokens (also stops at the context length). */
  maxNewTokens: number;
  /** > 0 scales logits; 0 means greedy (argmax). Default 1. */
  temperature?: number;
  /** Keep only the k most likely tokens; 0 or undefined keeps all. */
  topK?: number;
  /** Seeded uniform generator; one draw per sampled token (none when greedy). */
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

/** One draw from logits with temperature and top-k; returns the token and its log-probability. */
export function sampleFromLogits(
  logits: Float32Array,
  options: { temperature?: number; topK?: number; rng: Uniform },
): { token: number; logProb: number } {
  const V = logits.length;
  const temperature = options.temperature ?? 1;
  if (!(temperature >= 0)) throw new Error(`sampling: temperature must be >= 0, got ${temperature}`);
  const order = Array.from({ length: V }, (_, i) => i).sort((a, b) => logits[b] - logits[a] || a - b);
  if (temperature === 0) return { token: order[0], logProb: 0 };
  const k = options.topK && options.topK > 0 ? Math.min(options.topK, V) : V;
  const kept = order.slice(0, k);
  const max = logits[kept[0]] / temperature;
  const weights = kept.map((i) => Math.exp(logits[i] / temperature - max));
  const z = weights.reduce((a, w) => a + w, 0);
  const u = options.rng() * z;
  let acc = 0;
  let pick = kept.length - 1;
  for (let j = 0; j < kept.length; j++) {
    acc += weights[j];
    if (u < acc) {
      pick = j;
      break;
    }
  }
  return { token: kept[pick], logProb: Math.log(weights[pick] / z) };
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
