// Timing and input helpers shared by the model benchmarks (bench/models.ts, bench/webgpu-backend.ts).
import type { Model } from '../src/model/init.ts';
import { makeSequenceBatch } from '../src/model/sequence-batch.ts';
import type { SequenceBatch } from '../src/model/sequence-batch.ts';
import { mulberry32 } from '../src/primitives/random.ts';

/** The fastest of `reps` runs of fn, in seconds. */
export async function best(reps: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min / 1000;
}

/** B random sequences of T tokens (ids 4..V-1, past the special tokens), programs from T/8 on. */
export function randomBatch(model: Model, B: number, T: number, seed: number): SequenceBatch {
  const rng = mulberry32(seed);
  const V = model.config.vocabSize;
  return makeSequenceBatch(
    Array.from({ length: B }, () => ({ tokens: Array.from({ length: T }, () => 4 + Math.floor(rng() * (V - 4))), programStart: Math.floor(T / 8) })),
    T,
  );
}

/** SB prompts of `length` tokens, deterministic and inside a vocabulary of V. */
export function benchPrompts(SB: number, length: number, V: number): number[][] {
  return Array.from({ length: SB }, (_, i) => Array.from({ length }, (_, j) => 4 + ((i * 31 + j * 7) % (V - 4))));
}

/** WB world-model inputs of about `seq` tokens (lengths seq - 0..7), ids 4..253. */
export function benchPrograms(WB: number, seq: number): number[][] {
  return Array.from({ length: WB }, (_, i) => Array.from({ length: seq - (i % 8) }, (_, j) => 4 + ((i + j * 13) % 250)));
}
