// Token + position embedding. Forward: x[b,t,c] = wte[token[b,t], c] + wpe[t, c], one invocation per
// element. Backward without float atomics: one invocation per (vocab row, channel) scans all tokens
// and sums the matching rows of dx, in a fixed order, so the result is deterministic; dwpe: one
// invocation per (position, channel) sums over the batch.

struct Params { B: u32, T: u32, C: u32, V: u32 }

fn index(gid: vec3<u32>, nwg: vec3<u32>) -> u32 { return gid.x + gid.y * nwg.x * 256u; }

@group(0) @binding(0) var<storage, read> ftokens: array<i32>;
@group(0) @binding(1) var<storage, read> fwte: array<f32>;
@group(0) @binding(2) var<storage, read> fwpe: array<f32>;
@group(0) @binding(3) var<storage, read_write> fx: array<f32>;
@group(0) @binding(4) var<uniform> fp: Params;

@compute @workgroup_size(256)
fn forward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= fp.B * fp.T * fp.C) { return; }
  let bt = i / fp.C;
  let c = i % fp.C;
  let t = bt % fp.T;
  fx[i] = fwte[u32(ftokens[bt]) * fp.C + c] + fwpe[t * fp.C + c];
}

@group(0) @binding(0) var<storage, read> wdx: array<f32>;
@group(0) @binding(1) var<storage, read> wtokens: array<i32>;
@group(0) @binding(2) var<storage, read_write> wdwte: array<f32>;
@group(0) @binding(3) var<uniform> wp: Params;

@compute @workgroup_size(256)
fn backward_wte(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= wp.V * wp.C) { return; }
  let v = i32(i / wp.C);
  let c = i % wp.C;
  var acc = 0.0;
  for (var bt: u32 = 0u; bt < wp.B * wp.T; bt++) {
    if (wtokens[bt] == v) { acc += wdx[bt * wp.C + c]; }
  }
  wdwte[i] = acc;
}

@group(0) @binding(0) var<storage, read> pdx: array<f32>;
@group(0) @binding(1) var<storage, read_write> pdwpe: array<f32>;
@group(0) @binding(2) var<uniform> pp: Params;

@compute @workgroup_size(256)
fn backward_wpe(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= pp.T * pp.C) { return; }
  var acc = 0.0;
  for (var b: u32 = 0u; b < pp.B; b++) { acc += pdx[b * pp.T * pp.C + i]; }
  pdwpe[i] = acc;
}
