// Decoding, the head for one token step: the final layer norm of each row and its logits under the
// tied embedding, logits[row, j] = lnf(x_row) . wte[j]. The row is x[row * row_stride + (at_pos ?
// pos : 0)]: after the prefill that picks each prompt's last position out of the training forward's
// [rows, T, C] output, in a token step it is row `row` of the step's [rows, C]. Grid
// (ceil(V / WG), rows), each workgroup normalizing its row and computing WG logits.
// Prelude: reduce.wgsl, decode-state.wgsl, decode-row.wgsl.

struct Params { ln_g: u32, ln_b: u32, wte: u32, row_stride: u32, at_pos: u32, _a: u32, _b: u32, _c: u32 }

const WG: u32 = 64u;
override V: u32;

@group(0) @binding(0) var<storage, read> weights: array<f32>;
@group(0) @binding(1) var<storage, read> state: array<RowState>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read_write> logits: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let b = wid.y;
  let r = b * p.row_stride + select(0u, state[b].pos, p.at_pos != 0u);
  for (var i = lid; i < C; i += WG) { row[i] = x[r * C + i]; }
  normalizeRow(lid, p.ln_g, p.ln_b);
  let j = wid.x * WG + lid;
  if (j >= V) { return; }
  var acc = 0.0;
  for (var i = 0u; i < C; i++) { acc += row[i] * weights[p.wte + j * C + i]; }
  logits[b * V + j] = acc;
}
