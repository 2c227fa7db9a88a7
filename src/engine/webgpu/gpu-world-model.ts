// The frozen world model on the WebGPU engine: the exported model's weights (read back from its ONNX
// initializers) in a GpuPolicyEngine of its own, allocated for scoring only (purpose 'score': no
// gradients, optimizer state, LM head, backward or decoding buffers) and scored with the engine's
// score forward (transformer, final LayerNorm, score head). Built on a device it is given, so that in
// the policy worker it shares the policy engine's GPUDevice: a training step's sampling, scoring and
// update then run on one device, and nothing of the policy crosses to the CPU between them.

import { worldModelScores } from '../../model/losses.ts';
import type { Model } from '../../model/init.ts';
import { modelFromExport } from '../../model/onnx/exported-weights.ts';
import { makeSequenceBatch, type SequenceBatch } from '../../model/sequence-batch.ts';
import type { Tokenizer } from '../../model/tokenizer.ts';
import { mulberry32 } from '../../primitives/random.ts';
import { encodeWorldModelPairs, lengthSortedChunks, type ScoreResult, type WorldModelPair } from '../world-model-batches.ts';
import { GpuPolicyEngine } from './gpu-policy-engine.ts';

/**
 * Sequences a forward takes. The engine allocates for this many at the full context (the committed
 * 'small' world model at 8: 40.8 MiB, planEngineMemory(..., 'score'); a full training engine took
 * 212.2; on a software adapter that is the process's memory), and a step's programs go in
 * ceil(n / 8) forwards.
 */
export const GPU_WORLD_MODEL_BATCH = 8;

/** Largest |score| difference to the reference model accepted by the self-check (float32: ~1e-6 expected). */
export const WORLD_MODEL_SELF_CHECK_TOLERANCE = 1e-3;

/** Sequences with only context tokens masked out: scoring reads no mask. */
export function scoreBatch(sequences: readonly (readonly number[])[]): SequenceBatch {
  return makeSequenceBatch(sequences.map((tokens) => ({ tokens, programStart: tokens.length })));
}

export class GpuWorldModel {
  readonly backend = 'webgpu' as const;

  private constructor(
    private readonly engine: GpuPolicyEngine,
    private readonly tokenizer: Tokenizer,
    /** the weights on the host, for the self-check against the reference forward */
    readonly model: Model,
  ) {}

  /** The exported world model `bytes` (ONNX, weights as initializers) on `device`. */
  static create(device: GPUDevice, bytes: Uint8Array, tokenizer: Tokenizer, nHeads: number, options: { maxBatch?: number; adapterName?: string } = {}): GpuWorldModel {
    const model = modelFromExport(bytes, nHeads);
    if (tokenizer.vocabSize !== model.config.vocabSize) {
      throw new Error(`world model: tokenizer vocabulary ${tokenizer.vocabSize} differs from the model's ${model.config.vocabSize}`);
    }
    const maxBatch = options.maxBatch ?? GPU_WORLD_MODEL_BATCH;
    const engine = new GpuPolicyEngine(device, model.config, { maxBatch, maxSeq: model.config.contextLength, purpose: 'score' }, model.params, options.adapterName);
    return new GpuWorldModel(engine, tokenizer, model);
  }

  /** Bytes of GPU memory its engine allocated. */
  get memoryBytes(): number {
    return this.engine.memoryBytes;
  }

  /** The engine's GPU state (its weight buffers among it), for checks that watch what crosses to the host. */
  get buffers(): GpuPolicyEngine['model']['forward'] {
    return this.engine.model.forward;
  }

  async score(pairs: readonly WorldModelPair[]): Promise<ScoreResult> {
    const t0 = performance.now();
    const { sequences, truncated } = encodeWorldModelPairs(this.tokenizer, this.model.config.contextLength, pairs);
    const { scores, forwards } = await this.scoreSequences(sequences);
    return { scores, truncated, forwards, ms: performance.now() - t0 };
  }

  /** Scores token sequences (each 1..contextLength tokens), sorted by length into forwards of at most maxBatch. */
  async scoreSequences(sequences: readonly (readonly number[])[]): Promise<{ scores: Float32Array; forwards: number }> {
    const scores = new Float32Array(sequences.length);
    const maxB = this.engine.model.maxB;
    const chunks = lengthSortedChunks(sequences, (count) => count <= maxB);
    for (const chunk of chunks) {
      const got = await this.engine.worldModelScores(scoreBatch(chunk.map((i) => sequences[i])));
      chunk.forEach((i, k) => (scores[i] = got[k]));
    }
    return { scores, forwards: chunks.length };
  }

  /**
   * Null when the GPU's scores of a few deterministic sequences agree with the reference model's
   * (src/model, the same weights); else the disagreement, in words. Run once before a run trusts it.
   */
  async selfCheck(): Promise<string | null> {
    const { vocabSize, contextLength } = this.model.config;
    const rng = mulberry32(301);
    const sequences = [Math.min(14, contextLength), Math.min(5, contextLength)].map((n) => Array.from({ length: n }, () => 4 + Math.floor(rng() * (vocabSize - 4))));
    const { scores } = await this.scoreSequences(sequences);
    const want = worldModelScores(this.model, scoreBatch(sequences));
    let worst = 0;
    for (let i = 0; i < want.length; i++) {
      const d = Math.abs(scores[i] - want[i]);
      if (!(d <= worst)) worst = Number.isNaN(d) ? Infinity : d;
    }
    if (worst <= WORLD_MODEL_SELF_CHECK_TOLERANCE) return null;
    return `its world-model scores differ from the reference model's by up to ${Number.isFinite(worst) ? worst.toPrecision(3) : 'NaN'} (tolerance ${WORLD_MODEL_SELF_CHECK_TOLERANCE})`;
  }

  dispose(): Promise<void> {
    return this.engine.dispose();
  }
}
