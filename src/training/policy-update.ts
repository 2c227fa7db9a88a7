// One RL update of a policy engine from a PolicyUpdateRequest: per-sequence loss coefficients, the
// constant normaliser Z, AdamW, the global clip, and optionally PPO ratio clipping over inner epochs
// and a KL penalty to a reference engine. Domain-free: a sequence is whatever the caller masked in
// (a program in the coding domain, one action token a step in the robot domain). PolicyHost (the
// coding policy port) and the robot loop (src/embodied) both update through this one function.

import type { PolicyEngine } from '../engine/policy-engine.ts';
import type { RlLossOptions } from '../model/losses.ts';
import type { AdamWConfig } from '../model/ops/reference-ops.ts';
import type { PolicyUpdateRequest, PolicyUpdateResult } from './ports.ts';

/** AdamW moments as in the SFT stage (src/pipeline/sft.ts). */
export const RL_ADAM = { beta1: 0.9, beta2: 0.95, eps: 1e-8 } as const;

/**
 * Runs the request's epochs on `engine`. `reference` gives the engine of the reference policy; it is
 * called only when the request asks for a KL penalty.
 */
export async function updatePolicy(engine: PolicyEngine, request: PolicyUpdateRequest, reference?: () => Promise<PolicyEngine>): Promise<PolicyUpdateResult> {
  const t0 = performance.now();
  const { batch, coefficients, normalizer } = request;
  if (coefficients.length !== batch.B) throw new Error(`policy: ${coefficients.length} coefficients for ${batch.B} sequences`);
  for (const c of coefficients) if (!Number.isFinite(c)) throw new Error(`policy: coefficient ${c} is not finite`);
  const epochs = request.epochs ?? 1;
  const adamw: AdamWConfig = { lr: request.lr, weightDecay: request.weightDecay, ...RL_ADAM };
  const objective: { kind: 'rl' } & RlLossOptions = { kind: 'rl', weights: coefficients, normalizer };
  // Ratio clipping matters only when the batch is reused; the old log-probs are the sampler's (pre-update).
  if (epochs > 1 && request.clipEpsilon) objective.clip = { epsilon: request.clipEpsilon, oldLogProbs: await engine.logProbs(batch, 'mask') };
  if (request.klBeta && request.klBeta > 0) {
    if (!reference) throw new Error('policy: a KL penalty needs a reference engine (makeReference)');
    objective.kl = { beta: request.klBeta, refLogProbs: await (await reference()).logProbs(batch, 'mask') };
  }
  let last: PolicyUpdateResult | null = null;
  for (let e = 0; e < epochs; e++) {
    const r = await engine.update(batch, objective, { adamw, maxGradNorm: request.maxGradNorm });
    last = { loss: r.loss, gradNorm: r.gradNorm, clipScale: r.clipScale, clipFraction: r.clipFraction ?? 0, meanKl: r.meanKl ?? 0, optimizerStep: r.step, busyMs: 0 };
  }
  if (!last) throw new Error('policy: no epoch ran');
  return { ...last, busyMs: performance.now() - t0 };
}
