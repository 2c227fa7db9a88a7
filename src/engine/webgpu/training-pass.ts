// The transformer forward and backward encoded on the GPU, step for step the reference in
// src/model/transformer.ts: forward keeps every cache the backward needs in the engine's buffers;
// backward walks the blocks in reverse and writes each parameter's gradient into its range of the
// flat gradient buffer. Everything is encoded into the caller's command encoder: no read-backs.

import { headDim, mlpWidth } from '../../model/config.ts';
import { layerViewNames } from '../../model/parameter-layout.ts';
import { encodeAttentionBackward, encodeAttentionForward } from '../../gpu/attention.ts';
import { encodeBiasGrad, encodeResidualAdd } from '../../gpu/bias-residual.ts';
import { encodeCrossEntropyBackward, encodeCrossEntropyForward } from '../../gpu/cross-entropy.ts';
import { encodeEmbeddingBackward, encodeEmbeddingForward } from '../../gpu/embedding.ts';
import { encodeGeluBackward } from '../../gpu/gelu.ts';
import { encodeLayerNormBackward, encodeLayerNormForward } from '../../gpu/layernorm.ts';
import { encodeMatmul } from '../../gpu/matmul.ts';
import { encodeBlockForward } from './block-forward.ts';
import type { GpuModel } from './gpu-model.ts';

/**
 * Forward of tokens [B, T] (already in forward.tokens) up to the final layer norm (forward.lnfY);
 * it uses only the forward's buffers, which a 'score' model has too.
 */
export function encodeForward(enc: GPUCommandEncoder, model: GpuModel, B: number, T: number): void {
  model.checkBatch(B, T);
  const { device, config } = model;
  const bufs = model.forward;
  const C = config.dModel;
  const BT = B * T;
  const eps = config.layerNormEps;
  const dims = { B, T, H: config.nHeads, Dh: headDim(config) };

  const emb = { B, T, C, V: config.vocabSize };
  encodeEmbeddingForward(enc, device, bufs.tokens, model.param('wte'), model.param('wpe'), bufs.resid[0], emb);
  for (let l = 0; l < config.nLayers; l++) {
    const c = bufs.layers[l];
    encodeBlockForward(enc, model, l, BT, { ...c, x: bufs.resid[l], proj: bufs.proj, out: bufs.resid[l + 1] },
      (e) => encodeAttentionForward(e, device, c.q, c.k, c.v, c.att, c.probs, dims));
  }
  encodeLayerNormForward(enc, device, { x: bufs.resid[config.nLayers], gamma: model.param('lnf.g'), beta: model.param('lnf.b'),
    y: bufs.lnfY, mean: bufs.lnfMean, rstd: bufs.lnfRstd, rows: BT, dim: C, eps });
}

/**
 * Tied LM head on every row and the log-prob gather: logits [BT, V] = lnfY wte^T, then
 * logprobs[r] = log p(targets[r] | row r) (targets already in buffers.targets).
 */
export function encodeLmHead(enc: GPUCommandEncoder, model: GpuModel, BT: number): void {
  const { device, config } = model;
  const bufs = model.buffers;
  const V = config.vocabSize;
  encodeMatmul(enc, device, { a: bufs.lnfY, b: model.param('wte'), c: bufs.logits, M: BT, K: config.dModel, N: V, transB: true });
  encodeCrossEntropyForward(enc, device, { logits: bufs.logits, targets: bufs.targets, logprobs: bufs.logprobs, lse: bufs.lse, rows: BT, V });
}

/**
 * Backward of the LM head given dlogp [BT] (in buffers.dlogp): dlogits, dHidden (overwritten) and
 * the head's share of the tied embedding gradient, which is ADDED to grads' wte after the
 * embedding backward has written it (see encodeLmHeadWteGrad).
 */
export function encodeLmHeadBackward(enc: GPUCommandEncoder, model: GpuModel, BT: number): void {
  const { device, config } = model;
  const bufs = model.buffers;
  const V = config.vocabSize;
  encodeCrossEntropyBackward(enc, device, { dlogp: bufs.dlogp, logits: bufs.logits, targets: bufs.targets, lse: bufs.lse,
    dlogits: bufs.dlogits, rows: BT, V });
  encodeMatmul(enc, device, { a: bufs.dlogits, b: model.param('wte'), c: bufs.dHidden, M: BT, K: V, N: config.dModel });
}

export function encodeLmHeadWteGrad(enc: GPUCommandEncoder, model: GpuModel, BT: number): void {
  const { device, config } = model;
  const bufs = model.buffers;
  encodeMatmul(enc, device, { a: bufs.dlogits, b: bufs.lnfY, c: model.grad('wte'), M: config.vocabSize, K: BT, N: config.dModel,
    transA: true, accumulate: true });
}

/**
 * Backpropagates buffers.dHidden (dL/d lnfY) through the decoder. The gradient buffer is cleared
 * first and every tensor's gradient is then written once, so after this call grads holds exactly
 * this batch's gradient (plus whatever a head adds afterwards with accumulate).
 */
export function encodeBackward(enc: GPUCommandEncoder, model: GpuModel, B: number, T: number): void {
  model.checkBatch(B, T);
  const { device, config } = model;
  const bufs = model.buffers;
  const C = config.dModel;
  const F = mlpWidth(config);
  const BT = B * T;
  const dims = { B, T, H: config.nHeads, Dh: headDim(config) };
  enc.clearBuffer(bufs.grads);

  encodeLayerNormBackward(enc, device, { dy: bufs.dHidden, x: bufs.resid[config.nLayers], gamma: model.param('lnf.g'),
    mean: bufs.lnfMean, rstd: bufs.lnfRstd, dx: bufs.dxA, dgamma: model.grad('lnf.g'), dbeta: model.grad('lnf.b'), rows: BT, dim: C });
  // dx: gradient with respect to the current block's output; dx2 the one after its attention half
  const dx = bufs.dxA;
  const dx2 = bufs.dxB;
  for (let l = config.nLayers - 1; l >= 0; l--) {
    const n = layerViewNames(l);
    const c = bufs.layers[l];
    // MLP: x_out = x2 + gelu(ln2(x2) Wfc + bfc) Wproj + bproj
    encodeBiasGrad(enc, device, dx, model.grad(n.bproj), BT, C);
    encodeMatmul(enc, device, { a: c.fcAct, b: dx, c: model.grad(n.wproj), M: F, K: BT, N: C, transA: true });
    encodeMatmul(enc, device, { a: dx, b: model.param(n.wproj), c: bufs.dFcAct, M: BT, K: C, N: F, transB: true });
    encodeGeluBackward(enc, device, bufs.dFcAct, c.fcPre, bufs.dFcPre, BT * F);
    encodeBiasGrad(enc, device, bufs.dFcPre, model.grad(n.bfc), BT, F);
    encodeMatmul(enc, device, { a: c.ln2y, b: bufs.dFcPre, c: model.grad(n.wfc), M: C, K: BT, N: F, transA: true });
    encodeMatmul(enc, device, { a: bufs.dFcPre, b: model.param(n.wfc), c: bufs.dtmp, M: BT, K: F, N: C, transB: true });
    encodeLayerNormBackward(enc, device, { dy: bufs.dtmp, x: c.x2, gamma: model.param(n.ln2g), mean: c.ln2mean, rstd: c.ln2rstd,
      dx: bufs.dHidden, dgamma: model.grad(n.ln2g), dbeta: model.grad(n.ln2b), rows: BT, dim: C });
    encodeResidualAdd(enc, device, dx, bufs.dHidden, dx2, BT, C);

    // Attention: x2 = x + attn(ln1(x)) Wo + bo
    encodeBiasGrad(enc, device, dx2, model.grad(n.bo), BT, C);
    encodeMatmul(enc, device, { a: c.att, b: dx2, c: model.grad(n.wo), M: C, K: BT, N: C, transA: true });
    encodeMatmul(enc, device, { a: dx2, b: model.param(n.wo), c: bufs.dAtt, M: BT, K: C, N: C, transB: true });
    encodeAttentionBackward(enc, device, { dout: bufs.dAtt, q: c.q, k: c.k, v: c.v, probs: c.probs, dscores: bufs.dscores,
      dq: bufs.dq, dk: bufs.dk, dv: bufs.dv }, dims);
    const dqkv = [bufs.dq, bufs.dk, bufs.dv];
    const g = bufs.qkvGrad;
    for (let s = 0; s < 3; s++) {
      encodeMatmul(enc, device, { a: c.ln1y, b: dqkv[s], c: model.qkvWeight(l, s, g, 0), M: C, K: BT, N: C, transA: true });
      encodeBiasGrad(enc, device, dqkv[s], model.qkvBias(l, s, g, 0), BT, C);
      encodeMatmul(enc, device, { a: dqkv[s], b: model.qkvWeight(l, s), c: bufs.dtmp, M: BT, K: C, N: C, transB: true, accumulate: s > 0 });
    }
    model.encodeQkvGradScatter(enc, l);
    encodeLayerNormBackward(enc, device, { dy: bufs.dtmp, x: bufs.resid[l], gamma: model.param(n.ln1g), mean: c.ln1mean,
      rstd: c.ln1rstd, dx: bufs.dHidden, dgamma: model.grad(n.ln1g), dbeta: model.grad(n.ln1b), rows: BT, dim: C });
    // the block input's gradient: the residual path plus the attention branch; it becomes the next dx
    encodeResidualAdd(enc, device, dx2, bufs.dHidden, dx, BT, C);
  }
  // wpe's gradient covers positions 0..T-1; later rows keep the zeros of the clear above
  encodeEmbeddingBackward(enc, device, dx, bufs.tokens, model.grad('wte'), model.grad('wpe'), { B, T, C, V: config.vocabSize });
}
