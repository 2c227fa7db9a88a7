// Stage 3: supervised fine-tuning of the policy on the corpus with the CPU engine (onnxruntime-web
// wasm). Deterministic from the seed: initialisation, batch order and step count are all seeded or
// fixed (no wall-clock stopping).

import { CpuEngine } from '../engine/cpu-engine.ts';
import type { ModelConfig } from '../model/config.ts';
import { createModel } from '../model/init.ts';
import type { Model } from '../model/init.ts';
import { makeSequenceBatch } from '../model/sequence-batch.ts';
import type { Tokenizer } from '../model/tokenizer.ts';
import { deriveSeed, mulberry32 } from '../wmrl/random.ts';
import { learningRate, lengthGroupedBatches } from './batches.ts';
import type { CorpusEntry } from './corpus.ts';

export interface SftOptions {
  seed: number;
  steps: number;
  batchSize: number;
  peakLr: number;
  warmup: number;
  weightDecay: number;
  maxGradNorm: number;
  /** wasm threads for onnxruntime-web */
  threads?: number;
  log?: (line: string) => void;
}

export interface SftPoint {
  step: number;
  loss: number;
  lr: number;
  tokens: number;
  seconds: number;
}

export interface SftResult {
  model: Model;
  curve: SftPoint[];
  seconds: number;
  tokensSeen: number;
  /** loss of the untrained model on the first batch, and mean of the last 10 steps */
  initialLoss: number;
  finalLoss: number;
  skippedTooLong: number;
}

/** Tokenised (card, program) sequences that fit the context; the rest are counted, not cut. */
export function encodeCorpus(corpus: readonly CorpusEntry[], tokenizer: Tokenizer, contextLength: number): { seqs: { tokens: number[]; programStart: number }[]; skipped: number } {
  const seqs = [];
  let skipped = 0;
  for (const e of corpus) {
    const s = tokenizer.encodeSequence(e.card, e.source);
    if (s.tokens.length > contextLength) skipped++;
    else seqs.push(s);
  }
  return { seqs, skipped };
}

export async function trainSft(corpus: readonly CorpusEntry[], tokenizer: Tokenizer, config: ModelConfig, options: SftOptions): Promise<SftResult> {
  const log = options.log ?? (() => {});
  const model = createModel(config, mulberry32(deriveSeed(options.seed, 1)));
  const engine = CpuEngine.fromModel(model, { numThreads: options.threads });
  const { seqs, skipped } = encodeCorpus(corpus, tokenizer, config.contextLength);
  if (seqs.length === 0) throw new Error('sft: no sequence fits the context');
  const rng = mulberry32(deriveSeed(options.seed, 2));
  const lengths = seqs.map((s) => s.tokens.length);
  let queue: number[][] = [];
  const curve: SftPoint[] = [];
  const t0 = performance.now();
  let tokensSeen = 0;
  try {
    for (let step = 0; step < options.steps; step++) {
      if (queue.length === 0) queue = lengthGroupedBatches(lengths, options.batchSize, rng);
      const idx = queue.shift() as number[];
      const batch = makeSequenceBatch(idx.map((i) => seqs[i]));
      const lr = learningRate(step, options.steps, options.peakLr, options.warmup);
      const r = await engine.update(batch, { kind: 'sft' }, { adamw: { lr, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: options.weightDecay }, maxGradNorm: options.maxGradNorm });
      tokensSeen += idx.reduce((a, i) => a + lengths[i], 0);
      const point = { step: step + 1, loss: r.loss, lr, tokens: tokensSeen, seconds: (performance.now() - t0) / 1000 };
      curve.push(point);
      if (step % 10 === 0 || step === options.steps - 1) log(`sft step ${point.step}/${options.steps} loss ${r.loss.toFixed(4)} lr ${lr.toExponential(2)} ${(tokensSeen / point.seconds).toFixed(0)} tok/s ${point.seconds.toFixed(0)} s`);
    }
    const params = await engine.getWeights();
    const tail = curve.slice(-10);
    return {
      model: { ...model, params },
      curve,
      seconds: (performance.now() - t0) / 1000,
      tokensSeen,
      initialLoss: curve[0]?.loss ?? Number.NaN,
      finalLoss: tail.reduce((a, p) => a + p.loss, 0) / Math.max(1, tail.length),
      skippedTooLong: skipped,
    };
  } finally {
    await engine.dispose();
  }
}
