// Runs the training graphs of ./training-graph.ts on onnxruntime-web's wasm backend and returns
// gradients as ONE flat array in the parameter layout (alignment gaps and untouched tensors zero).

import type { ModelConfig } from '../../model/config.ts';
import type { ParameterLayout } from '../../model/parameter-layout.ts';
import { createWasmSession, floatData, floatTensor, int64Tensor, ort } from './ort-runtime.ts';
import { buildTrainingGraph, gradName } from '../../model/onnx/training-graph.ts';
import type { TrainingLoss } from '../../model/onnx/training-graph.ts';

export interface LmPass {
  /** -sum coef * logp */
  loss: number;
  /** log p(tokens[b, t+1] | tokens[b, <=t]) stored at [b, t+1] ([B, T], 0 at t = 0), as tokenLogProbs does */
  logProbs: Float32Array;
  grads: Float32Array;
}

export interface WmPass {
  loss: number;
  scores: Float32Array;
  grads: Float32Array;
}

export interface WmLogitGradPass {
  /** sum_b dlogit_b * z_b */
  loss: number;
  scores: Float32Array;
  logits: Float32Array;
  grads: Float32Array;
}

export class OnnxTrainingSession {
  private constructor(
    readonly config: ModelConfig,
    readonly layout: ParameterLayout,
    readonly loss: TrainingLoss,
    private readonly session: ort.InferenceSession,
    private readonly gradOutputs: string[],
  ) {}

  /** With `backward: false` the session returns the loss and logp/score only (grads stay zero). */
  static async create(config: ModelConfig, layout: ParameterLayout, loss: TrainingLoss, backward = true): Promise<OnnxTrainingSession> {
    const graph = buildTrainingGraph(config, layout, loss, backward);
    const session = await createWasmSession(graph.bytes);
    return new OnnxTrainingSession(config, layout, loss, session, graph.gradOutputs);
  }

  /**
   * One forward and backward of the LM loss. coef[b, t] weighs log p of the token at t (t >= 1), i.e.
   * it is indexed like the batch's lossMask; row t-1 of the graph predicts it.
   */
  async lm(params: Float32Array, tokens: Int32Array, B: number, T: number, coef: Float32Array): Promise<LmPass> {
    if (this.loss !== 'lm') throw new Error('training session: this session computes the world-model loss');
    const targets = new Int32Array(B * T);
    const rowCoef = new Float32Array(B * T);
    for (let b = 0; b < B; b++) {
      for (let t = 0; t + 1 < T; t++) {
        targets[b * T + t] = tokens[b * T + t + 1];
        rowCoef[b * T + t] = coef[b * T + t + 1];
      }
    }
    const out = await this.session.run({
      params: floatTensor(params, [params.length]),
      tokens: int64Tensor(tokens, [B, T]),
      targets: int64Tensor(targets, [B, T]),
      coef: floatTensor(rowCoef, [B, T]),
    });
    const rowLogp = floatData(out.logp, 'logp');
    const logProbs = new Float32Array(B * T);
    for (let b = 0; b < B; b++) for (let t = 1; t < T; t++) logProbs[b * T + t] = rowLogp[b * T + t - 1];
    return { loss: floatData(out.loss, 'loss')[0], logProbs, grads: this.gather(out, T) };
  }

  async wm(params: Float32Array, tokens: Int32Array, B: number, T: number, lengths: Int32Array, targets: ArrayLike<number>): Promise<WmPass> {
    if (this.loss !== 'wm' && this.loss !== 'wm-bce') throw new Error(`training session: this session computes the ${this.loss} loss, not a world-model loss on targets`);
    const out = await this.session.run({
      params: floatTensor(params, [params.length]),
      tokens: int64Tensor(tokens, [B, T]),
      lengths: int64Tensor(lengths, [B]),
      targets: floatTensor(Float32Array.from(targets), [B]),
    });
    return { loss: floatData(out.loss, 'loss')[0], scores: floatData(out.score, 'score').slice(), grads: this.gather(out, T) };
  }

  /**
   * Scores, logits and the parameter gradients of sum_b dlogit[b] * z_b: the backward of any loss
   * whose gradient on each logit the caller computed (a forward-only session: dlogit zeros, scores
   * and logits only).
   */
  async wmLogitGrad(params: Float32Array, tokens: Int32Array, B: number, T: number, lengths: Int32Array, dlogit: ArrayLike<number>): Promise<WmLogitGradPass> {
    if (this.loss !== 'wm-logit-grad') throw new Error(`training session: this session computes the ${this.loss} loss, not the backward of a given logit gradient`);
    if (dlogit.length !== B) throw new Error(`training session: ${dlogit.length} logit gradients for ${B} rows`);
    const out = await this.session.run({
      params: floatTensor(params, [params.length]),
      tokens: int64Tensor(tokens, [B, T]),
      lengths: int64Tensor(lengths, [B]),
      dlogit: floatTensor(Float32Array.from(dlogit), [B]),
    });
    return { loss: floatData(out.loss, 'loss')[0], scores: floatData(out.score, 'score').slice(), logits: floatData(out.logit, 'logit').slice(), grads: this.gather(out, T) };
  }

  private gather(out: ort.InferenceSession.ReturnType, T: number): Float32Array {
    const grads = new Float32Array(this.layout.totalLength);
    for (const name of this.gradOutputs) {
      const tensor = name.slice(gradName('').length);
      const v = this.layout.byName.get(tensor);
      if (!v) throw new Error(`training session: gradient of unknown tensor ${tensor}`);
      const data = floatData(out[name], name);
      const expected = tensor === 'wpe' ? T * v.shape[1] : v.size;
      if (data.length !== expected) throw new Error(`training session: ${name} has ${data.length} values, expected ${expected}`);
      grads.set(data, v.offset);
    }
    return grads;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
