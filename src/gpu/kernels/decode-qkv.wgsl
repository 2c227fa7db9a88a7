// Decoding, the first kernel of a block, for one token step of every row: the row's input (layer 0:
// the token and position embeddings, also written to x; later layers: x), layer norm 1, the q|k|v
// projection with its bias (attn.wqkv [C, 3C] read in place), q out, and k, v appended to the
// layer's caches [rows, MAX_T, C] at the row's own position. Grid (ceil(3C / WG), rows): each
// workgroup normalizes its row (C values) and computes WG of the 3C columns.
// Prelude: reduce.wgsl, decode-state.wgsl, decode-row.wgsl.

struct Params { ln_g: u32, ln_b: u32, w: u32, bias: u32, wte: u32, wpe: u32, _a: u32, _b: u32 }

const WG: u32 = 64u;
override EMBED: bool;
override MAX_T: u32;

@group(0) @binding(0) var<storage, read> weights: array<f32>;
@group(0) @binding(1) var<storage, read> state: array<RowState>;
@group(0) @binding(2) var<storage, read_write> x: array<f32>;
@group(0) @binding(3) var<storage, read_write> q: array<f32>;
@group(0) @binding(4) var<storage, read_write> kCache: array<f32>;
@group(0) @binding(5) var<storage, read_write> vCache: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let b = wid.y;
  let st = state[b];
  let pos = min(st.pos, MAX_T - 1u);
  for (var i = lid; i < C; i += WG) {
    if (EMBED) {
      let e = weights[p.wte + st.token * C + i] + weights[p.wpe + pos * C + i];
      row[i] = e;
      if (wid.x == 0u) { x[b * C + i] = e; }
    } else {
      row[i] = x[b * C + i];
    }
  }
  normalizeRow(lid, p.ln_g, p.ln_b);
  let j = wid.x * WG + lid;
  if (j >= 3u * C) { return; }
  var acc = 0.0;
  for (var i = 0u; i < C; i++) { acc += row[i] * weights[p.w + i * 3u * C + j]; }
  acc += weights[p.bias + j];
  if (j < C) {
    q[b * C + j] = acc;
  } else if (j < 2u * C) {
    kCache[(b * MAX_T + pos) * C + j - C] = acc;
  } else {
    vCache[(b * MAX_T + pos) * C + j - 2u * C] = acc;
  }
}
