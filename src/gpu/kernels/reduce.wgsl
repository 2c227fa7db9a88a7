// Workgroup tree reductions shared by the kernels that reduce one row (or one slice) per workgroup.
// WGSL has no #include: the wrappers prepend this file to those kernels' source (`withReductions` in
// src/gpu/kernel.ts), so shader compiler line numbers in those kernels are offset by this file's length.
// Expects from the kernel: `const WG: u32`, its workgroup size, a power of two.
// Every invocation of the workgroup must make the call, from uniform control flow (barriers inside);
// each call returns the result to every invocation and leaves `red` free for the next one.

var<workgroup> red: array<vec2<f32>, WG>;

// Sum (takeMax false) or componentwise max (takeMax true) of v over the workgroup.
fn reduceVec2(lid: u32, v: vec2<f32>, takeMax: bool) -> vec2<f32> {
  red[lid] = v;
  workgroupBarrier();
  for (var s: u32 = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      let a = red[lid];
      let b = red[lid + s];
      red[lid] = select(a + b, max(a, b), takeMax);
    }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}

fn reduceSum(lid: u32, v: f32) -> f32 { return reduceVec2(lid, vec2<f32>(v, 0.0), false).x; }
fn reduceMax(lid: u32, v: f32) -> f32 { return reduceVec2(lid, vec2<f32>(v, 0.0), true).x; }
// Two sums at once, one barrier sequence.
fn reduceSum2(lid: u32, v: vec2<f32>) -> vec2<f32> { return reduceVec2(lid, v, false); }
