// Layer norm over the last dimension. One workgroup of 64 invocations per row for the forward and
// the dx backward (tree reductions in workgroup memory); dgamma/dbeta use one workgroup per channel
// reducing over rows, so no float atomics are needed and results are deterministic.

struct Params { rows: u32, dim: u32, eps: f32, _pad: u32 }

// Prelude: the wrapper prepends reduce.wgsl, which provides reduceSum2 (workgroup
// reductions over WG invocations, called from uniform control flow) and their workgroup buffer `red`.
const WG: u32 = 64u;

fn linearGroup(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.x + wid.y * nwg.x; }

// ---- forward: y = (x - mean) * rstd * gamma + beta
@group(0) @binding(0) var<storage, read> fx: array<f32>;
@group(0) @binding(1) var<storage, read> fgamma: array<f32>;
@group(0) @binding(2) var<storage, read> fbeta: array<f32>;
@group(0) @binding(3) var<storage, read_write> fy: array<f32>;
@group(0) @binding(4) var<storage, read_write> fmean: array<f32>;
@group(0) @binding(5) var<storage, read_write> frstd: array<f32>;
@group(0) @binding(6) var<uniform> fp: Params;

@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
  let row = linearGroup(wid, nwg);
  if (row >= fp.rows) { return; }
  let o = row * fp.dim;
  var s = 0.0;
  for (var i = lid; i < fp.dim; i += WG) { s += fx[o + i]; }
  let mu = reduceSum2(lid, vec2<f32>(s, 0.0)).x / f32(fp.dim);
  // second pass over (x - mean)^2: stable where E[x^2] - mean^2 would cancel
  var ss = 0.0;
  for (var i = lid; i < fp.dim; i += WG) { let d = fx[o + i] - mu; ss += d * d; }
  let rs = inverseSqrt(reduceSum2(lid, vec2<f32>(ss, 0.0)).x / f32(fp.dim) + fp.eps);
  for (var i = lid; i < fp.dim; i += WG) { fy[o + i] = (fx[o + i] - mu) * rs * fgamma[i] + fbeta[i]; }
  if (lid == 0u) { fmean[row] = mu; frstd[row] = rs; }
}

// ---- backward dx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = dy * gamma
@group(0) @binding(0) var<storage, read> bdy: array<f32>;
@group(0) @binding(1) var<storage, read> bx: array<f32>;
@group(0) @binding(2) var<storage, read> bgamma: array<f32>;
@group(0) @binding(3) var<storage, read> bmean: array<f32>;
@group(0) @binding(4) var<storage, read> brstd: array<f32>;
@group(0) @binding(5) var<storage, read_write> bdx: array<f32>;
@group(0) @binding(6) var<uniform> bp: Params;

@compute @workgroup_size(64)
fn backward_dx(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
  let row = linearGroup(wid, nwg);
  if (row >= bp.rows) { return; }
  let o = row * bp.dim;
  let mu = bmean[row];
  let rs = brstd[row];
  var acc = vec2<f32>(0.0);
  for (var i = lid; i < bp.dim; i += WG) {
    let g = bdy[o + i] * bgamma[i];
    acc += vec2<f32>(g, g * (bx[o + i] - mu) * rs);
  }
  let m = reduceSum2(lid, acc) / f32(bp.dim);
  for (var i = lid; i < bp.dim; i += WG) {
    let xhat = (bx[o + i] - mu) * rs;
    bdx[o + i] = rs * (bdy[o + i] * bgamma[i] - m.x - xhat * m.y);
  }
}

// ---- backward dgamma = sum_rows dy * xhat, dbeta = sum_rows dy: one workgroup per channel
@group(0) @binding(0) var<storage, read> pdy: array<f32>;
@group(0) @binding(1) var<storage, read> px: array<f32>;
@group(0) @binding(2) var<storage, read> pmean: array<f32>;
@group(0) @binding(3) var<storage, read> prstd: array<f32>;
@group(0) @binding(4) var<storage, read_write> pdgamma: array<f32>;
@group(0) @binding(5) var<storage, read_write> pdbeta: array<f32>;
@group(0) @binding(6) var<uniform> pp: Params;

@compute @workgroup_size(64)
fn backward_params(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
  let c = linearGroup(wid, nwg);
  if (c >= pp.dim) { return; }
  var acc = vec2<f32>(0.0);
  for (var r = lid; r < pp.rows; r += WG) {
    let dy = pdy[r * pp.dim + c];
    acc += vec2<f32>(dy * (px[r * pp.dim + c] - pmean[r]) * prstd[r], dy);
  }
  let s = reduceSum2(lid, acc);
  if (lid == 0u) { pdgamma[c] = s.x; pdbeta[c] = s.y; }
}
