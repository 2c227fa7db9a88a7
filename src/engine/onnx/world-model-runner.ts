// Scores (card, program) pairs with the exported world model (./export.ts exportWorldModel):
// tokenise with the project's tokenizer ([bos] card [sep] program [eos]), pad, and run batched
// forwards on onnxruntime-web, on the WebGPU EP (the onnxruntime-web/webgpu bundle, sharing a
// GPUDevice we own, outputs left in GPU buffers until read) where there is WebGPU, else on the wasm EP.

import { appUrl } from '../../primitives/app-root.ts';
import { acquireDevice } from '../../primitives/webgpu-device.ts';
import type { Tokenizer } from '../../model/tokenizer.ts';
import { SPECIAL_TOKENS } from '../../model/tokenizer.ts';
import { configureOrt, createWasmSession, floatData, int64Tensor, ort } from './ort-runtime.ts';
import type { OrtRuntimeOptions } from './ort-runtime.ts';
import { encodeWorldModelPairs, lengthSortedChunks, type ScoreResult, type WorldModelPair } from '../world-model-batches.ts';

export type { ScoreResult, WorldModelPair };

export type WorldModelBackend = 'webgpu' | 'wasm';

export interface WorldModelRunnerOptions extends OrtRuntimeOptions {
  /** 'auto' (default): WebGPU when a device is given or a hardware adapter exists, else wasm. */
  prefer?: 'auto' | WorldModelBackend;
  /** A device to share (e.g. the policy engine's); without it 'auto' and 'webgpu' request one. */
  device?: GPUDevice;
  /** Upper bound on B * H * T * T (attention weights) per forward; larger requests are chunked. */
  maxAttentionElements?: number;
}

/** The shapes the runner needs from the model's configuration. */
export interface WorldModelShape {
  contextLength: number;
  nHeads: number;
}

type OrtModule = typeof ort;

interface Backend {
  name: WorldModelBackend;
  /** why this backend was chosen */
  reason: string;
  ortModule: OrtModule;
  session: ort.InferenceSession;
}

async function webgpuBackend(bytes: Uint8Array, device: GPUDevice, options: WorldModelRunnerOptions): Promise<Omit<Backend, 'reason'>> {
  // Only this bundle honours a passed-in GPUDevice (the default JSEP bundle silently makes its own).
  const ortWebgpu = (await import('onnxruntime-web/webgpu')) as unknown as OrtModule;
  ortWebgpu.env.wasm.numThreads = 1;
  ortWebgpu.env.logLevel = 'error';
  const paths = options.wasmPaths ?? (typeof self !== 'undefined' && 'location' in self ? appUrl('vendor/ort/') : undefined);
  if (paths) ortWebgpu.env.wasm.wasmPaths = paths;
  const provider = { name: 'webgpu', device } as unknown as ort.InferenceSession.ExecutionProviderConfig;
  const session = await ortWebgpu.InferenceSession.create(bytes, {
    executionProviders: [provider],
    preferredOutputLocation: 'gpu-buffer',
    logSeverityLevel: 3,
  });
  return { name: 'webgpu', ortModule: ortWebgpu, session };
}

/** A device of our own, or why there is none (or why it is not worth using). */
async function acquire(prefer: 'auto' | WorldModelBackend): Promise<{ device: GPUDevice | null; why: string }> {
  try {
    const { device, info } = await acquireDevice();
    // WebGPU on CPU emulation runs this model ~100x slower than the wasm EP: only when asked for.
    if (info.isSoftware && prefer === 'auto') {
      device.destroy();
      return { device: null, why: `WebGPU adapter '${info.name}' is software emulation` };
    }
    return { device, why: `WebGPU adapter '${info.name}' (onnxruntime-web's WebGPU EP)` };
  } catch (e) {
    return { device: null, why: e instanceof Error ? e.message : String(e) };
  }
}

export class WorldModelRunner {
  private constructor(
    private readonly backendState: Backend,
    private readonly tokenizer: Tokenizer,
    private readonly shape: WorldModelShape,
    private readonly maxAttention: number,
    /** the device the WebGPU EP runs on, when it does */
    readonly device: GPUDevice | null,
  ) {}

  get backend(): WorldModelBackend {
    return this.backendState.name;
  }

  /** Why this backend runs (shown to the user). */
  get reason(): string {
    return this.backendState.reason;
  }

  static async create(bytes: Uint8Array, tokenizer: Tokenizer, shape: WorldModelShape, options: WorldModelRunnerOptions = {}): Promise<WorldModelRunner> {
    const prefer = options.prefer ?? 'auto';
    const maxAttention = options.maxAttentionElements ?? 1 << 25;
    let failure = '';
    if (prefer !== 'wasm') {
      const got = options.device ? { device: options.device, why: "onnxruntime-web's WebGPU EP, sharing the given device" } : await acquire(prefer);
      if (got.device) {
        try {
          const b = await webgpuBackend(bytes, got.device, options);
          return new WorldModelRunner({ ...b, reason: got.why }, tokenizer, shape, maxAttention, got.device);
        } catch (e) {
          failure = `WebGPU failed: ${e instanceof Error ? e.message : String(e)}`;
        }
      } else {
        failure = got.why;
      }
      if (prefer === 'webgpu') throw new Error(`world model: ${failure}`);
    }
    configureOrt(options);
    const session = await createWasmSession(bytes);
    const reason = prefer === 'wasm' ? 'wasm requested' : `${failure}; wasm (${ort.env.wasm.numThreads ?? 1} threads)`;
    return new WorldModelRunner({ name: 'wasm', reason, ortModule: ort, session }, tokenizer, shape, maxAttention, null);
  }

  /** Token sequences of the pairs (capped at the context length) and how many were cut. */
  encode(pairs: readonly WorldModelPair[]): { sequences: number[][]; truncated: number } {
    return encodeWorldModelPairs(this.tokenizer, this.shape.contextLength, pairs);
  }

  async score(pairs: readonly WorldModelPair[]): Promise<ScoreResult> {
    const t0 = performance.now();
    const { sequences, truncated } = this.encode(pairs);
    const { scores, forwards } = await this.scoreSequences(sequences);
    return { scores, truncated, forwards, ms: performance.now() - t0 };
  }

  /** Scores token sequences (each 1..contextLength tokens); sorted by length into as few forwards as memory allows. */
  async scoreSequences(sequences: readonly (readonly number[])[]): Promise<{ scores: Float32Array; forwards: number }> {
    const scores = new Float32Array(sequences.length);
    // grow a forward while its attention tensor fits
    const chunks = lengthSortedChunks(sequences, (count, longest) => count * this.shape.nHeads * longest ** 2 <= this.maxAttention);
    for (const chunk of chunks) {
      const got = await this.forward(chunk.map((i) => sequences[i]));
      chunk.forEach((i, k) => (scores[i] = got[k]));
    }
    return { scores, forwards: chunks.length };
  }

  private async forward(batch: readonly (readonly number[])[]): Promise<Float32Array> {
    const B = batch.length;
    const T = Math.max(...batch.map((s) => s.length));
    const tokens = new Int32Array(B * T).fill(SPECIAL_TOKENS.pad);
    const lengths = new Int32Array(B);
    batch.forEach((s, b) => {
      if (s.length < 1 || s.length > this.shape.contextLength) throw new Error(`world model: sequence of ${s.length} tokens`);
      tokens.set(s, b * T);
      lengths[b] = s.length;
    });
    const { session, ortModule } = this.backendState;
    const toTensor = (values: Int32Array, dims: number[]): ort.Tensor => {
      const t = int64Tensor(values, dims);
      return new ortModule.Tensor('int64', t.data as BigInt64Array, dims);
    };
    const out = await session.run({ tokens: toTensor(tokens, [B, T]), lengths: toTensor(lengths, [B]) });
    const score = out.score;
    if (score.location === 'gpu-buffer') {
      const data = (await score.getData(true)) as Float32Array;
      return data;
    }
    return floatData(score, 'score').slice();
  }

  async release(): Promise<void> {
    await this.backendState.session.release();
  }
}
