// The optimisation loop both pipeline trainings share (SFT and the world model): seeded
// length-grouped batches (or the caller's epoch of batches), warmup-then-decay learning rate, one engine update per step. Only the
// objective differs, so it is a function of the batch's indices.

import type { Objective, PolicyEngine } from '../engine/policy-engine.ts';
import { makeSequenceBatch } from '../model/sequence-batch.ts';
import type { Rng } from '../primitives/random.ts';
import { learningRate, lengthGroupedBatches } from './batches.ts';

export interface TrainStepsOptions {
  steps: number;
  batchSize: number;
  peakLr: number;
  warmup: number;
  weightDecay: number;
  maxGradNorm: number;
  /** one epoch of batches (indices); default lengthGroupedBatches of batchSize */
  epochBatches?: (rng: Rng) => number[][];
}

export interface TrainStep {
  /** 1-based */
  step: number;
  /** indices of the batch's sequences */
  idx: number[];
  lr: number;
  loss: number;
}

export async function trainSteps(
  engine: PolicyEngine,
  seqs: readonly { tokens: number[]; programStart: number }[],
  objective: (idx: readonly number[]) => Objective,
  options: TrainStepsOptions,
  rng: Rng,
  onStep: (s: TrainStep) => void,
): Promise<void> {
  const lengths = seqs.map((s) => s.tokens.length);
  let queue: number[][] = [];
  for (let step = 0; step < options.steps; step++) {
    if (queue.length === 0) queue = options.epochBatches ? options.epochBatches(rng) : lengthGroupedBatches(lengths, options.batchSize, rng);
    const idx = queue.shift() as number[];
    const batch = makeSequenceBatch(idx.map((i) => ({ tokens: seqs[i].tokens, programStart: seqs[i].programStart })));
    const lr = learningRate(step, options.steps, options.peakLr, options.warmup);
    const r = await engine.update(batch, objective(idx), {
      adamw: { lr, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: options.weightDecay },
      maxGradNorm: options.maxGradNorm,
    });
    onStep({ step: step + 1, idx, lr, loss: r.loss });
  }
}
