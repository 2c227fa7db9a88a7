// Softmax cross-entropy with log-prob gather. Forward: one workgroup per row finds the max and the
// sum of exp (log-sum-exp), then writes log p(target) = logit[target] - lse. Backward: elementwise
// dlogits = dlogp[row] * (onehot(target) - exp(logit - lse)), the gradient of sum_r dlogp[r] logp[r].

struct Params { rows: u32, V: u32, _a: u32, _b: u32 }

// Prelude: the wrapper prepends reduce.wgsl, which provides reduceMax, reduceSum (workgroup
// reductions over WG invocations, called from uniform control flow) and their workgroup buffer `red`.
const WG: u32 = 64u;

@group(0) @binding(0) var<storage, read> flogits: array<f32>;
@group(0) @binding(1) var<storage, read> ftargets: array<i32>;
@group(0) @binding(2) var<storage, read_write> flogprobs: array<f32>;
@group(0) @binding(3) var<storage, read_write> flse: array<f32>;
@group(0) @binding(4) var<uniform> fp: Params;

@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= fp.rows) { return; }
  let o = row * fp.V;
  var m = -3.0e38;
  for (var i = lid; i < fp.V; i += WG) { m = max(m, flogits[o + i]); }
  m = reduceMax(lid, m);
  var z = 0.0;
  for (var i = lid; i < fp.V; i += WG) { z += exp(flogits[o + i] - m); }
  let lse = m + log(reduceSum(lid, z));
  if (lid == 0u) {
    flse[row] = lse;
    flogprobs[row] = flogits[o + u32(ftargets[row])] - lse;
  }
}

@group(0) @binding(0) var<storage, read> bdlogp: array<f32>;
@group(0) @binding(1) var<storage, read> blogits: array<f32>;
@group(0) @binding(2) var<storage, read> btargets: array<i32>;
@group(0) @binding(3) var<storage, read> blse: array<f32>;
@group(0) @binding(4) var<storage, read_write> bdlogits: array<f32>;
@group(0) @binding(5) var<uniform> bp: Params;

@compute @workgroup_size(256)
fn backward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= bp.rows * bp.V) { return; }
  let row = i / bp.V;
  let col = i % bp.V;
  let onehot = select(0.0, 1.0, col == u32(btargets[row]));
  bdlogits[i] = bdlogp[row] * (onehot - exp(blogits[i] - blse[row]));
}
