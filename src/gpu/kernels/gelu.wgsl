// GELU, tanh approximation (GPT-2), elementwise: forward y = gelu(x), backward dx = dy * gelu'(x).

struct Params { n: u32, _a: u32, _b: u32, _c: u32 }

// Prelude: the wrapper prepends tanh-gelu.wgsl (gelu, tanhStable, GELU_S, GELU_K).

fn index(gid: vec3<u32>, nwg: vec3<u32>) -> u32 { return gid.x + gid.y * nwg.x * 256u; }

@group(0) @binding(0) var<storage, read> fx: array<f32>;
@group(0) @binding(1) var<storage, read_write> fy: array<f32>;
@group(0) @binding(2) var<uniform> fp: Params;

@compute @workgroup_size(256)
fn forward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= fp.n) { return; }
  let x = fx[i];
  fy[i] = gelu(x);
}

@group(0) @binding(0) var<storage, read> bdy: array<f32>;
@group(0) @binding(1) var<storage, read> bx: array<f32>;
@group(0) @binding(2) var<storage, read_write> bdx: array<f32>;
@group(0) @binding(3) var<uniform> bp: Params;

@compute @workgroup_size(256)
fn backward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= bp.n) { return; }
  let x = bx[i];
  let t = tanhStable(GELU_S * (x + GELU_K * x * x * x));
  let dt = (1.0 - t * t) * GELU_S * (1.0 + 3.0 * GELU_K * x * x);
  bdx[i] = bdy[i] * (0.5 * (1.0 + t) + 0.5 * x * dt);
}
