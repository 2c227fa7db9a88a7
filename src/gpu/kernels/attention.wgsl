// Causal multi-head attention. q, k, v, out: [B, T, H*Dh], head h = channels h*Dh .. h*Dh+Dh-1;
// probs and dscores: [B, H, T, T], zero above the diagonal. Scores of one query row live in
// workgroup memory (T <= MAX_T), one workgroup of 64 invocations per (b, h, query row).
// Backward: dscores = P (dP - rowsum(P dP)) * scale per row, then dq, dk, dv as per-output sums
// over the other sequence axis (one invocation per output element, no atomics).

struct Params { B: u32, T: u32, H: u32, Dh: u32, scale: f32, _a: u32, _b: u32, _c: u32 }

// Prelude: the wrapper prepends reduce.wgsl, which provides reduceMax, reduceSum (workgroup
// reductions over WG invocations, called from uniform control flow) and their workgroup buffer `red`.
const WG: u32 = 64u;
const MAX_T: u32 = 1024u;
var<workgroup> srow: array<f32, 1024>;

// ---- forward
@group(0) @binding(0) var<storage, read> fq: array<f32>;
@group(0) @binding(1) var<storage, read> fk: array<f32>;
@group(0) @binding(2) var<storage, read> fv: array<f32>;
@group(0) @binding(3) var<storage, read_write> fout: array<f32>;
@group(0) @binding(4) var<storage, read_write> fprobs: array<f32>;
@group(0) @binding(5) var<uniform> fp: Params;

@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
  let r = wid.x + wid.y * nwg.x; // (b * H + h) * T + i
  if (r >= fp.B * fp.H * fp.T) { return; }
  let i = r % fp.T;
  let bh = r / fp.T;
  let h = bh % fp.H;
  let b = bh / fp.H;
  let C = fp.H * fp.Dh;
  let qo = (b * fp.T + i) * C + h * fp.Dh;
  var m = -3.0e38;
  for (var j = lid; j <= i; j += WG) {
    let ko = (b * fp.T + j) * C + h * fp.Dh;
    var dot = 0.0;
    for (var d: u32 = 0u; d < fp.Dh; d++) { dot += fq[qo + d] * fk[ko + d]; }
    let s = dot * fp.scale;
    srow[j] = s;
    m = max(m, s);
  }
  m = reduceMax(lid, m);
  var z = 0.0;
  for (var j = lid; j <= i; j += WG) { let e = exp(srow[j] - m); srow[j] = e; z += e; }
  let inv = 1.0 / reduceSum(lid, z);
  let po = r * fp.T;
  for (var j = lid; j < fp.T; j += WG) {
    var pj = 0.0;
    if (j <= i) { pj = srow[j] * inv; srow[j] = pj; }
    fprobs[po + j] = pj;
  }
  workgroupBarrier();
  for (var d = lid; d < fp.Dh; d += WG) {
    var acc = 0.0;
    for (var j: u32 = 0u; j <= i; j++) { acc += srow[j] * fv[(b * fp.T + j) * C + h * fp.Dh + d]; }
    fout[qo + d] = acc;
  }
}

// ---- backward, step 1: dscores
@group(0) @binding(0) var<storage, read> sdout: array<f32>;
@group(0) @binding(1) var<storage, read> sv: array<f32>;
@group(0) @binding(2) var<storage, read> sprobs: array<f32>;
@group(0) @binding(3) var<storage, read_write> sds: array<f32>;
@group(0) @binding(4) var<uniform> sp: Params;

@compute @workgroup_size(64)
fn backward_scores(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
  let r = wid.x + wid.y * nwg.x;
  if (r >= sp.B * sp.H * sp.T) { return; }
  let i = r % sp.T;
  let bh = r / sp.T;
  let h = bh % sp.H;
  let b = bh / sp.H;
  let C = sp.H * sp.Dh;
  let io = (b * sp.T + i) * C + h * sp.Dh;
  let po = r * sp.T;
  var rowDot = 0.0;
  for (var j = lid; j <= i; j += WG) {
    let jo = (b * sp.T + j) * C + h * sp.Dh;
    var dot = 0.0;
    for (var d: u32 = 0u; d < sp.Dh; d++) { dot += sdout[io + d] * sv[jo + d]; }
    srow[j] = dot;
    rowDot += sprobs[po + j] * dot;
  }
  rowDot = reduceSum(lid, rowDot);
  for (var j = lid; j < sp.T; j += WG) {
    var ds = 0.0;
    if (j <= i) { ds = sprobs[po + j] * (srow[j] - rowDot) * sp.scale; }
    sds[po + j] = ds;
  }
}

// ---- backward, step 2: dq[b,i,c] = sum_{j<=i} ds[b,h,i,j] k[b,j,c]
@group(0) @binding(0) var<storage, read> qds: array<f32>;
@group(0) @binding(1) var<storage, read> qk: array<f32>;
@group(0) @binding(2) var<storage, read_write> qdq: array<f32>;
@group(0) @binding(3) var<uniform> qp: Params;

@compute @workgroup_size(64)
fn backward_dq(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = gid.x + gid.y * nwg.x * WG;
  let C = qp.H * qp.Dh;
  if (e >= qp.B * qp.T * C) { return; }
  let c = e % C;
  let bi = e / C;
  let i = bi % qp.T;
  let b = bi / qp.T;
  let h = c / qp.Dh;
  let po = ((b * qp.H + h) * qp.T + i) * qp.T;
  var acc = 0.0;
  for (var j: u32 = 0u; j <= i; j++) { acc += qds[po + j] * qk[(b * qp.T + j) * C + c]; }
  qdq[e] = acc;
}

// ---- backward, step 3: dk[b,j,c] = sum_{i>=j} ds[b,h,i,j] q[b,i,c]; dv[b,j,c] = sum_{i>=j} P[b,h,i,j] dout[b,i,c]
@group(0) @binding(0) var<storage, read> kds: array<f32>;
@group(0) @binding(1) var<storage, read> kprobs: array<f32>;
@group(0) @binding(2) var<storage, read> kq: array<f32>;
@group(0) @binding(3) var<storage, read> kdout: array<f32>;
@group(0) @binding(4) var<storage, read_write> kdk: array<f32>;
@group(0) @binding(5) var<storage, read_write> kdv: array<f32>;
@group(0) @binding(6) var<uniform> kp: Params;

@compute @workgroup_size(64)
fn backward_dkdv(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = gid.x + gid.y * nwg.x * WG;
  let C = kp.H * kp.Dh;
  if (e >= kp.B * kp.T * C) { return; }
  let c = e % C;
  let bj = e / C;
  let j = bj % kp.T;
  let b = bj / kp.T;
  let h = c / kp.Dh;
  var dk = 0.0;
  var dv = 0.0;
  for (var i = j; i < kp.T; i++) {
    let pij = ((b * kp.H + h) * kp.T + i) * kp.T + j;
    let xo = (b * kp.T + i) * C + c;
    dk += kds[pij] * kq[xo];
    dv += kprobs[pij] * kdout[xo];
  }
  kdk[e] = dk;
  kdv[e] = dv;
}
