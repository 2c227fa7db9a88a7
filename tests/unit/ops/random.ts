// Seeded test data: every random tensor in the op tests comes from here so failures reproduce.

import { mulberry32 } from '../../../src/primitives/random.ts';

/** The project's generator (mulberry32) under the name the op tests use. Returns floats in [0, 1). */
export const seededRandom = mulberry32;

/** Uniform values in [-scale, scale). */
export function randomTensor(rand: () => number, n: number, scale = 1): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = (rand() * 2 - 1) * scale;
  return a;
}

export function randomTokens(rand: () => number, n: number, vocab: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = Math.floor(rand() * vocab);
  return a;
}

/** Largest |a - b| / (atol + rtol |b|); <= 1 means within tolerance. */
export function closeness(a: Float32Array, b: Float32Array, atol: number, rtol: number): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} != ${b.length}`);
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const r = Math.abs(a[i] - b[i]) / (atol + rtol * Math.abs(b[i]));
    if (!(r <= worst)) worst = Number.isNaN(r) ? Infinity : Math.max(worst, r);
  }
  return worst;
}
