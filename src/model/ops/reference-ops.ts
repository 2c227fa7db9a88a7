// Plain reference implementations of the transformer's primitive ops.
// They are the oracle every backend (WGSL kernels, ONNX graphs) is tested against, so they favour
// readability over speed. Layout: row-major Float32Array everywhere; sums accumulate in float64
// (JS numbers) and round to float32 once on store.

/** C = op(A) op(B), op(A) is M x K, op(B) is K x N. With transA, A is stored as [K, M]; with transB, B as [N, K]. */
export function matmul(
  a: Float32Array,
  b: Float32Array,
  M: number,
  K: number,
  N: number,
  transA = false,
  transB = false,
): Float32Array {
  const c = new Float32Array(M * N);
  const acc = new Float64Array(N);
  for (let i = 0; i < M; i++) {
    acc.fill(0);
    for (let k = 0; k < K; k++) {
      const aik = transA ? a[k * M + i] : a[i * K + k];
      if (aik === 0) continue;
      if (transB) {
        for (let j = 0; j < N; j++) acc[j] += aik * b[j * K + k];
      } else {
        const row = k * N;
        for (let j = 0; j < N; j++) acc[j] += aik * b[row + j];
      }
    }
    for (let j = 0; j < N; j++) c[i * N + j] = acc[j];
  }
  return c;
}

export interface LayerNormForward {
  y: Float32Array;
  /** per row mean, [rows] */
  mean: Float32Array;
  /** per row 1/sqrt(var + eps), biased variance, [rows] */
  rstd: Float32Array;
}

export function layerNormForward(
  x: Float32Array,
  gamma: Float32Array,
  beta: Float32Array,
  rows: number,
  dim: number,
  eps = 1e-5,
): LayerNormForward {
  const y = new Float32Array(rows * dim);
  const mean = new Float32Array(rows);
  const rstd = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    const o = r * dim;
    let s = 0;
    for (let i = 0; i < dim; i++) s += x[o + i];
    const mu = s / dim;
    let ss = 0;
    for (let i = 0; i < dim; i++) {
      const d = x[o + i] - mu;
      ss += d * d;
    }
    const rs = 1 / Math.sqrt(ss / dim + eps);
    mean[r] = mu;
    rstd[r] = rs;
    for (let i = 0; i < dim; i++) y[o + i] = (x[o + i] - mu) * rs * gamma[i] + beta[i];
  }
  return { y, mean, rstd };
}

export interface LayerNormBackward {
  dx: Float32Array;
  dgamma: Float32Array;
  dbeta: Float32Array;
}

export function layerNormBackward(
  dy: Float32Array,
  x: Float32Array,
  gamma: Float32Array,
  mean: Float32Array,
  rstd: Float32Array,
  rows: number,
  dim: number,
): LayerNormBackward {
  const dx = new Float32Array(rows * dim);
  const dgamma = new Float64Array(dim);
  const dbeta = new Float64Array(dim);
  for (let r = 0; r < rows; r++) {
    const o = r * dim;
    const mu = mean[r];
    const rs = rstd[r];
    // dx = rstd * (g - mean(g) - xhat * mean(g * xhat)) with g = dy * gamma
    let sumG = 0;
    let sumGX = 0;
    for (let i = 0; i < dim; i++) {
      const xhat = (x[o + i] - mu) * rs;
      const g = dy[o + i] * gamma[i];
      sumG += g;
      sumGX += g * xhat;
      dgamma[i] += dy[o + i] * xhat;
      dbeta[i] += dy[o + i];
    }
    const mG = sumG / dim;
    const mGX = sumGX / dim;
    for (let i = 0; i < dim; i++) {
      const xhat = (x[o + i] - mu) * rs;
      dx[o + i] = rs * (dy[o + i] * gamma[i] - mG - xhat * mGX);
    }
  }
  return { dx, dgamma: Float32Array.from(dgamma), dbeta: Float32Array.from(dbeta) };
}

const GELU_S = Math.sqrt(2 / Math.PI);
const GELU_C = 0.044715;

/** GELU, tanh approximation (GPT-2): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). */
export function geluForward(x: Float32Array): Float32Array {
  const y = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    y[i] = 0.5 * v * (1 + Math.tanh(GELU_S * (v + GELU_C * v * v * v)));
  }
  return y;
}

export function geluBackward(dy: Float32Array, x: Float32Array): Float32Array {
  const dx = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    const t = Math.tanh(GELU_S * (v + GELU_C * v * v * v));
    const dt = (1 - t * t) * GELU_S * (1 + 3 * GELU_C * v * v);
    dx[i] = dy[i] * (0.5 * (1 + t) + 0.5 * v * dt);
  }
  return dx;
}

export interface AttentionForward {
  /** [B, T, H*Dh] */
  out: Float32Array;
  /** softmax weights [B, H, T, T], zero above the diagonal */
  probs: Float32Array;
}

/** Causal multi-head attention. q, k, v: [B, T, H*Dh], head h is channels h*Dh .. h*Dh+Dh-1. */
export function attentionForward(
  q: Float32Array,
  k: Float32Array,
  v: Float32Array,
  B: number,
  T: number,
  H: number,
  Dh: number,
): AttentionForward {
  const C = H * Dh;
  const scale = 1 / Math.sqrt(Dh);
  const out = new Float32Array(B * T * C);
  const probs = new Float32Array(B * H * T * T);
  const s = new Float64Array(T);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      for (let i = 0; i < T; i++) {
        const qo = (b * T + i) * C + h * Dh;
        let max = -Infinity;
        for (let j = 0; j <= i; j++) {
          const ko = (b * T + j) * C + h * Dh;
          let dot = 0;
          for (let d = 0; d < Dh; d++) dot += q[qo + d] * k[ko + d];
          s[j] = dot * scale;
          if (s[j] > max) max = s[j];
        }
        let z = 0;
        for (let j = 0; j <= i; j++) {
          s[j] = Math.exp(s[j] - max);
          z += s[j];
        }
        const po = ((b * H + h) * T + i) * T;
        for (let j = 0; j <= i; j++) probs[po + j] = s[j] / z;
        for (let d = 0; d < Dh; d++) {
          let acc = 0;
          for (let j = 0; j <= i; j++) acc += (s[j] / z) * v[(b * T + j) * C + h * Dh + d];
          out[qo + d] = acc;
        }
      }
    }
  }
  return { out, probs };
}

export interface AttentionBackward {
  dq: Float32Array;
  dk: Float32Array;
  dv: Float32Array;
}

export function attentionBackward(
  dout: Float32Array,
  q: Float32Array,
  k: Float32Array,
  v: Float32Array,
  probs: Float32Array,
  B: number,
  T: number,
  H: number,
  Dh: number,
): AttentionBackward {
  const C = H * Dh;
  const scale = 1 / Math.sqrt(Dh);
  const dq = new Float64Array(B * T * C);
  const dk = new Float64Array(B * T * C);
  const dv = new Float64Array(B * T * C);
  const dp = new Float64Array(T);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      for (let i = 0; i < T; i++) {
        const io = (b * T + i) * C + h * Dh;
        const po = ((b * H + h) * T + i) * T;
        // dP[i, j] = dout[i] . v[j]; dV[j] += P[i, j] dout[i]
        let rowDot = 0;
        for (let j = 0; j <= i; j++) {
          const jo = (b * T + j) * C + h * Dh;
          const p = probs[po + j];
          let dot = 0;
          for (let d = 0; d < Dh; d++) {
            dot += dout[io + d] * v[jo + d];
            dv[jo + d] += p * dout[io + d];
          }
          dp[j] = dot;
          rowDot += p * dot;
        }
        // softmax backward: dS = P (dP - sum_j P dP), then through the scaled dot product
        for (let j = 0; j <= i; j++) {
          const jo = (b * T + j) * C + h * Dh;
          const ds = probs[po + j] * (dp[j] - rowDot) * scale;
          for (let d = 0; d < Dh; d++) {
            dq[io + d] += ds * k[jo + d];
            dk[jo + d] += ds * q[io + d];
          }
        }
      }
    }
  }
  return { dq: Float32Array.from(dq), dk: Float32Array.from(dk), dv: Float32Array.from(dv) };
}

/** x[b, t] = wte[tokens[b, t]] + wpe[t]; wte: [V, C], wpe: [>=T, C]. */
export function embeddingForward(
  tokens: Int32Array,
  wte: Float32Array,
  wpe: Float32Array,
  B: number,
  T: number,
  C: number,
): Float32Array {
  const x = new Float32Array(B * T * C);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const tok = tokens[b * T + t];
      const o = (b * T + t) * C;
      for (let c = 0; c < C; c++) x[o + c] = wte[tok * C + c] + wpe[t * C + c];
    }
  }
  return x;
}

export interface EmbeddingBackward {
  /** [V, C] */
  dwte: Float32Array;
  /** [T, C] */
  dwpe: Float32Array;
}

export function embeddingBackward(
  dx: Float32Array,
  tokens: Int32Array,
  B: number,
  T: number,
  C: number,
  V: number,
): EmbeddingBackward {
  const dwte = new Float64Array(V * C);
  const dwpe = new Float64Array(T * C);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const tok = tokens[b * T + t];
      const o = (b * T + t) * C;
      for (let c = 0; c < C; c++) {
        dwte[tok * C + c] += dx[o + c];
        dwpe[t * C + c] += dx[o + c];
      }
    }
  }
  return { dwte: Float32Array.from(dwte), dwpe: Float32Array.from(dwpe) };
}

export interface CrossEntropyForward {
  /** per row log p(target), [rows] */
  logprobs: Float32Array;
  /** per row log-sum-exp of the logits, [rows] */
  lse: Float32Array;
}

export function crossEntropyForward(
  logits: Float32Array,
  targets: Int32Array,
  rows: number,
  V: number,
): CrossEntropyForward {
  const logprobs = new Float32Array(rows);
  const lse = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    const o = r * V;
    let max = -Infinity;
    for (let i = 0; i < V; i++) if (logits[o + i] > max) max = logits[o + i];
    let z = 0;
    for (let i = 0; i < V; i++) z += Math.exp(logits[o + i] - max);
    const l = max + Math.log(z);
    lse[r] = l;
    logprobs[r] = logits[o + targets[r]] - l;
  }
  return { logprobs, lse };
}

/** Gradient of sum_r dlogp[r] * logp[r] with respect to the logits: dlogp[r] * (onehot - softmax). */
export function crossEntropyBackward(
  dlogp: Float32Array,
  logits: Float32Array,
  targets: Int32Array,
  lse: Float32Array,
  rows: number,
  V: number,
): Float32Array {
  const dlogits = new Float32Array(rows * V);
  for (let r = 0; r < rows; r++) {
    const o = r * V;
    const g = dlogp[r];
    for (let i = 0; i < V; i++) {
      const p = Math.exp(logits[o + i] - lse[r]);
      dlogits[o + i] = g * ((i === targets[r] ? 1 : 0) - p);
    }
  }
  return dlogits;
}

export interface AdamWConfig {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

/**
 * One AdamW step in place (step counts from 1). Weight decay is decoupled: it shrinks the
 * parameter directly, p -= lr * wd * p, instead of entering the moment estimates.
 */
export function adamwStep(
  params: Float32Array,
  grads: Float32Array,
  m: Float32Array,
  v: Float32Array,
  step: number,
  cfg: AdamWConfig,
): void {
  const { lr, beta1, beta2, eps, weightDecay } = cfg;
  const bc1 = 1 - Math.pow(beta1, step);
  const bc2 = 1 - Math.pow(beta2, step);
  for (let i = 0; i < params.length; i++) {
    const g = grads[i];
    const mi = beta1 * m[i] + (1 - beta1) * g;
    const vi = beta2 * v[i] + (1 - beta2) * g * g;
    m[i] = mi;
    v[i] = vi;
    const p = params[i];
    params[i] = p - lr * (mi / bc1 / (Math.sqrt(vi / bc2) + eps) + weightDecay * p);
  }
}

/** L2 norm over all gradient tensors together. */
export function globalNorm(grads: Float32Array | readonly Float32Array[]): number {
  const list = grads instanceof Float32Array ? [grads] : grads;
  let ss = 0;
  for (const g of list) for (let i = 0; i < g.length; i++) ss += g[i] * g[i];
  return Math.sqrt(ss);
}

/** Rescales gradients in place so that their global norm is at most maxNorm; returns the factor used (<= 1). */
export function clipByGlobalNorm(grads: Float32Array | readonly Float32Array[], maxNorm: number): number {
  const norm = globalNorm(grads);
  const scale = norm > maxNorm ? maxNorm / norm : 1;
  if (scale < 1) {
    const list = grads instanceof Float32Array ? [grads] : grads;
    for (const g of list) for (let i = 0; i < g.length; i++) g[i] *= scale;
  }
  return scale;
}

/** Adds a bias to every row of x [rows, n] in place. */
export function addBias(x: Float32Array, bias: Float32Array, rows: number, n: number): void {
  for (let r = 0; r < rows; r++) {
    const o = r * n;
    for (let j = 0; j < n; j++) x[o + j] += bias[j];
  }
}

/** Sums the rows of dy [rows, n] into acc [n]. */
export function addColumnSums(acc: Float32Array, dy: Float32Array, rows: number, n: number): void {
  const s = new Float64Array(n);
  for (let r = 0; r < rows; r++) {
    const o = r * n;
    for (let j = 0; j < n; j++) s[j] += dy[o + j];
  }
  for (let j = 0; j < n; j++) acc[j] += s[j];
}

/** a + b elementwise (the residual stream). */
export function add(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] + b[i];
  return out;
}
