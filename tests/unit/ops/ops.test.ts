import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  adamwStep,
  attentionBackward,
  attentionForward,
  clipByGlobalNorm,
  crossEntropyBackward,
  crossEntropyForward,
  embeddingBackward,
  embeddingForward,
  geluBackward,
  geluForward,
  globalNorm,
  layerNormBackward,
  layerNormForward,
  matmul,
} from '../../../src/model/ops/reference-ops.ts';
import { closeness, randomTensor, randomTokens, seededRandom } from './random.ts';

/** sum_i w[i] * y[i] in float64. */
function dot(w: Float32Array, y: Float32Array): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += w[i] * y[i];
  return s;
}

/**
 * Central finite differences of loss() with respect to every element of x (perturbed in place).
 * Float32 outputs limit the accuracy, so h is fairly large and the comparison tolerant.
 */
function numericGrad(x: Float32Array, loss: () => number, h = 1e-2): Float32Array {
  const g = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const old = x[i];
    x[i] = old + h;
    const lp = loss();
    x[i] = old - h;
    const lm = loss();
    x[i] = old;
    g[i] = (lp - lm) / (2 * h);
  }
  return g;
}

function expectClose(a: Float32Array, b: Float32Array, atol = 2e-3, rtol = 2e-2): void {
  expect(closeness(a, b, atol, rtol)).toBeLessThanOrEqual(1);
}

describe('matmul', () => {
  it('matches a hand computed product', () => {
    const a = Float32Array.from([1, 2, 3, 4, 5, 6]); // 2x3
    const b = Float32Array.from([7, 8, 9, 10, 11, 12]); // 3x2
    expect(Array.from(matmul(a, b, 2, 3, 2))).toEqual([58, 64, 139, 154]);
  });

  it('transposed storage gives the same product (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 }),
        fc.integer(), (M, K, N, seed) => {
          const rand = seededRandom(seed);
          const a = randomTensor(rand, M * K);
          const b = randomTensor(rand, K * N);
          const aT = new Float32Array(K * M);
          for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) aT[k * M + i] = a[i * K + k];
          const bT = new Float32Array(N * K);
          for (let k = 0; k < K; k++) for (let j = 0; j < N; j++) bT[j * K + k] = b[k * N + j];
          const c = matmul(a, b, M, K, N);
          expectClose(matmul(aT, b, M, K, N, true, false), c, 1e-6, 1e-6);
          expectClose(matmul(a, bT, M, K, N, false, true), c, 1e-6, 1e-6);
          expectClose(matmul(aT, bT, M, K, N, true, true), c, 1e-6, 1e-6);
        }),
      { numRuns: 50 },
    );
  });
});

describe('layer norm', () => {
  it('normalises rows to zero mean and unit variance (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 2, max: 40 }), fc.integer(), (rows, dim, seed) => {
        const rand = seededRandom(seed);
        const x = randomTensor(rand, rows * dim, 3);
        const { y, mean, rstd } = layerNormForward(x, new Float32Array(dim).fill(1), new Float32Array(dim), rows, dim);
        for (let r = 0; r < rows; r++) {
          let s = 0;
          let ss = 0;
          for (let i = 0; i < dim; i++) s += y[r * dim + i];
          for (let i = 0; i < dim; i++) ss += y[r * dim + i] ** 2;
          expect(Math.abs(s / dim)).toBeLessThan(1e-5);
          // eps keeps the variance below 1: exactly var / (var + eps) for the row's own variance
          let m = 0;
          for (let i = 0; i < dim; i++) m += x[r * dim + i] / dim;
          let v = 0;
          for (let i = 0; i < dim; i++) v += (x[r * dim + i] - m) ** 2 / dim;
          expect(ss / dim).toBeLessThanOrEqual(1 + 1e-5);
          expect(Math.abs(ss / dim - v / (v + 1e-5))).toBeLessThan(1e-4);
          expect(Number.isFinite(mean[r]) && rstd[r] > 0).toBe(true);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('backward matches finite differences for x, gamma and beta', () => {
    const rand = seededRandom(1);
    const rows = 3;
    const dim = 7;
    const x = randomTensor(rand, rows * dim, 2);
    const gamma = randomTensor(rand, dim);
    const beta = randomTensor(rand, dim);
    const w = randomTensor(rand, rows * dim);
    const loss = () => dot(w, layerNormForward(x, gamma, beta, rows, dim).y);
    const { mean, rstd } = layerNormForward(x, gamma, beta, rows, dim);
    const { dx, dgamma, dbeta } = layerNormBackward(w, x, gamma, mean, rstd, rows, dim);
    expectClose(dx, numericGrad(x, loss));
    expectClose(dgamma, numericGrad(gamma, loss));
    expectClose(dbeta, numericGrad(beta, loss));
  });
});

describe('gelu', () => {
  it('has the known values of the tanh approximation', () => {
    const y = geluForward(Float32Array.from([0, 1, -1, 3]));
    expect(y[0]).toBe(0);
    expect(y[1]).toBeCloseTo(0.841192, 5);
    expect(y[2]).toBeCloseTo(-0.158808, 5);
    expect(y[3]).toBeCloseTo(2.996363, 5);
  });

  it('backward matches finite differences', () => {
    const rand = seededRandom(2);
    const x = randomTensor(rand, 50, 4);
    const w = randomTensor(rand, 50);
    expectClose(geluBackward(w, x), numericGrad(x, () => dot(w, geluForward(x)), 1e-3));
  });
});

describe('attention', () => {
  const B = 2;
  const T = 5;
  const H = 2;
  const Dh = 3;
  const C = H * Dh;

  it('is causal and its probabilities sum to one', () => {
    const rand = seededRandom(3);
    const q = randomTensor(rand, B * T * C);
    const k = randomTensor(rand, B * T * C);
    const v = randomTensor(rand, B * T * C);
    const { out, probs } = attentionForward(q, k, v, B, T, H, Dh);
    for (let r = 0; r < B * H * T; r++) {
      const i = r % T;
      let s = 0;
      for (let j = 0; j < T; j++) {
        if (j > i) expect(probs[r * T + j]).toBe(0);
        s += probs[r * T + j];
      }
      expect(s).toBeCloseTo(1, 6);
    }
    // the first position only sees itself: out = v
    for (let b = 0; b < B; b++) for (let c = 0; c < C; c++) expect(out[b * T * C + c]).toBeCloseTo(v[b * T * C + c], 6);
    // changing a future key does not change earlier outputs
    const k2 = Float32Array.from(k);
    k2[(T - 1) * C] += 5;
    const out2 = attentionForward(q, k2, v, B, T, H, Dh).out;
    for (let t = 0; t < T - 1; t++) for (let c = 0; c < C; c++) expect(out2[t * C + c]).toBe(out[t * C + c]);
  });

  it('backward matches finite differences for q, k and v', () => {
    const rand = seededRandom(4);
    const q = randomTensor(rand, B * T * C);
    const k = randomTensor(rand, B * T * C);
    const v = randomTensor(rand, B * T * C);
    const w = randomTensor(rand, B * T * C);
    const loss = () => dot(w, attentionForward(q, k, v, B, T, H, Dh).out);
    const { probs } = attentionForward(q, k, v, B, T, H, Dh);
    const { dq, dk, dv } = attentionBackward(w, q, k, v, probs, B, T, H, Dh);
    expectClose(dq, numericGrad(q, loss));
    expectClose(dk, numericGrad(k, loss));
    expectClose(dv, numericGrad(v, loss));
  });
});

describe('embedding', () => {
  it('backward matches finite differences, repeated tokens accumulate', () => {
    const rand = seededRandom(5);
    const B = 2;
    const T = 4;
    const C = 3;
    const V = 5;
    const tokens = Int32Array.from([1, 1, 4, 0, 1, 3, 3, 1]);
    const wte = randomTensor(rand, V * C);
    const wpe = randomTensor(rand, T * C);
    const w = randomTensor(rand, B * T * C);
    const loss = () => dot(w, embeddingForward(tokens, wte, wpe, B, T, C));
    const { dwte, dwpe } = embeddingBackward(w, tokens, B, T, C, V);
    expectClose(dwte, numericGrad(wte, loss));
    expectClose(dwpe, numericGrad(wpe, loss));
    // token 2 never appears
    expect(Array.from(dwte.subarray(2 * C, 3 * C))).toEqual([0, 0, 0]);
  });
});

describe('cross-entropy', () => {
  it('log-probs are log-softmax at the target and stable for huge logits', () => {
    const logits = Float32Array.from([1000, 1000, 0, 0]);
    const { logprobs, lse } = crossEntropyForward(logits, Int32Array.from([0, 1]), 2, 2);
    expect(logprobs[0]).toBeCloseTo(Math.log(0.5), 5);
    expect(lse[0]).toBeCloseTo(1000 + Math.log(2), 3);
    expect(logprobs[1]).toBeCloseTo(Math.log(0.5), 6);
  });

  it('backward matches finite differences', () => {
    const rand = seededRandom(6);
    const rows = 4;
    const V = 9;
    const logits = randomTensor(rand, rows * V, 3);
    const targets = randomTokens(rand, rows, V);
    const dlogp = randomTensor(rand, rows);
    const loss = () => dot(dlogp, crossEntropyForward(logits, targets, rows, V).logprobs);
    const { lse } = crossEntropyForward(logits, targets, rows, V);
    expectClose(crossEntropyBackward(dlogp, logits, targets, lse, rows, V), numericGrad(logits, loss, 1e-3));
  });
});

describe('AdamW and clipping', () => {
  it('first step moves each parameter by lr * sign(g) plus decoupled decay', () => {
    const params = Float32Array.from([1, -2, 0.5]);
    const grads = Float32Array.from([0.3, -4, 0]);
    const m = new Float32Array(3);
    const v = new Float32Array(3);
    const cfg = { lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01 };
    adamwStep(params, grads, m, v, 1, cfg);
    // bias correction makes mhat = g, vhat = g^2 at step 1
    expect(params[0]).toBeCloseTo(1 - 0.1 * (1 + 0.01 * 1), 5);
    expect(params[1]).toBeCloseTo(-2 - 0.1 * (-1 + 0.01 * -2), 5);
    expect(params[2]).toBeCloseTo(0.5 - 0.1 * 0.01 * 0.5, 6);
    expect(m[0]).toBeCloseTo(0.03, 7);
    expect(v[1]).toBeCloseTo(0.016, 7);
  });

  it('matches a float64 re-derivation over several steps', () => {
    const rand = seededRandom(7);
    const n = 20;
    const p = randomTensor(rand, n);
    const p64 = Float64Array.from(p);
    const m = new Float32Array(n);
    const v = new Float32Array(n);
    const m64 = new Float64Array(n);
    const v64 = new Float64Array(n);
    const cfg = { lr: 1e-2, beta1: 0.8, beta2: 0.95, eps: 1e-6, weightDecay: 0.1 };
    for (let step = 1; step <= 5; step++) {
      const g = randomTensor(rand, n);
      adamwStep(p, g, m, v, step, cfg);
      for (let i = 0; i < n; i++) {
        m64[i] = 0.8 * m64[i] + 0.2 * g[i];
        v64[i] = 0.95 * v64[i] + 0.05 * g[i] * g[i];
        const mh = m64[i] / (1 - 0.8 ** step);
        const vh = v64[i] / (1 - 0.95 ** step);
        p64[i] = p64[i] * (1 - 1e-2 * 0.1) - 1e-2 * mh / (Math.sqrt(vh) + 1e-6);
      }
    }
    expectClose(p, Float32Array.from(p64), 1e-6, 1e-5);
  });

  it('clipping bounds the global norm and keeps small gradients (property)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ min: 0.01, max: 10, noNaN: true }), (seed, maxNorm) => {
        const rand = seededRandom(seed);
        const grads = [randomTensor(rand, 5, 3), randomTensor(rand, 3, 3)];
        const before = globalNorm(grads);
        const copy = grads.map((g) => Float32Array.from(g));
        const scale = clipByGlobalNorm(grads, maxNorm);
        const after = globalNorm(grads);
        if (before <= maxNorm) {
          expect(scale).toBe(1);
          expect(grads).toEqual(copy);
        } else {
          expect(scale).toBeCloseTo(maxNorm / before, 10);
          expect(after).toBeCloseTo(maxNorm, 4);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('global norm is the L2 norm across tensors', () => {
    expect(globalNorm([Float32Array.from([3]), Float32Array.from([4])])).toBe(5);
    expect(globalNorm(Float32Array.from([6, 8]))).toBe(10);
  });
});
