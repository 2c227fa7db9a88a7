// The decoder's KV caches [rows, maxT, C] after the prefill: the training forward's keys and values
// [rows, T, C] copied to positions 0..T-1 of each row, all rows in one dispatch. Rows shorter than T
// (ragged prompts, right-padded) bring padding past their length; each token step writes its
// position (decode-qkv.wgsl) before attending up to it, so the padding is overwritten before it is read.

struct Params { rows: u32, T: u32, C: u32, maxT: u32 }

@group(0) @binding(0) var<storage, read> k: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read_write> kCache: array<f32>;
@group(0) @binding(3) var<storage, read_write> vCache: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

@compute @workgroup_size(64)
fn fill(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = gid.x + gid.y * nwg.x * 64u;
  if (e >= p.rows * p.T * p.C) { return; }
  let b = e / (p.T * p.C);
  let rest = e % (p.T * p.C);
  let dst = b * p.maxT * p.C + rest;
  kCache[dst] = k[e];
  vCache[dst] = v[e];
}
