// The WebGPU policy engine: the reference model's forward, backward, AdamW step and sampling,
// composed from the project's WGSL kernels with all state on the GPU. The host sends token batches
// and per-token coefficients and reads back only what each call returns (log-probs, scores, the
// loss and the gradient norm, sampled tokens). Constructed with purpose 'score' (the frozen world
// model) it holds the weights and the forward's buffers only: worldModelScores, setWeights and
// getWeights work, and every training or decoding call throws before it touches the GPU.
//
// Loss convention (src/engine/token-coefficients.ts): every LM loss is given as per-token
// coefficients coef [B, T] with dL/dlogp[b, t] = -coef[b, t], where logp[b, t] is the log-prob of
// token t predicted from row t - 1; the loss reported is the surrogate -sum coef * logp.

import type { ModelConfig } from '../../model/config.ts';
import type { Uniform } from '../../model/init.ts';
import type { AdamWConfig } from '../../model/ops/reference-ops.ts';
import type { SequenceBatch } from '../../model/sequence-batch.ts';
import { validateSequenceBatch } from '../../model/sequence-batch.ts';
import { SPECIAL_TOKENS } from '../../model/tokenizer.ts';
import type {
  EngineSample, EngineSampleOptions, GradientResult, Objective, PolicyEngine, UpdateOptions, UpdateResult,
} from '../policy-engine.ts';
import type { OptimizerState } from '../optimizer-state.ts';
import { rlCoefficients, rlNeedsLogProbs, sftCoefficients } from '../token-coefficients.ts';
import { encodeAdamW, encodeGlobalNorm } from '../../gpu/adamw.ts';
import { encodeResidualAdd } from '../../gpu/bias-residual.ts';
import { readFloat32, writeBuffer } from '../../gpu/buffers.ts';
import { encodeMatmul } from '../../gpu/matmul.ts';
import { encodeScoreHeadBackward, encodeScoreHeadForward } from '../../gpu/score-head.ts';
import { decodeBatch, type DecodedSequence } from './decoder.ts';
import { GpuModel, type GpuModelOptions } from './gpu-model.ts';
import { copyFloats, slice } from './tensor-slice.ts';
import { encodeBackward, encodeForward, encodeLmHead, encodeLmHeadBackward, encodeLmHeadWteGrad } from './training-pass.ts';

interface OptimizerOptions extends AdamWConfig {
  /** global gradient-norm clip; <= 0 disables */
  maxGradNorm: number;
}

interface StepReadback {
  /** the loss of the batch before the step */
  loss: number;
  /** global gradient norm before clipping */
  gradNorm: number;
  /** factor the gradient was scaled by (1 when not clipped) */
  clipScale: number;
}

export class GpuPolicyEngine implements PolicyEngine {
  readonly backend: string;
  readonly model: GpuModel;

  /** adapterName: for the backend label, e.g. GpuContext.info.name */
  constructor(device: GPUDevice, config: ModelConfig, options: GpuModelOptions, weights?: Float32Array, adapterName?: string) {
    this.model = new GpuModel(device, config, options);
    this.backend = adapterName ? `webgpu (${adapterName})` : 'webgpu';
    if (weights) this.model.setWeights(weights);
  }

  get config(): ModelConfig {
    return this.model.config;
  }

  /** Bytes of GPU memory the engine allocated. */
  get memoryBytes(): number {
    return this.model.memoryBytes;
  }

  async setWeights(flat: Float32Array, resetOptimizer = false): Promise<void> {
    if (resetOptimizer) this.model.requireTraining('setWeights with resetOptimizer');
    this.model.setWeights(flat);
    if (resetOptimizer) this.model.resetOptimizer();
  }

  getWeights(): Promise<Float32Array> {
    return this.model.getWeights();
  }

  /** Gradient of the last computeGradients/update call (flat layout): for tests and diagnostics. */
  async getGradients(): Promise<Float32Array> {
    this.model.requireTraining('getGradients');
    return this.model.getGradients();
  }

  resetOptimizer(): void {
    this.model.requireTraining('resetOptimizer');
    this.model.resetOptimizer();
  }

  async getOptimizerState(): Promise<OptimizerState> {
    this.model.requireTraining('getOptimizerState');
    return this.model.getOptimizerState();
  }

  async setOptimizerState(state: OptimizerState): Promise<void> {
    this.model.requireTraining('setOptimizerState');
    this.model.setOptimizerState(state);
  }

  async dispose(): Promise<void> {
    await this.model.device.queue.onSubmittedWorkDone();
    this.model.destroy();
  }

  /** Loss and gradient (read back) without changing the weights. */
  async gradients(batch: SequenceBatch, objective: Objective): Promise<GradientResult> {
    this.model.requireTraining('gradients');
    const { device } = this.model;
    const enc = device.createCommandEncoder({ label: 'gradients' });
    const finish = await this.encodeObjective(enc, batch, objective);
    device.queue.submit([enc.finish()]);
    const [loss] = await readFloat32(device, this.model.buffers.loss, 1);
    return { ...finish(loss), grads: await this.model.getGradients() };
  }

  /** One AdamW step on the objective; forward, backward, clipping and the step in one submission. */
  async update(batch: SequenceBatch, objective: Objective, options: UpdateOptions): Promise<UpdateResult> {
    const t0 = performance.now();
    this.model.requireTraining('update');
    const { device } = this.model;
    const enc = device.createCommandEncoder({ label: 'update' });
    const finish = await this.encodeObjective(enc, batch, objective);
    this.encodeStep(enc, { ...options.adamw, maxGradNorm: options.maxGradNorm ?? 0 });
    device.queue.submit([enc.finish()]);
    const { loss, gradNorm, clipScale } = await this.readStep(1);
    return { ...finish(loss), gradNorm, clipScale, step: this.model.step, ms: performance.now() - t0 };
  }

  /**
   * Encodes the objective's forward and backward; the returned function turns the GPU's loss
   * reduction (buffers.loss) into the result fields, as the CPU engine reports them.
   */
  private async encodeObjective(enc: GPUCommandEncoder, batch: SequenceBatch, objective: Objective):
    Promise<(raw: number) => Omit<GradientResult, 'grads'>> {
    validateSequenceBatch(batch);
    if (objective.kind === 'wm') {
      // the world model is trained by the models pipeline on the CPU engine; here only its default loss
      if ((objective.loss ?? 'mse') !== 'mse') throw new Error(`gpu engine: the world-model loss '${objective.loss}' is trained on the CPU engine only (src/pipeline/world-model.ts)`);
      this.encodeWorldModelGradients(enc, batch, objective.targets);
      return (raw) => ({ loss: raw / batch.B, count: batch.B });
    }
    if (objective.kind === 'sft') {
      const c = sftCoefficients(batch);
      this.encodeLmGradients(enc, batch, c.coef);
      return (raw) => ({ loss: raw, count: c.tokens });
    }
    // with clipping or KL the coefficients (and the loss terms) depend on the current log-probs
    const current = rlNeedsLogProbs(objective) ? await this.logProbs(batch, 'mask') : undefined;
    const c = rlCoefficients(batch, objective, current);
    this.encodeLmGradients(enc, batch, c.coef);
    if (current) return () => ({ loss: c.loss, count: c.tokens, policyLoss: c.policyLoss, meanKl: c.meanKl, clipFraction: c.clipFraction });
    // plain policy gradient: the surrogate -sum coef * logp is the whole loss
    return (raw) => ({ loss: raw, count: c.tokens, policyLoss: raw, meanKl: 0, clipFraction: 0 });
  }

  /** Checks the batch and uploads its tokens: all the forward and the score head read. */
  private uploadTokens(batch: SequenceBatch): void {
    validateSequenceBatch(batch);
    this.model.checkBatch(batch.B, batch.T);
    const { tokens } = batch;
    const V = this.config.vocabSize;
    for (let i = 0; i < tokens.length; i++) {
      if (!(tokens[i] >= 0 && tokens[i] < V)) throw new Error(`gpu engine: token ${tokens[i]} at ${i} is outside the vocabulary (size ${V})`);
    }
    writeBuffer(this.model.device, this.model.forward.tokens, tokens);
  }

  /** Tokens and the LM head's targets: row b*T+t-1 predicts token b*T+t; a sequence's last row predicts nothing (target 0, weight 0). */
  private uploadBatch(batch: SequenceBatch): void {
    const { targets: buffer } = this.model.buffers;
    this.uploadTokens(batch);
    const { B, T, tokens } = batch;
    const targets = new Int32Array(B * T);
    for (let b = 0; b < B; b++) for (let t = 1; t < T; t++) targets[b * T + t - 1] = tokens[b * T + t];
    writeBuffer(this.model.device, buffer, targets);
  }

  /**
   * log p(token t | tokens < t) as [B, T] (0 at t = 0, past the length, and outside the mask with
   * 'mask'), like tokenLogProbs in src/model/losses.ts.
   */
  async logProbs(batch: SequenceBatch, which: 'mask' | 'all' = 'mask'): Promise<Float32Array> {
    this.model.requireTraining('logProbs');
    this.uploadBatch(batch);
    const { B, T } = batch;
    const { device } = this.model;
    const enc = device.createCommandEncoder({ label: 'logprobs' });
    encodeForward(enc, this.model, B, T);
    encodeLmHead(enc, this.model, B * T);
    device.queue.submit([enc.finish()]);
    const rows = await readFloat32(device, this.model.buffers.logprobs, B * T);
    const out = new Float32Array(B * T);
    for (let b = 0; b < B; b++) {
      for (let t = 1; t < batch.lengths[b]; t++) {
        const pos = b * T + t;
        if (which === 'all' || batch.lossMask[pos] !== 0) out[pos] = rows[pos - 1];
      }
    }
    return out;
  }

  /** Encodes forward, LM head and backward for coefficients coef [B, T]; the loss goes to buffers.loss. */
  private encodeLmGradients(enc: GPUCommandEncoder, batch: SequenceBatch, coef: Float32Array): void {
    const { B, T } = batch;
    if (coef.length !== B * T) throw new Error(`gpu engine: ${coef.length} coefficients for a [${B}, ${T}] batch`);
    this.uploadBatch(batch);
    const dlogp = new Float32Array(B * T);
    for (let b = 0; b < B; b++) for (let t = 1; t < batch.lengths[b]; t++) dlogp[b * T + t - 1] = -coef[b * T + t];
    const { device } = this.model;
    const bufs = this.model.buffers;
    writeBuffer(device, bufs.dlogp, dlogp);
    const BT = B * T;
    encodeForward(enc, this.model, B, T);
    encodeLmHead(enc, this.model, BT);
    // loss = sum_r dlogp[r] logp[r], a [1, BT] x [BT, 1] product
    encodeMatmul(enc, device, { a: bufs.dlogp, b: bufs.logprobs, c: bufs.loss, M: 1, K: BT, N: 1 });
    encodeLmHeadBackward(enc, this.model, BT);
    encodeBackward(enc, this.model, B, T);
    encodeLmHeadWteGrad(enc, this.model, BT);
  }

  /** World-model scores sigmoid(w . h[b, lengths[b]-1] + b) per sequence [B]. */
  async worldModelScores(batch: SequenceBatch): Promise<Float32Array> {
    this.uploadTokens(batch);
    const { device } = this.model;
    const enc = device.createCommandEncoder({ label: 'scores' });
    this.encodeScores(enc, batch);
    device.queue.submit([enc.finish()]);
    return readFloat32(device, this.model.forward.scores, batch.B);
  }

  private encodeScores(enc: GPUCommandEncoder, batch: SequenceBatch): void {
    const { B, T, lengths } = batch;
    const C = this.config.dModel;
    const bufs = this.model.forward;
    encodeForward(enc, this.model, B, T);
    for (let b = 0; b < B; b++) copyFloats(enc, bufs.lnfY, (b * T + lengths[b] - 1) * C, bufs.scoreRows, b * C, C);
    encodeScoreHeadForward(enc, this.model.device, bufs.scoreRows, this.model.param('score.w'), this.model.param('score.b'), bufs.scores, B, C);
  }

  /** Encodes the world-model loss (1/B) sum (s_b - y_b)^2 and its full backward; B * loss goes to buffers.loss. */
  private encodeWorldModelGradients(enc: GPUCommandEncoder, batch: SequenceBatch, targets: ArrayLike<number>): void {
    const { B, T, lengths } = batch;
    if (targets.length !== B) throw new Error(`gpu engine: ${targets.length} targets for ${B} sequences`);
    for (let b = 0; b < B; b++) {
      if (!(targets[b] >= 0 && targets[b] <= 1)) throw new Error(`gpu engine: target ${targets[b]} of row ${b} is outside [0, 1]`);
    }
    this.uploadTokens(batch);
    const { device } = this.model;
    const bufs = this.model.buffers;
    const C = this.config.dModel;
    writeBuffer(device, bufs.negTargets, Float32Array.from(targets, (y) => -y));
    writeBuffer(device, bufs.scoreScale, new Float32Array([2 / B]));
    this.encodeScores(enc, batch);
    encodeResidualAdd(enc, device, bufs.scores, bufs.negTargets, bufs.scoreErr, B, 1);
    // dL/ds = 2 e / B as a [B, 1] x [1, 1] product; sum e^2 as [1, B] x [B, 1]
    encodeMatmul(enc, device, { a: bufs.scoreErr, b: bufs.scoreScale, c: bufs.dScores, M: B, K: 1, N: 1 });
    encodeMatmul(enc, device, { a: bufs.scoreErr, b: bufs.scoreErr, c: bufs.loss, M: 1, K: B, N: 1 });
    encodeScoreHeadBackward(enc, device, { ds: bufs.dScores, score: bufs.scores, x: bufs.scoreRows, w: this.model.param('score.w'),
      dx: bufs.dScoreRows, dwb: bufs.scoreGrad, rows: B, C });
    enc.clearBuffer(bufs.dHidden, 0, B * T * C * 4);
    for (let b = 0; b < B; b++) copyFloats(enc, bufs.dScoreRows, b * C, bufs.dHidden, (b * T + lengths[b] - 1) * C, C);
    encodeBackward(enc, this.model, B, T);
    const w = this.model.layout.byName.get('score.w')!;
    const bias = this.model.layout.byName.get('score.b')!;
    copyFloats(enc, bufs.scoreGrad, 0, bufs.grads, w.offset, C);
    copyFloats(enc, bufs.scoreGrad, C, bufs.grads, bias.offset, 1);
  }

  /**
   * Global-norm clipping and AdamW over the flat buffers. Weight decay follows the layout's decay
   * flags: consecutive tensors with the same flag are updated by one dispatch (the zero gaps between
   * them stay zero: zero gradient, zero moments, zero weight).
   */
  private encodeStep(enc: GPUCommandEncoder, opt: OptimizerOptions): void {
    const m = this.model;
    const bufs = m.buffers;
    const n = m.layout.totalLength;
    encodeGlobalNorm(enc, m.device, [{ buffer: bufs.grads, n }], bufs.clip, opt.maxGradNorm);
    m.step++;
    const views = m.layout.views;
    let i = 0;
    while (i < views.length) {
      let j = i;
      while (j + 1 < views.length && views[j + 1].decay === views[i].decay) j++;
      const start = views[i].offset;
      const len = views[j].offset + views[j].size - start;
      const part = (buffer: GPUBuffer): GPUBufferBinding => slice(buffer, start, len).binding;
      encodeAdamW(enc, m.device, [{ params: part(bufs.params), grads: part(bufs.grads), m: part(bufs.adamM), v: part(bufs.adamV), n: len }],
        bufs.clip, m.step, { ...opt, weightDecay: views[i].decay ? opt.weightDecay : 0 });
      i = j + 1;
    }
    m.encodeQkvSplit(enc);
  }

  private async readStep(lossScale: number): Promise<StepReadback> {
    const { device, buffers } = this.model;
    const [gradNorm, clipScale] = await readFloat32(device, buffers.clip, 2);
    const [loss] = await readFloat32(device, buffers.loss, 1);
    return { loss: loss * lossScale, gradNorm, clipScale };
  }

  /**
   * One continuation per prompt, prompt b drawing from options.rngs[b], one uniform per generated
   * token as the reference sampler. Prompts of any lengths decode together, in chunks of at most
   * maxBatch (src/engine/webgpu/decoder.ts). Unlike the CPU engine, each generator is advanced by
   * min(maxNewTokens, context left) draws even when its sequence stops earlier (the uniforms go to
   * the GPU up front); the draws that are used are the same.
   */
  async sample(prompts: readonly (readonly number[])[], options: EngineSampleOptions): Promise<EngineSample[]> {
    this.model.requireTraining('sample');
    if (options.rngs.length !== prompts.length) throw new Error(`gpu engine: ${options.rngs.length} generators for ${prompts.length} prompts`);
    const results: EngineSample[] = [];
    for (let start = 0; start < prompts.length; start += this.model.maxB) {
      const end = Math.min(prompts.length, start + this.model.maxB);
      results.push(...await this.sampleWith(prompts.slice(start, end), options.rngs.slice(start, end), options));
    }
    return results;
  }

  /** One decode of at most maxBatch prompts. */
  async sampleWith(prompts: readonly (readonly number[])[], rngs: readonly Uniform[],
    options: Omit<EngineSampleOptions, 'rngs'> & { checkEvery?: number }): Promise<DecodedSequence[]> {
    this.model.requireTraining('sampleWith');
    return decodeBatch(this.model, prompts, rngs, {
      maxNewTokens: options.maxNewTokens,
      temperature: options.temperature ?? 1,
      topK: options.topK ?? 0,
      stopToken: options.stopToken ?? SPECIAL_TOKENS.eos,
      checkEvery: options.checkEvery,
    });
  }
}
