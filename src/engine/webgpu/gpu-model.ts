// The policy's GPU state: one parameter buffer in the flat layout of src/model/parameter-layout.ts,
// its gradient and the AdamW moments in the same layout, and the activation buffers of a maximum
// batch (engine-buffers.ts). Weights cross to the host only through upload and download. A 'score'
// model (the frozen world model) holds the weights and the forward's buffers only; what needs more
// throws before it touches the GPU (requireTraining).

import { type OptimizerState, validateOptimizerState } from '../optimizer-state.ts';
import type { ModelConfig } from '../../model/config.ts';
import { buildLayout, layerViewNames, type ParameterLayout } from '../../model/parameter-layout.ts';
import { readFloat32, writeBuffer } from '../../gpu/buffers.ts';
import {
  allocateEngineBuffers, bufferBytes, qkvSplitLayout, type EngineBuffers, type EnginePurpose, type ForwardBuffers, type QkvSplitLayout,
} from './engine-buffers.ts';
import { copyFloats, slice } from './tensor-slice.ts';

export interface GpuModelOptions {
  /** largest batch (sequences) a forward, backward or sampling call may use */
  maxBatch: number;
  /** longest sequence of a training batch; defaults to the context length */
  maxSeq?: number;
  /** 'train' (default): the policy's full engine; 'score': the forward and score head only */
  purpose?: EnginePurpose;
}

export class GpuModel {
  readonly device: GPUDevice;
  readonly config: ModelConfig;
  readonly layout: ParameterLayout;
  readonly maxB: number;
  readonly maxT: number;
  readonly purpose: EnginePurpose;
  /** the weights and what the forward and the score head use: every model has these */
  readonly forward: ForwardBuffers<GPUBuffer>;
  /** every buffer, on a 'train' model; null on a 'score' one */
  private readonly full: EngineBuffers<GPUBuffer> | null;
  readonly split: QkvSplitLayout;
  /** bytes of every buffer this model created */
  readonly memoryBytes: number;
  /** AdamW steps taken (bias correction counts from 1) */
  step = 0;
  private readonly all: GPUBuffer[] = [];

  constructor(device: GPUDevice, config: ModelConfig, options: GpuModelOptions) {
    this.device = device;
    this.config = config;
    this.layout = buildLayout(config);
    this.maxB = options.maxBatch;
    this.maxT = options.maxSeq ?? config.contextLength;
    this.split = qkvSplitLayout(config.dModel);
    this.purpose = options.purpose ?? 'train';
    let bytes = 0;
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const create = (label: string, n: number): GPUBuffer => {
      const size = bufferBytes(n);
      bytes += size;
      const b = device.createBuffer({ label, size, usage });
      this.all.push(b);
      return b;
    };
    this.full = this.purpose === 'train' ? allocateEngineBuffers(config, this.maxB, this.maxT, create, 'train') : null;
    this.forward = this.full ?? allocateEngineBuffers(config, this.maxB, this.maxT, create, 'score');
    this.memoryBytes = bytes;
  }

  /** Every buffer of a 'train' model; on a 'score' one, throws an Error naming `what` was asked of it. */
  requireTraining(what: string): EngineBuffers<GPUBuffer> {
    if (this.full) return this.full;
    throw new Error(`gpu engine: ${what} needs a training engine, but this one was allocated for scoring only (purpose 'score': `
      + 'weights, forward and score head; no gradients, optimizer state, LM head or decoding buffers)');
  }

  /** Every buffer (gradients, optimizer, LM head, backward, decoding); throws on a 'score' model. */
  get buffers(): EngineBuffers<GPUBuffer> {
    return this.requireTraining('a training or decoding call');
  }

  /** A parameter tensor as a range binding of the parameter buffer. */
  param(name: string): GPUBufferBinding {
    return this.viewOf(this.forward.params, name);
  }

  /** The gradient of a parameter tensor as a range binding of the gradient buffer. */
  grad(name: string): GPUBufferBinding {
    return this.viewOf(this.buffers.grads, name);
  }

  /** Tensor `name` of the flat layout as a range binding of `buffer` (params, grads or a moment). */
  viewOf(buffer: GPUBuffer, name: string): GPUBufferBinding {
    const v = this.layout.byName.get(name);
    if (!v) throw new Error(`gpu model: no tensor named '${name}'`);
    return slice(buffer, v.offset, v.size).binding;
  }

  /** Layer l's Wq, Wk, Wv (s = 0, 1, 2) [C, C] and bq, bk, bv [C] in the split mirror. */
  qkvWeight(l: number, s: number, buffer: GPUBuffer = this.forward.qkvMirror, base = l * this.split.stride): GPUBufferBinding {
    const C = this.config.dModel;
    return slice(buffer, base + this.split.w[s], C * C).binding;
  }

  qkvBias(l: number, s: number, buffer: GPUBuffer = this.forward.qkvMirror, base = l * this.split.stride): GPUBufferBinding {
    return slice(buffer, base + this.split.b[s], this.config.dModel).binding;
  }

  /**
   * attn.wqkv is [C, 3C] with q, k, v side by side in each row; the kernels have no strides, so the
   * engine keeps a split copy (C row copies per part) refreshed whenever the parameters change.
   */
  encodeQkvSplit(encoder: GPUCommandEncoder): void {
    const C = this.config.dModel;
    for (let l = 0; l < this.config.nLayers; l++) {
      const n = layerViewNames(l);
      const w = this.layout.byName.get(n.wqkv)!;
      const b = this.layout.byName.get(n.bqkv)!;
      const base = l * this.split.stride;
      for (let s = 0; s < 3; s++) {
        for (let r = 0; r < C; r++) {
          copyFloats(encoder, this.forward.params, w.offset + r * 3 * C + s * C, this.forward.qkvMirror, base + this.split.w[s] + r * C, C);
        }
        copyFloats(encoder, this.forward.params, b.offset + s * C, this.forward.qkvMirror, base + this.split.b[s], C);
      }
    }
  }

  /** The inverse for gradients: layer l's split gradient (in qkvGrad) into grads' attn.wqkv/bqkv. */
  encodeQkvGradScatter(encoder: GPUCommandEncoder, l: number): void {
    const C = this.config.dModel;
    const n = layerViewNames(l);
    const w = this.layout.byName.get(n.wqkv)!;
    const b = this.layout.byName.get(n.bqkv)!;
    for (let s = 0; s < 3; s++) {
      for (let r = 0; r < C; r++) {
        copyFloats(encoder, this.buffers.qkvGrad, this.split.w[s] + r * C, this.buffers.grads, w.offset + r * 3 * C + s * C, C);
      }
      copyFloats(encoder, this.buffers.qkvGrad, this.split.b[s], this.buffers.grads, b.offset + s * C, C);
    }
  }

  /** Replaces the weights (flat layout) and resets nothing else; call resetOptimizer for a fresh run. */
  setWeights(flat: Float32Array): void {
    if (flat.length !== this.layout.totalLength) {
      throw new Error(`gpu model: weights have ${flat.length} floats, the layout needs ${this.layout.totalLength}`);
    }
    writeBuffer(this.device, this.forward.params, flat);
    const encoder = this.device.createCommandEncoder({ label: 'qkv split' });
    this.encodeQkvSplit(encoder);
    this.device.queue.submit([encoder.finish()]);
  }

  async getWeights(): Promise<Float32Array> {
    return readFloat32(this.device, this.forward.params, this.layout.totalLength);
  }

  /** The gradient buffer of the last backward (flat layout). */
  async getGradients(): Promise<Float32Array> {
    return readFloat32(this.device, this.buffers.grads, this.layout.totalLength);
  }

  /** The AdamW moments (flat layout, read back after all submitted work) and the step count. */
  async getOptimizerState(): Promise<OptimizerState> {
    const n = this.layout.totalLength;
    return { step: this.step, m: await readFloat32(this.device, this.buffers.adamM, n), v: await readFloat32(this.device, this.buffers.adamV, n) };
  }

  /** Uploads moments and sets the step count; queue order puts the upload before any later step. */
  setOptimizerState(state: OptimizerState): void {
    validateOptimizerState(state, this.layout.totalLength, 'gpu model');
    writeBuffer(this.device, this.buffers.adamM, state.m);
    writeBuffer(this.device, this.buffers.adamV, state.v);
    this.step = state.step;
  }

  resetOptimizer(): void {
    const { adamM, adamV } = this.buffers;
    const encoder = this.device.createCommandEncoder();
    encoder.clearBuffer(adamM);
    encoder.clearBuffer(adamV);
    this.device.queue.submit([encoder.finish()]);
    this.step = 0;
  }

  checkBatch(B: number, T: number): void {
    if (!(B >= 1 && B <= this.maxB)) throw new Error(`gpu model: batch of ${B} sequences is outside 1..${this.maxB}`);
    if (!(T >= 1 && T <= this.maxT)) throw new Error(`gpu model: sequence length ${T} is outside 1..${this.maxT}`);
  }

  destroy(): void {
    for (const b of this.all) b.destroy();
    this.all.length = 0;
  }
}
