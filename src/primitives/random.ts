// Small seeded pseudo-random generators. Every random choice in the project takes one of these, so a
// run is reproducible from its config. Not cryptographic.

/** A generator of uniform floats in [0, 1). */
export type Rng = () => number;

/** mulberry32: 32-bit state, period 2^32, good enough for sampling and shuffles. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** splitmix32 finaliser: a bijective avalanche mix of one 32-bit word. */
function mix32(x: number): number {
  let z = (x + 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * Derives one 32-bit seed from several integers (e.g. run seed and step), so that streams for
 * different (seed, step) pairs are unrelated while each stays a pure function of its inputs.
 */
export function deriveSeed(...parts: number[]): number {
  let h = 0x2545f491;
  for (const p of parts) {
    if (!Number.isInteger(p)) throw new RangeError(`deriveSeed expects integers, got ${p}`);
    // Fold in both 32-bit halves so large integers (up to 2^53) do not collide.
    const lo = p >>> 0;
    const hi = Math.floor(p / 4294967296) >>> 0;
    h = mix32(h ^ lo);
    h = mix32(h ^ hi);
  }
  return h;
}

/** FNV-1a 32-bit hash of a string: turns an id (a task's, for its split) into part of a seed, the same in the browser and Node. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A uniform integer in [0, n). */
export function randomInt(rng: Rng, n: number): number {
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`randomInt needs a positive integer, got ${n}`);
  return Math.floor(rng() * n);
}

/** Fisher-Yates shuffle, in place; returns the same array. */
export function shuffleInPlace<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1);
    const tmp = items[i];
    items[i] = items[j];
    items[j] = tmp;
  }
  return items;
}

/** k distinct indices drawn uniformly from [0, n), returned in ascending order. */
export function sampleIndices(rng: Rng, n: number, k: number): number[] {
  if (!Number.isInteger(k) || k < 0 || k > n) throw new RangeError(`cannot draw ${k} of ${n}`);
  const idx = Array.from({ length: n }, (_, i) => i);
  // Partial Fisher-Yates: the first k slots end up a uniform k-subset.
  for (let i = 0; i < k; i++) {
    const j = i + randomInt(rng, n - i);
    const tmp = idx[i];
    idx[i] = idx[j];
    idx[j] = tmp;
  }
  return idx.slice(0, k).sort((a, b) => a - b);
}

/** A standard normal draw (Box-Muller). */
export function normal(rng: Rng): number {
  // 1 - u keeps the log argument in (0, 1].
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
