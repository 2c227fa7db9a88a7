// Stage 3: supervised fine-tuning of the policy on the corpus with the CPU engine (onnxruntime-web
// wasm). Deterministic from the seed: initialisation, batch order and step count are all seeded or
// fixed (no wall-clock stopping).

import { CpuEngine } from '../engine/cpu/cpu-engine.ts';
import type { ModelConfig } from '../model/config.ts';
import { createModel } from '../model/init.ts';
import type { Model } from '../model/init.ts';
import type { Tokenizer } from '../model/tokenizer.ts';
import { deriveSeed, mulberry32 } from '../primitives/random.ts';
import type { CorpusEntry } from './corpus.ts';
import { trainSteps, type TrainStepsOptions } from './train-steps.ts';

export interface SftOptions extends TrainStepsOptions {
  seed: number;
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
  const curve: SftPoint[] = [];
  const t0 = performance.now();
  let tokensSeen = 0;
  try {
    await trainSteps(engine, seqs, () => ({ kind: 'sft' }), options, rng, ({ step, idx, lr, loss }) => {
      tokensSeen += idx.reduce((a, i) => a + lengths[i], 0);
      const point = { step, loss, lr, tokens: tokensSeen, seconds: (performance.now() - t0) / 1000 };
      curve.push(point);
      if (step % 10 === 1 || step === options.steps) log(`sft step ${step}/${options.steps} loss ${loss.toFixed(4)} lr ${lr.toExponential(2)} ${(tokensSeen / point.seconds).toFixed(0)} tok/s ${point.seconds.toFixed(0)} s`);
    });
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
