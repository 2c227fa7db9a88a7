// Score head: score[r] = sigmoid(x[r] . w + b), one workgroup of 64 per row (dot by tree reduction).
// Backward: dz = ds * s (1 - s); dx = dz w (elementwise); dw[c] = sum_r dz[r] x[r, c] and db = sum_r dz
// by one invocation per channel (plus one for b), no atomics.

struct Params { rows: u32, C: u32, _a: u32, _b: u32 }

// Prelude: the wrapper prepends reduce.wgsl, which provides reduceSum (workgroup
// reductions over WG invocations, called from uniform control flow) and their workgroup buffer `red`.
const WG: u32 = 64u;

fn sigmoid(z: f32) -> f32 {
  // exp of a non-positive argument only: no overflow
  let e = exp(-abs(z));
  return select(e / (1.0 + e), 1.0 / (1.0 + e), z >= 0.0);
}

@group(0) @binding(0) var<storage, read> fx: array<f32>;
@group(0) @binding(1) var<storage, read> fw: array<f32>;
@group(0) @binding(2) var<storage, read> fb: array<f32>;
@group(0) @binding(3) var<storage, read_write> fscore: array<f32>;
@group(0) @binding(4) var<uniform> fp: Params;

@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
  let r = wid.x + wid.y * nwg.x;
  if (r >= fp.rows) { return; }
  var acc = 0.0;
  for (var c = lid; c < fp.C; c += WG) { acc += fx[r * fp.C + c] * fw[c]; }
  let z = reduceSum(lid, acc) + fb[0];
  if (lid == 0u) { fscore[r] = sigmoid(z); }
}

@group(0) @binding(0) var<storage, read> bds: array<f32>;
@group(0) @binding(1) var<storage, read> bscore: array<f32>;
@group(0) @binding(2) var<storage, read> bx: array<f32>;
@group(0) @binding(3) var<storage, read> bw: array<f32>;
@group(0) @binding(4) var<storage, read_write> bdx: array<f32>;
@group(0) @binding(5) var<storage, read_write> bdw: array<f32>; // [C + 1]: dw then db
@group(0) @binding(6) var<uniform> bp: Params;

@compute @workgroup_size(64)
fn backward_dx(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = gid.x + gid.y * nwg.x * WG;
  if (e >= bp.rows * bp.C) { return; }
  let r = e / bp.C;
  let s = bscore[r];
  bdx[e] = bds[r] * s * (1.0 - s) * bw[e % bp.C];
}

@compute @workgroup_size(64)
fn backward_dw(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = gid.x;
  if (c > bp.C) { return; }
  var acc = 0.0;
  for (var r: u32 = 0u; r < bp.rows; r++) {
    let s = bscore[r];
    let dz = bds[r] * s * (1.0 - s);
    if (c == bp.C) { acc += dz; } else { acc += dz * bx[r * bp.C + c]; }
  }
  bdw[c] = acc;
}
