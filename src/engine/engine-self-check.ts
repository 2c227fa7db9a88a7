// A new engine's self-check against the plain TypeScript reference model (src/model), run once when
// the policy worker picks a GPU engine and before any run trusts it: a driver or adapter that
// computes wrongly (or a shader a browser compiles differently) must fall back to the CPU engine with
// the reason shown, not train on garbage. Small on purpose (two short sequences, a few greedy tokens):
// it checks the forward and the incremental decoder the run will use, not every kernel (tests do that).

import type { Model } from '../model/init.ts';
import { tokenLogProbs } from '../model/losses.ts';
import { nextTokenLogits, sample } from '../model/sampling.ts';
import { makeSequenceBatch } from '../model/sequence-batch.ts';
import { mulberry32 } from '../primitives/random.ts';
import type { PolicyEngine } from './policy-engine.ts';

/** Largest |log p| difference to the reference accepted (float32 on another device: ~1e-5 expected). */
export const SELF_CHECK_LOGPROB_TOLERANCE = 1e-2;
/** A greedy pick that differs from the reference's is accepted only when the two logits are this close (a tie). */
const TIE_TOLERANCE = 1e-3;
const NEW_TOKENS = 6;

/** Deterministic token ids in [4, vocab) (no special tokens), the same on every machine. */
function tokensOf(seed: number, length: number, vocab: number): number[] {
  const rng = mulberry32(seed);
  return Array.from({ length }, () => 4 + Math.floor(rng() * (vocab - 4)));
}

/**
 * Null when `engine` (holding `model`'s weights) agrees with the reference on log-probs and greedy
 * decoding; otherwise the first disagreement, in words.
 */
export async function engineSelfCheck(engine: PolicyEngine, model: Model): Promise<string | null> {
  const { vocabSize, contextLength } = model.config;
  const lengths = [Math.min(12, contextLength), Math.min(7, contextLength)];
  const batch = makeSequenceBatch(lengths.map((len, i) => ({ tokens: tokensOf(101 + i, len, vocabSize), programStart: 1 })), lengths[0]);
  const got = await engine.logProbs(batch, 'all');
  const want = tokenLogProbs(model, batch, 'all');
  let worst = 0;
  for (let i = 0; i < want.length; i++) {
    const d = Math.abs(got[i] - want[i]);
    if (!(d <= worst)) worst = Number.isNaN(d) ? Infinity : d;
  }
  if (!(worst <= SELF_CHECK_LOGPROB_TOLERANCE)) {
    return `its log-probs differ from the reference model's by up to ${Number.isFinite(worst) ? worst.toPrecision(3) : 'NaN'} (tolerance ${SELF_CHECK_LOGPROB_TOLERANCE})`;
  }

  // prompts of different lengths, so the ragged decode path runs too
  const prompts = [tokensOf(201, Math.min(5, contextLength - NEW_TOKENS), vocabSize), tokensOf(202, Math.min(2, contextLength - NEW_TOKENS), vocabSize)];
  const samples = await engine.sample(prompts, { maxNewTokens: NEW_TOKENS, temperature: 0, rngs: prompts.map((_, i) => mulberry32(i)), stopToken: -1 });
  for (let b = 0; b < prompts.length; b++) {
    const wantTokens = sample(model, prompts[b], { maxNewTokens: NEW_TOKENS, temperature: 0, rng: mulberry32(b), stopToken: -1 }).tokens;
    const gotTokens = samples[b]?.tokens ?? [];
    if (gotTokens.length !== wantTokens.length) return `its greedy decoding of prompt ${b} gave ${gotTokens.length} tokens, the reference's ${wantTokens.length}`;
    for (let t = 0; t < wantTokens.length; t++) {
      if (gotTokens[t] === wantTokens[t]) continue;
      const logits = nextTokenLogits(model, [...prompts[b], ...wantTokens.slice(0, t)]);
      const gap = logits[wantTokens[t]] - (logits[gotTokens[t]] ?? -Infinity);
      if (gap <= TIE_TOLERANCE) break; // a near-tie: both picks are right, and the sequences part here
      return `its greedy decoding of prompt ${b} picked token ${gotTokens[t]} at position ${t}, the reference ${wantTokens[t]} (logit gap ${gap.toPrecision(3)})`;
    }
  }
  return null;
}
