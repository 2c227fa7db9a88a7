// Reference next-token sampling: temperature, optional top-k, inverse CDF with a given uniform.
// The GPU sampling kernel follows the same candidate order, so a seeded uniform gives the same token.

export interface SamplingConfig {
  /** <= 0 means greedy (argmax, lowest index on ties) */
  temperature: number;
  /** keep the k largest logits; 0 (or >= V) keeps all */
  topK: number;
}

/**
 * Candidates in the order the CDF is walked: with top-k, by logit descending (lower index first on
 * ties); without, by index ascending.
 */
export function samplingCandidates(logits: Float32Array, topK: number): number[] {
  const V = logits.length;
  if (topK > 0 && topK < V) {
    const order = Array.from({ length: V }, (_, i) => i);
    order.sort((a, b) => logits[b] - logits[a] || a - b);
    return order.slice(0, topK);
  }
  return Array.from({ length: V }, (_, i) => i);
}

export function argmax(logits: Float32Array): number {
  let best = 0;
  for (let i = 1; i < logits.length; i++) if (logits[i] > logits[best]) best = i;
  return best;
}

/** Unnormalised weights exp((l - max) / temperature) of the candidates, in candidate order. */
export function samplingWeights(logits: Float32Array, candidates: readonly number[], temperature: number): number[] {
  let max = -Infinity;
  for (const i of candidates) max = Math.max(max, logits[i]);
  return candidates.map((i) => Math.exp((logits[i] - max) / temperature));
}

/** Samples one token from a row of logits given a uniform number u in [0, 1). */
export function sampleToken(logits: Float32Array, u: number, cfg: SamplingConfig): number {
  if (cfg.temperature <= 0) return argmax(logits);
  const candidates = samplingCandidates(logits, cfg.topK);
  const weights = samplingWeights(logits, candidates, cfg.temperature);
  const total = weights.reduce((s, w) => s + w, 0);
  const target = u * total;
  let cum = 0;
  for (let j = 0; j < candidates.length; j++) {
    cum += weights[j];
    if (cum > target) return candidates[j];
  }
  return candidates[candidates.length - 1];
}
