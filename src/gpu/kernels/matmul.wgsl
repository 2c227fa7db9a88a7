// C[M,N] (+)= op(A)[M,K] op(B)[K,N]. TRANS_A: A is stored [K,M]; TRANS_B: B is stored [N,K].
// 64x64 output tile per workgroup of 16x16 invocations; each invocation keeps a 4x4 block in four
// named vec4 accumulators (registers). K advances in slices of 16 through workgroup memory laid out
// k-major as vec4 columns, so the inner loop reads one vec4 of A and one of B per k.
// Global loads are bounds-checked scalars gathered into a vec4, which keeps every shape legal
// (no alignment assumptions); each invocation writes one whole vec4 into each tile.

override TRANS_A: bool = false;
override TRANS_B: bool = false;

struct Params { M: u32, K: u32, N: u32, accumulate: u32 }

@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read_write> C: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

const BM: u32 = 64u;
const BN: u32 = 64u;
const BK: u32 = 16u;

// tileA[k * 16 + mq] holds op(A)[m0 + 4 mq .. +3, k0 + k]; tileB[k * 16 + nq] holds op(B)[k0 + k, n0 + 4 nq .. +3]
var<workgroup> tileA: array<vec4<f32>, 256>;
var<workgroup> tileB: array<vec4<f32>, 256>;

fn loadA(m: u32, k: u32) -> f32 {
  if (m >= p.M || k >= p.K) { return 0.0; }
  if (TRANS_A) { return A[k * p.M + m]; }
  return A[m * p.K + k];
}

fn loadB(k: u32, n: u32) -> f32 {
  if (k >= p.K || n >= p.N) { return 0.0; }
  if (TRANS_B) { return B[n * p.K + k]; }
  return B[k * p.N + n];
}

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32,
        @builtin(local_invocation_id) loc: vec3<u32>) {
  let m0 = wid.y * BM;
  let n0 = wid.x * BN;
  // Which (k, quad) this invocation loads: neighbouring invocations walk the contiguous axis of the
  // stored matrix, so global reads coalesce on real GPUs.
  var ka: u32; var qa: u32;
  if (TRANS_A) { ka = lid / 16u; qa = lid % 16u; } else { ka = lid % 16u; qa = lid / 16u; }
  var kb: u32; var qb: u32;
  if (TRANS_B) { kb = lid % 16u; qb = lid / 16u; } else { kb = lid / 16u; qb = lid % 16u; }

  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  let ty = loc.y;
  let tx = loc.x;

  for (var k0: u32 = 0u; k0 < p.K; k0 += BK) {
    let am = m0 + qa * 4u;
    tileA[ka * 16u + qa] = vec4<f32>(loadA(am, k0 + ka), loadA(am + 1u, k0 + ka), loadA(am + 2u, k0 + ka), loadA(am + 3u, k0 + ka));
    let bn = n0 + qb * 4u;
    tileB[kb * 16u + qb] = vec4<f32>(loadB(k0 + kb, bn), loadB(k0 + kb, bn + 1u), loadB(k0 + kb, bn + 2u), loadB(k0 + kb, bn + 3u));
    workgroupBarrier();
    for (var k: u32 = 0u; k < BK; k++) {
      let a = tileA[k * 16u + ty];
      let b = tileB[k * 16u + tx];
      acc0 += a.x * b;
      acc1 += a.y * b;
      acc2 += a.z * b;
      acc3 += a.w * b;
    }
    workgroupBarrier();
  }

  let row = m0 + ty * 4u;
  let col = n0 + tx * 4u;
  storeRow(row, col, acc0);
  storeRow(row + 1u, col, acc1);
  storeRow(row + 2u, col, acc2);
  storeRow(row + 3u, col, acc3);
}

fn storeRow(m: u32, n: u32, v: vec4<f32>) {
  if (m >= p.M) { return; }
  for (var j: u32 = 0u; j < 4u; j++) {
    if (n + j < p.N) {
      let i = m * p.N + n + j;
      if (p.accumulate != 0u) { C[i] += v[j]; } else { C[i] = v[j]; }
    }
  }
}
