// AdamW with global-norm gradient clipping, all on the GPU.
// sumsq: each workgroup reduces a grid-strided share of one gradient tensor to a partial sum of
// squares (written at partials[offset + workgroup]); finalize: one workgroup adds the partials and
// writes [norm, scale] with scale = min(1, maxNorm / norm); step: the elementwise AdamW update with
// the gradient multiplied by that scale, which equals clipping the gradients in place first.

// Prelude: the wrapper prepends reduce.wgsl, which provides reduceSum (workgroup
// reductions over WG invocations, called from uniform control flow) and their workgroup buffer `red`.
const WG: u32 = 256u;

struct SumParams { n: u32, offset: u32, groups: u32, _a: u32 }

@group(0) @binding(0) var<storage, read> sgrad: array<f32>;
@group(0) @binding(1) var<storage, read_write> spartials: array<f32>;
@group(0) @binding(2) var<uniform> sp: SumParams;

@compute @workgroup_size(256)
fn sumsq(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  var acc = 0.0;
  for (var i = wid.x * WG + lid; i < sp.n; i += sp.groups * WG) { let g = sgrad[i]; acc += g * g; }
  let s = reduceSum(lid, acc);
  if (lid == 0u) { spartials[sp.offset + wid.x] = s; }
}

struct FinalParams { count: u32, maxNorm: f32, _a: u32, _b: u32 }

@group(0) @binding(0) var<storage, read> fpartials: array<f32>;
@group(0) @binding(1) var<storage, read_write> fnorm: array<f32>; // [norm, scale]
@group(0) @binding(2) var<uniform> fp: FinalParams;

@compute @workgroup_size(256)
fn finalize(@builtin(local_invocation_index) lid: u32) {
  var acc = 0.0;
  for (var i = lid; i < fp.count; i += WG) { acc += fpartials[i]; }
  let norm = sqrt(reduceSum(lid, acc));
  if (lid == 0u) {
    fnorm[0] = norm;
    // maxNorm <= 0 disables clipping
    fnorm[1] = select(1.0, fp.maxNorm / norm, fp.maxNorm > 0.0 && norm > fp.maxNorm);
  }
}

struct StepParams { n: u32, lr: f32, beta1: f32, beta2: f32, eps: f32, weightDecay: f32, bc1: f32, bc2: f32 }

@group(0) @binding(0) var<storage, read_write> params: array<f32>;
@group(0) @binding(1) var<storage, read> grads: array<f32>;
@group(0) @binding(2) var<storage, read_write> m1: array<f32>;
@group(0) @binding(3) var<storage, read_write> m2: array<f32>;
@group(0) @binding(4) var<storage, read> clip: array<f32>; // [norm, scale] from finalize
@group(0) @binding(5) var<uniform> p: StepParams;

@compute @workgroup_size(256)
fn step(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= p.n) { return; }
  let g = grads[i] * clip[1];
  let m = p.beta1 * m1[i] + (1.0 - p.beta1) * g;
  let v = p.beta2 * m2[i] + (1.0 - p.beta2) * g * g;
  m1[i] = m;
  m2[i] = v;
  let w = params[i];
  params[i] = w - p.lr * ((m / p.bc1) / (sqrt(v / p.bc2) + p.eps) + p.weightDecay * w);
}
