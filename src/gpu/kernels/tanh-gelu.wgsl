// The tanh approximation of GELU (GPT-2), shared by the elementwise GELU kernels (gelu.wgsl) and the
// fused decoding kernel (decode-attn-mlp.wgsl): the wrappers prepend this file (WGSL has no #include).

const GELU_S: f32 = 0.7978845608028654; // sqrt(2 / pi)
const GELU_K: f32 = 0.044715;

// tanh written through exp of a non-positive argument: never overflows, unlike some tanh builtins
fn tanhStable(z: f32) -> f32 {
  let e = exp(-2.0 * abs(z));
  return sign(z) * (1.0 - e) / (1.0 + e);
}

fn gelu(x: f32) -> f32 {
  return 0.5 * x * (1.0 + tanhStable(GELU_S * (x + GELU_K * x * x * x)));
}
