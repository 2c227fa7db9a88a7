// Decoding, the rest of a block for one token step, one workgroup per row: attention of the row's
// query over its cache positions 0..pos (head by head, scores in workgroup memory), the output
// projection with bias and residual, layer norm 2, the MLP (fc + bias, GELU, proj + bias) and the
// second residual, written back to x in place. Each weight matrix is read at its offset in `weights`.
// Prelude: reduce.wgsl, decode-state.wgsl, decode-row.wgsl, tanh-gelu.wgsl.

struct Params { wo: u32, bo: u32, ln_g: u32, ln_b: u32, wfc: u32, bfc: u32, wproj: u32, bproj: u32 }

const WG: u32 = 64u;
override H: u32;
override DH: u32;
override F: u32;
override MAX_T: u32;
override SCALE: f32;

@group(0) @binding(0) var<storage, read> weights: array<f32>;
@group(0) @binding(1) var<storage, read> state: array<RowState>;
@group(0) @binding(2) var<storage, read_write> x: array<f32>;
@group(0) @binding(3) var<storage, read> q: array<f32>;
@group(0) @binding(4) var<storage, read> kCache: array<f32>;
@group(0) @binding(5) var<storage, read> vCache: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

var<workgroup> att: array<f32, C>;
var<workgroup> x2: array<f32, C>;
var<workgroup> act: array<f32, F>;
var<workgroup> scores: array<f32, MAX_T>;
var<workgroup> lastPos: u32;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let b = wid.x;
  if (lid == 0u) { lastPos = min(state[b].pos, MAX_T - 1u); }
  // a loop bound and the reductions after it need the position uniform across the workgroup
  let pos = workgroupUniformLoad(&lastPos);
  for (var h = 0u; h < H; h++) {
    let qo = b * C + h * DH;
    var m = -3.0e38;
    for (var j = lid; j <= pos; j += WG) {
      let ko = (b * MAX_T + j) * C + h * DH;
      var dot = 0.0;
      for (var d = 0u; d < DH; d++) { dot += q[qo + d] * kCache[ko + d]; }
      let s = dot * SCALE;
      scores[j] = s;
      m = max(m, s);
    }
    m = reduceMax(lid, m);
    var z = 0.0;
    for (var j = lid; j <= pos; j += WG) { let e = exp(scores[j] - m); scores[j] = e; z += e; }
    // the reduction's barriers also publish every invocation's exp() in scores
    let inv = 1.0 / reduceSum(lid, z);
    for (var d = lid; d < DH; d += WG) {
      var acc = 0.0;
      for (var j = 0u; j <= pos; j++) { acc += scores[j] * vCache[(b * MAX_T + j) * C + h * DH + d]; }
      att[h * DH + d] = acc * inv;
    }
    workgroupBarrier(); // the next head rewrites scores; after the last, att is complete
  }
  for (var c = lid; c < C; c += WG) {
    var acc = 0.0;
    for (var i = 0u; i < C; i++) { acc += att[i] * weights[p.wo + i * C + c]; }
    let v = x[b * C + c] + (acc + weights[p.bo + c]);
    x2[c] = v;
    row[c] = v;
  }
  normalizeRow(lid, p.ln_g, p.ln_b);
  for (var f = lid; f < F; f += WG) {
    var acc = 0.0;
    for (var i = 0u; i < C; i++) { acc += row[i] * weights[p.wfc + i * F + f]; }
    act[f] = gelu(acc + weights[p.bfc + f]);
  }
  workgroupBarrier();
  for (var c = lid; c < C; c += WG) {
    var acc = 0.0;
    for (var f = 0u; f < F; f++) { acc += act[f] * weights[p.wproj + f * C + c]; }
    x[b * C + c] = x2[c] + (acc + weights[p.bproj + c]);
  }
}
