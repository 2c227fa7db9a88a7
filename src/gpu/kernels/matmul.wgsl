// C[M,N] (+)= op(A)[M,K] op(B)[K,N]. TRANS_A: A is stored [K,M]; TRANS_B: B is stored [N,K].
// 64x64 output tile per workgroup of 16x16 invocations; each invocation keeps a 4x4 block in four
// named vec4 accumulators (registers). K advances in slices of 16 through workgroup memory laid out
// k-major as vec4 columns, so the inner loop reads one vec4 of A and one of B per k.
// Two entry points share that tiling and inner loop and differ only in global memory access:
// - main: bounds-checked scalar loads gathered into a vec4, scalar stores; every shape is legal.
// - main_vec4: vec4 loads and stores (array<vec4<f32>> views). The host selects it only when the
//   contiguous axis of A, of B and of C (N) is a multiple of 4 and every binding offset is a multiple
//   of 16, so each vec4 lies wholly inside or wholly outside the matrix and one check covers it.

override TRANS_A: bool = false;
override TRANS_B: bool = false;

struct Params { M: u32, K: u32, N: u32, accumulate: u32 }

const BM: u32 = 64u;
const BN: u32 = 64u;
const BK: u32 = 16u;

// tileA[k * 16 + mq] holds op(A)[m0 + 4 mq .. +3, k0 + k]; tileB[k * 16 + nq] holds op(B)[k0 + k, n0 + 4 nq .. +3]
var<workgroup> tileA: array<vec4<f32>, 256>;
var<workgroup> tileB: array<vec4<f32>, 256>;

// The invocation's 4x4 output block: rows 4 ty .. 4 ty + 3, columns 4 tx .. 4 tx + 3.
struct Block { r0: vec4<f32>, r1: vec4<f32>, r2: vec4<f32>, r3: vec4<f32> }

// Adds the product of the two tiles now in workgroup memory to the invocation's block.
fn multiplyTiles(acc: Block, ty: u32, tx: u32) -> Block {
  var o = acc;
  for (var k: u32 = 0u; k < BK; k++) {
    let a = tileA[k * 16u + ty];
    let b = tileB[k * 16u + tx];
    o.r0 += a.x * b;
    o.r1 += a.y * b;
    o.r2 += a.z * b;
    o.r3 += a.w * b;
  }
  return o;
}

// ---- scalar path: any shape

@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read_write> C: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

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

fn storeRow(m: u32, n: u32, v: vec4<f32>) {
  if (m >= p.M) { return; }
  for (var j: u32 = 0u; j < 4u; j++) {
    if (n + j < p.N) {
      let i = m * p.N + n + j;
      if (p.accumulate != 0u) { C[i] += v[j]; } else { C[i] = v[j]; }
    }
  }
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

  var acc = Block(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
  for (var k0: u32 = 0u; k0 < p.K; k0 += BK) {
    let am = m0 + qa * 4u;
    tileA[ka * 16u + qa] = vec4<f32>(loadA(am, k0 + ka), loadA(am + 1u, k0 + ka), loadA(am + 2u, k0 + ka), loadA(am + 3u, k0 + ka));
    let bn = n0 + qb * 4u;
    tileB[kb * 16u + qb] = vec4<f32>(loadB(k0 + kb, bn), loadB(k0 + kb, bn + 1u), loadB(k0 + kb, bn + 2u), loadB(k0 + kb, bn + 3u));
    workgroupBarrier();
    acc = multiplyTiles(acc, loc.y, loc.x);
    workgroupBarrier();
  }

  let row = m0 + loc.y * 4u;
  let col = n0 + loc.x * 4u;
  storeRow(row, col, acc.r0);
  storeRow(row + 1u, col, acc.r1);
  storeRow(row + 2u, col, acc.r2);
  storeRow(row + 3u, col, acc.r3);
}

// ---- vec4 path: contiguous axes of A, B and C multiples of 4 (checked by the host)

@group(0) @binding(0) var<storage, read> A4: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> B4: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> C4: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> p4: Params;

// One vec4 of the stored matrix [rows, cols] (cols a multiple of 4) at (r, c), c a multiple of 4;
// zero outside. Since cols % 4 == 0, c < cols means the whole vec4 is inside.
fn loadA4(r: u32, c: u32, rows: u32, cols: u32) -> vec4<f32> {
  if (r >= rows || c >= cols) { return vec4<f32>(0.0); }
  return A4[(r * cols + c) / 4u];
}

fn loadB4(r: u32, c: u32, rows: u32, cols: u32) -> vec4<f32> {
  if (r >= rows || c >= cols) { return vec4<f32>(0.0); }
  return B4[(r * cols + c) / 4u];
}

// A vec4 read along k (4 consecutive k of one m or n) goes to four k-rows of a tile, one component
// each: tile[(k4 + j) * 16 + i / 4][i % 4] = v[j].
fn scatterA(k4: u32, i: u32, v: vec4<f32>) {
  for (var j: u32 = 0u; j < 4u; j++) { tileA[(k4 + j) * 16u + i / 4u][i % 4u] = v[j]; }
}

fn scatterB(k4: u32, i: u32, v: vec4<f32>) {
  for (var j: u32 = 0u; j < 4u; j++) { tileB[(k4 + j) * 16u + i / 4u][i % 4u] = v[j]; }
}

fn storeRow4(m: u32, n: u32, v: vec4<f32>) {
  if (m >= p4.M || n >= p4.N) { return; }
  let i = (m * p4.N + n) / 4u;
  if (p4.accumulate != 0u) { C4[i] += v; } else { C4[i] = v; }
}

@compute @workgroup_size(16, 16)
fn main_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32,
             @builtin(local_invocation_id) loc: vec3<u32>) {
  let m0 = wid.y * BM;
  let n0 = wid.x * BN;
  let M = p4.M;
  let K = p4.K;
  let N = p4.N;
  // Each invocation loads one vec4 of each tile; neighbouring invocations read neighbouring vec4s
  // of the stored matrix. Along m or n (A stored [K,M], B stored [K,N]) the vec4 is one tile entry;
  // along k (A stored [M,K], B stored [N,K]) it is scattered over four k-rows.
  var acc = Block(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
  for (var k0: u32 = 0u; k0 < K; k0 += BK) {
    if (TRANS_A) {
      let k = lid / 16u;
      let q = lid % 16u;
      tileA[k * 16u + q] = loadA4(k0 + k, m0 + 4u * q, K, M);
    } else {
      let m = lid / 4u;
      let k4 = 4u * (lid % 4u);
      scatterA(k4, m, loadA4(m0 + m, k0 + k4, M, K));
    }
    if (TRANS_B) {
      let n = lid / 4u;
      let k4 = 4u * (lid % 4u);
      scatterB(k4, n, loadB4(n0 + n, k0 + k4, N, K));
    } else {
      let k = lid / 16u;
      let q = lid % 16u;
      tileB[k * 16u + q] = loadB4(k0 + k, n0 + 4u * q, K, N);
    }
    workgroupBarrier();
    acc = multiplyTiles(acc, loc.y, loc.x);
    workgroupBarrier();
  }

  let row = m0 + loc.y * 4u;
  let col = n0 + loc.x * 4u;
  storeRow4(row, col, acc.r0);
  storeRow4(row + 1u, col, acc.r1);
  storeRow4(row + 2u, col, acc.r2);
  storeRow4(row + 3u, col, acc.r3);
}
