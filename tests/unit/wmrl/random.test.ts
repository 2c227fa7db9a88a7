import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deriveSeed, mulberry32, normal, randomInt, sampleIndices, shuffleInPlace } from '../../../src/primitives/random.ts';

describe('seeded random', () => {
  it('mulberry32 is reproducible, in [0, 1), and roughly uniform', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 20000 }, () => a());
    expect(xs.slice(0, 50)).toEqual(Array.from({ length: 50 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
    expect(mulberry32(43)()).not.toBe(mulberry32(42)());
  });

  it('deriveSeed separates (seed, step) pairs', () => {
    const seen = new Set<number>();
    for (let seed = 0; seed < 20; seed++) for (let step = 0; step < 50; step++) seen.add(deriveSeed(seed, step));
    expect(seen.size).toBe(1000);
    expect(deriveSeed(1, 2)).not.toBe(deriveSeed(2, 1));
    expect(deriveSeed(2 ** 40, 0)).not.toBe(deriveSeed(0, 0));
    expect(() => deriveSeed(0.5)).toThrow(RangeError);
  });

  it('sampleIndices draws k distinct sorted indices; shuffle is a permutation', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 50 }), fc.double({ min: 0, max: 1, noNaN: true }), (seed, n, f) => {
        const k = Math.floor(f * n);
        const idx = sampleIndices(mulberry32(seed), n, k);
        expect(idx).toHaveLength(k);
        expect(new Set(idx).size).toBe(k);
        for (let i = 1; i < k; i++) expect(idx[i]).toBeGreaterThan(idx[i - 1]);
        for (const i of idx) expect(i >= 0 && i < n).toBe(true);
        const perm = shuffleInPlace(mulberry32(seed), Array.from({ length: n }, (_, i) => i));
        expect([...perm].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
      }),
    );
    expect(() => sampleIndices(mulberry32(0), 3, 4)).toThrow(RangeError);
    expect(() => randomInt(mulberry32(0), 0)).toThrow(RangeError);
  });

  it('normal has mean 0 and variance 1', () => {
    const rng = mulberry32(9);
    const xs = Array.from({ length: 40000 }, () => normal(rng));
    const m = xs.reduce((s, x) => s + x, 0) / xs.length;
    const v = xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length;
    expect(Math.abs(m)).toBeLessThan(0.03);
    expect(Math.abs(v - 1)).toBeLessThan(0.05);
  });
});
