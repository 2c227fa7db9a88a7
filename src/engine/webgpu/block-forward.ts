// The transformer block's forward, written once for the WebGPU engine (the reference is
// src/model/transformer.ts):
//
//   x2  = x  + attn(ln1(x)) Wo + bo
//   out = x2 + gelu(ln2(x2) Wfc + bfc) Wproj + bproj
//
// The training pass runs it over all B*T rows with causal attention and keeps every activation for
// the backward; the decoder's prefill is that same pass. (A token step of the decoder runs the block
// as two fused kernels instead: src/gpu/decode-qkv.ts, src/gpu/decode-attn-mlp.ts.)

import { mlpWidth } from '../../model/config.ts';
import { layerViewNames } from '../../model/parameter-layout.ts';
import { encodeBiasAdd, encodeResidualAdd } from '../../gpu/bias-residual.ts';
import { encodeGeluForward } from '../../gpu/gelu.ts';
import { encodeLayerNormForward } from '../../gpu/layernorm.ts';
import { encodeMatmul } from '../../gpu/matmul.ts';
import type { GpuModel } from './gpu-model.ts';

/** Where a block reads its input, keeps its activations and writes its output. */
export interface BlockBuffers {
  x: GPUBuffer;
  ln1y: GPUBuffer; ln1mean: GPUBuffer; ln1rstd: GPUBuffer;
  q: GPUBuffer; k: GPUBuffer; v: GPUBuffer;
  att: GPUBuffer;
  /** scratch for each branch's output before the residual add */
  proj: GPUBuffer;
  x2: GPUBuffer;
  ln2y: GPUBuffer; ln2mean: GPUBuffer; ln2rstd: GPUBuffer;
  fcPre: GPUBuffer; fcAct: GPUBuffer;
  out: GPUBuffer;
}

/** Encodes block l over `rows` rows; `attention` turns q, k, v into att (causal, or against a cache). */
export function encodeBlockForward(enc: GPUCommandEncoder, model: GpuModel, l: number, rows: number, b: BlockBuffers,
  attention: (enc: GPUCommandEncoder) => void): void {
  const { device, config } = model;
  const C = config.dModel;
  const F = mlpWidth(config);
  const eps = config.layerNormEps;
  const n = layerViewNames(l);
  encodeLayerNormForward(enc, device, { x: b.x, gamma: model.param(n.ln1g), beta: model.param(n.ln1b),
    y: b.ln1y, mean: b.ln1mean, rstd: b.ln1rstd, rows, dim: C, eps });
  const qkv = [b.q, b.k, b.v];
  for (let s = 0; s < 3; s++) {
    encodeMatmul(enc, device, { a: b.ln1y, b: model.qkvWeight(l, s), c: qkv[s], M: rows, K: C, N: C });
    encodeBiasAdd(enc, device, qkv[s], model.qkvBias(l, s), rows, C);
  }
  attention(enc);
  encodeMatmul(enc, device, { a: b.att, b: model.param(n.wo), c: b.proj, M: rows, K: C, N: C });
  encodeBiasAdd(enc, device, b.proj, model.param(n.bo), rows, C);
  encodeResidualAdd(enc, device, b.x, b.proj, b.x2, rows, C);
  encodeLayerNormForward(enc, device, { x: b.x2, gamma: model.param(n.ln2g), beta: model.param(n.ln2b),
    y: b.ln2y, mean: b.ln2mean, rstd: b.ln2rstd, rows, dim: C, eps });
  encodeMatmul(enc, device, { a: b.ln2y, b: model.param(n.wfc), c: b.fcPre, M: rows, K: C, N: F });
  encodeBiasAdd(enc, device, b.fcPre, model.param(n.bfc), rows, F);
  encodeGeluForward(enc, device, b.fcPre, b.fcAct, rows * F);
  encodeMatmul(enc, device, { a: b.fcAct, b: model.param(n.wproj), c: b.proj, M: rows, K: F, N: C });
  encodeBiasAdd(enc, device, b.proj, model.param(n.bproj), rows, C);
  encodeResidualAdd(enc, device, b.x2, b.proj, b.out, rows, C);
}
