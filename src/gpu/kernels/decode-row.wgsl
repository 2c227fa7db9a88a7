// One row of the residual stream in workgroup memory and its layer norm, shared by the decoding
// kernels (decode_qkv, decode_attn_mlp, decode_logits); their wrappers prepend reduce.wgsl,
// decode-state.wgsl and this file. Expects from the kernel `const WG` and `weights`, the flat
// parameter buffer (src/model/parameter-layout.ts): tensors are read at offsets, not bound one by one.

override C: u32;
override EPS: f32;

var<workgroup> row: array<f32, C>;

// row <- (row - mean) * rstd * gamma + beta, gamma and beta at offsets g and b of `weights`, as
// layerNormForward (two passes: the variance from (x - mean)^2). Call from uniform control flow once
// every invocation has written its part of row; every invocation sees the whole result.
fn normalizeRow(lid: u32, g: u32, b: u32) {
  workgroupBarrier();
  var s = 0.0;
  for (var i = lid; i < C; i += WG) { s += row[i]; }
  let mu = reduceSum(lid, s) / f32(C);
  var ss = 0.0;
  for (var i = lid; i < C; i += WG) { let d = row[i] - mu; ss += d * d; }
  let rs = inverseSqrt(reduceSum(lid, ss) / f32(C) + EPS);
  for (var i = lid; i < C; i += WG) { row[i] = (row[i] - mu) * rs * weights[g + i] + weights[b + i]; }
  workgroupBarrier();
}
