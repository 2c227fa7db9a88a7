// KV cache for incremental decoding. cache: [B, maxT, H*Dh]. append writes this step's k and v
// ([B, H*Dh]) at position pos; decode attends one query per sequence ([B, H*Dh]) over cache
// positions 0..pos (causal by construction), one workgroup of 64 per (b, h).

struct Params { B: u32, maxT: u32, H: u32, Dh: u32, pos: u32, scale: f32, _a: u32, _b: u32 }

// Prelude: the wrapper prepends reduce.wgsl, which provides reduceMax, reduceSum (workgroup
// reductions over WG invocations, called from uniform control flow) and their workgroup buffer `red`.
const WG: u32 = 64u;

@group(0) @binding(0) var<storage, read> ak: array<f32>;
@group(0) @binding(1) var<storage, read> av: array<f32>;
@group(0) @binding(2) var<storage, read_write> akc: array<f32>;
@group(0) @binding(3) var<storage, read_write> avc: array<f32>;
@group(0) @binding(4) var<uniform> ap: Params;

@compute @workgroup_size(64)
fn append(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = gid.x + gid.y * nwg.x * WG;
  let C = ap.H * ap.Dh;
  if (e >= ap.B * C) { return; }
  let b = e / C;
  let c = e % C;
  let dst = (b * ap.maxT + ap.pos) * C + c;
  akc[dst] = ak[e];
  avc[dst] = av[e];
}

var<workgroup> srow: array<f32, 1024>;

@group(0) @binding(0) var<storage, read> dq: array<f32>;
@group(0) @binding(1) var<storage, read> dkc: array<f32>;
@group(0) @binding(2) var<storage, read> dvc: array<f32>;
@group(0) @binding(3) var<storage, read_write> dout: array<f32>;
@group(0) @binding(4) var<uniform> dp: Params;

@compute @workgroup_size(64)
fn decode(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) lid: u32) {
  let bh = wid.x + wid.y * nwg.x;
  if (bh >= dp.B * dp.H) { return; }
  let b = bh / dp.H;
  let h = bh % dp.H;
  let C = dp.H * dp.Dh;
  let qo = b * C + h * dp.Dh;
  var m = -3.0e38;
  for (var j = lid; j <= dp.pos; j += WG) {
    let ko = (b * dp.maxT + j) * C + h * dp.Dh;
    var dot = 0.0;
    for (var d: u32 = 0u; d < dp.Dh; d++) { dot += dq[qo + d] * dkc[ko + d]; }
    let s = dot * dp.scale;
    srow[j] = s;
    m = max(m, s);
  }
  m = reduceMax(lid, m);
  var z = 0.0;
  for (var j = lid; j <= dp.pos; j += WG) { let e = exp(srow[j] - m); srow[j] = e; z += e; }
  let inv = 1.0 / reduceSum(lid, z);
  workgroupBarrier();
  for (var d = lid; d < dp.Dh; d += WG) {
    var acc = 0.0;
    for (var j: u32 = 0u; j <= dp.pos; j++) { acc += srow[j] * dvc[(b * dp.maxT + j) * C + h * dp.Dh + d]; }
    dout[qo + d] = acc * inv;
  }
}
