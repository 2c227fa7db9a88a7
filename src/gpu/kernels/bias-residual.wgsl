// The small glue of a transformer block: residual add (out = a + b), bias add broadcast over rows
// (x[r, c] += bias[c], in place, after a matmul), and the bias gradient (db[c] = sum_r dy[r, c],
// one invocation per channel in a fixed row order: deterministic, no atomics).

struct Params { rows: u32, C: u32, _a: u32, _b: u32 }

const WG: u32 = 256u;

fn index(gid: vec3<u32>, nwg: vec3<u32>) -> u32 { return gid.x + gid.y * nwg.x * WG; }

@group(0) @binding(0) var<storage, read> ra: array<f32>;
@group(0) @binding(1) var<storage, read> rb: array<f32>;
@group(0) @binding(2) var<storage, read_write> rout: array<f32>;
@group(0) @binding(3) var<uniform> rp: Params;

@compute @workgroup_size(256)
fn residual_add(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= rp.rows * rp.C) { return; }
  rout[i] = ra[i] + rb[i];
}

@group(0) @binding(0) var<storage, read_write> bx: array<f32>;
@group(0) @binding(1) var<storage, read> bbias: array<f32>;
@group(0) @binding(2) var<uniform> bp: Params;

@compute @workgroup_size(256)
fn bias_add(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= bp.rows * bp.C) { return; }
  bx[i] += bbias[i % bp.C];
}

@group(0) @binding(0) var<storage, read> gdy: array<f32>;
@group(0) @binding(1) var<storage, read_write> gdb: array<f32>;
@group(0) @binding(2) var<uniform> gp: Params;

@compute @workgroup_size(256)
fn bias_grad(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let c = index(gid, nwg);
  if (c >= gp.C) { return; }
  var acc = 0.0;
  for (var r: u32 = 0u; r < gp.rows; r++) { acc += gdy[r * gp.C + c]; }
  gdb[c] = acc;
}
