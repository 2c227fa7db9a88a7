// Next-token sampling on the GPU for one decoding step (temperature, top-k, one seeded uniform per
// row and token), matching sampleToken and sampleFromLogits in src/model: the token, its log-prob
// and the row's next state (kernels/decode-state.wgsl) stay on the GPU.
import kernel from './kernels/sampling.wgsl?raw';
import stateSource from './kernels/decode-state.wgsl?raw';
import type { SamplingConfig } from '../model/ops/sampling.ts';
import { type BufferRef, type Dispatch, grid, prepareKernel, uniformBuffer } from './kernel.ts';

const code = `${stateSource}\n${kernel}`;

/** Largest top-k the kernel selects exactly; larger values are rejected rather than silently cut. */
export const SAMPLING_MAX_TOP_K = 256;

/** A stop token no row can sample. */
export const NO_STOP_TOKEN = 0xffffffff;

export interface SampleArgs {
  logits: BufferRef; // [rows, V]
  /** [steps, stride] in [0, 1): row r's draw for its step s at s * stride + r, from its seeded generator */
  uniforms: BufferRef;
  stride: number;
  /** RowState [rows], read and advanced */
  state: BufferRef;
  /** out: [steps, rows, 2] u32: the token and its log-prob's float bits, at each row's step */
  history: BufferRef;
  rows: number;
  V: number;
  /** a row that samples this token is finished (NO_STOP_TOKEN: none) */
  stopToken: number;
}

export function samplingKernel(device: GPUDevice, a: SampleArgs, cfg: SamplingConfig): Dispatch {
  const topK = cfg.topK >= a.V ? 0 : cfg.topK;
  if (topK > SAMPLING_MAX_TOP_K) throw new Error(`sampling: top-k ${cfg.topK} exceeds ${SAMPLING_MAX_TOP_K}`);
  if (!(a.stride >= a.rows)) throw new Error(`sampling: uniform stride ${a.stride} is below ${a.rows} rows`);
  const p = uniformBuffer(device, [['u32', a.rows], ['u32', a.V], ['u32', topK], ['f32', cfg.temperature],
    ['u32', a.stride], ['u32', a.stopToken]]);
  return prepareKernel(device, { code, entryPoint: 'sample', label: 'sampling' },
    [a.logits, a.uniforms, a.state, a.history, p], grid(a.rows));
}
