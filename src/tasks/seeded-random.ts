// Seeded pseudo-random numbers for the task suite. Splits must be reproducible from a task id and a
// seed alone, in the browser and in Node, so nothing here touches Math.random.

/** FNV-1a 32-bit hash of a string: turns a task id into part of a seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A generator of uniform floats in [0, 1) (mulberry32: small state, good enough for shuffling). */
export interface SeededRandom {
  next(): number;
}

export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  return {
    next(): number {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** Fisher-Yates shuffle of a copy. */
export function shuffled<T>(items: readonly T[], rng: SeededRandom): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    const tmp = out[i];
    out[i] = out[j];
    out[j] = tmp;
  }
  return out;
}
