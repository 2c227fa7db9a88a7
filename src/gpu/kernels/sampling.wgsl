// Next-token sampling for one token step of the decoder, one workgroup per row: the row's logits
// [rows, V] and its next uniform in, the token, its log-prob and the row's new state out. temperature
// <= 0: argmax. topK in 1..MAX_K (and < V): the k best logits are picked by k rounds of a workgroup
// argmax over (value desc, index asc), then one invocation walks their CDF. Otherwise all V tokens in
// index order: per-invocation chunk sums, then a walk over the chunks and inside the chosen chunk.
// Same candidate order as src/model/ops/sampling.ts. The log-prob is that of the token under the
// distribution it was drawn from (tempered, top-k; 0 when greedy), as sampleFromLogits gives it.
// The token goes to the row's history slot [step, rows] as (token, bitcast log-prob) and into the row's
// state as the next input; a finished row (decode-state.wgsl) is left alone.
// Prelude: decode-state.wgsl.

struct Params { rows: u32, V: u32, topK: u32, temperature: f32, stride: u32, stop: u32, _a: u32, _b: u32 }

@group(0) @binding(0) var<storage, read> logits: array<f32>;
@group(0) @binding(1) var<storage, read> uniforms: array<f32>; // [step, stride]: row r's draw for its step s at s * stride + r
@group(0) @binding(2) var<storage, read_write> state: array<RowState>;
@group(0) @binding(3) var<storage, read_write> history: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

const WG: u32 = 64u;
const MAX_K: u32 = 256u;
const NONE: u32 = 0xffffffffu;
const LOWEST: f32 = -3.4e38;

var<workgroup> redV: array<f32, 64>;
var<workgroup> redI: array<u32, 64>;
var<workgroup> cand: array<u32, 256>;
var<workgroup> chunk: array<f32, 64>;
var<workgroup> current: RowState;

fn better(v1: f32, i1: u32, v2: f32, i2: u32) -> bool {
  return i2 == NONE || v1 > v2 || (v1 == v2 && i1 < i2);
}

// Workgroup argmax of (value, index) pairs; every invocation gets the winner's index.
fn reduceArg(lid: u32, v: f32, i: u32) -> u32 {
  redV[lid] = v;
  redI[lid] = i;
  workgroupBarrier();
  for (var s: u32 = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s && redI[lid + s] != NONE && better(redV[lid + s], redI[lid + s], redV[lid], redI[lid])) {
      redV[lid] = redV[lid + s];
      redI[lid] = redI[lid + s];
    }
    workgroupBarrier();
  }
  let r = redI[0];
  workgroupBarrier();
  return r;
}

// The row's history slot and next state; the stop token ends the row.
fn emit(row: u32, st: RowState, token: u32, logProb: f32) {
  let h = (st.step * p.rows + row) * 2u;
  history[h] = token;
  history[h + 1u] = bitcast<u32>(logProb);
  let limit = select(st.limit, st.step + 1u, token == p.stop);
  state[row] = RowState(st.pos + 1u, token, st.step + 1u, limit);
}

@compute @workgroup_size(64)
fn sample(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) lid: u32) {
  let row = wid.x + wid.y * nwg.x;
  if (row >= p.rows) { return; }
  if (lid == 0u) { current = state[row]; }
  let st = workgroupUniformLoad(&current);
  if (st.step >= st.limit) { return; }
  let u = uniforms[st.step * p.stride + row];
  let o = row * p.V;
  let greedy = p.temperature <= 0.0;
  var k: u32 = 0u;
  if (greedy) { k = 1u; } else if (p.topK > 0u && p.topK < p.V) { k = min(p.topK, MAX_K); }

  if (k > 0u) {
    var prevV = 0.0;
    var prevI = NONE;
    for (var r: u32 = 0u; r < k; r++) {
      var bv = LOWEST;
      var bi = NONE;
      for (var i = lid; i < p.V; i += WG) {
        let l = logits[o + i];
        let eligible = prevI == NONE || l < prevV || (l == prevV && i > prevI);
        if (eligible && better(l, i, bv, bi)) { bv = l; bi = i; }
      }
      let w = reduceArg(lid, bv, bi);
      if (lid == 0u) { cand[r] = w; }
      prevI = w;
      prevV = logits[o + w];
    }
    workgroupBarrier();
    if (lid == 0u) {
      if (greedy) {
        emit(row, st, cand[0], 0.0);
      } else {
        let top = logits[o + cand[0]];
        var total = 0.0;
        for (var j: u32 = 0u; j < k; j++) { total += exp((logits[o + cand[j]] - top) / p.temperature); }
        let goal = u * total;
        var cum = 0.0;
        var pick = cand[k - 1u];
        for (var j: u32 = 0u; j < k; j++) {
          cum += exp((logits[o + cand[j]] - top) / p.temperature);
          if (cum > goal) { pick = cand[j]; break; }
        }
        emit(row, st, pick, (logits[o + pick] - top) / p.temperature - log(total));
      }
    }
    return;
  }

  // all tokens, index order
  var bv = LOWEST;
  var bi = NONE;
  for (var i = lid; i < p.V; i += WG) {
    let l = logits[o + i];
    if (better(l, i, bv, bi)) { bv = l; bi = i; }
  }
  let top = logits[o + reduceArg(lid, bv, bi)];
  let size = (p.V + WG - 1u) / WG;
  let start = lid * size;
  let end = min(start + size, p.V);
  var s = 0.0;
  for (var i = start; i < end; i++) { s += exp((logits[o + i] - top) / p.temperature); }
  chunk[lid] = s;
  workgroupBarrier();
  if (lid == 0u) {
    var total = 0.0;
    for (var c: u32 = 0u; c < WG; c++) { total += chunk[c]; }
    let goal = u * total;
    var cum = 0.0;
    var pick = p.V - 1u;
    var found = false;
    for (var c: u32 = 0u; c < WG && !found; c++) {
      if (cum + chunk[c] > goal) {
        let cend = min((c + 1u) * size, p.V);
        for (var i = c * size; i < cend; i++) {
          cum += exp((logits[o + i] - top) / p.temperature);
          if (cum > goal) { pick = i; found = true; break; }
        }
        // rounding left the goal past this chunk's own walk: take its last token
        if (!found && cend > c * size) { pick = cend - 1u; found = true; }
      } else {
        cum += chunk[c];
      }
    }
    emit(row, st, pick, (logits[o + pick] - top) / p.temperature - log(total));
  }
}
