import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pearson } from '../../../src/pipeline/rank-metrics.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';
import {
  BIAS_SHAPES,
  distort,
  FAILURE_RATE,
  inverseDistort,
  sampleGroup,
  sampleTrueScores,
  worldModelScore,
  type BiasShape,
} from '../../../src/ui/companion/sim-world-model.ts';

const shape = fc.constantFrom(...BIAS_SHAPES.map((s) => s.value));
const unit = fc.double({ min: 0, max: 1, noNaN: true });


describe('synthetic world model', () => {
  it('distorts monotonically for every shape and strength, inside [0, 1]', () => {
    fc.assert(
      fc.property(shape, unit, unit, unit, (sh, k, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(distort(lo, sh, k)).toBeLessThanOrEqual(distort(hi, sh, k) + 1e-12);
        expect(distort(lo, sh, k)).toBeGreaterThanOrEqual(0);
        expect(distort(hi, sh, k)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('strength 0 is the identity whatever the shape', () => {
    fc.assert(fc.property(shape, unit, (sh, y) => {
      expect(distort(y, sh, 0)).toBeCloseTo(y, 12);
    }));
  });

  it('inverseDistort undoes distort', () => {
    fc.assert(
      fc.property(shape, fc.double({ min: 0, max: 0.9, noNaN: true }), unit, (sh, k, y) => {
        expect(inverseDistort(distort(y, sh, k), sh, k)).toBeCloseTo(y, 6);
      }),
    );
  });

  it('scores stay in [0, 1] and are a pure function of the generator state', () => {
    fc.assert(
      fc.property(shape, unit, unit, unit, fc.integer(), (sh, k, noise, readability, seed) => {
        const wm = { shape: sh, strength: k, noise, readability };
        const a = sampleGroup(mulberry32(seed), 6, wm);
        const b = sampleGroup(mulberry32(seed), 6, wm);
        expect(a).toEqual(b);
        for (const v of [...a.s, ...a.y]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('reads the outcome at readability 1 and not at readability 0', () => {
    const rng = mulberry32(7);
    const y = Array.from({ length: 4000 }, () => rng());
    const read = { shape: 'none' as BiasShape, strength: 0, noise: 0.02, readability: 1 };
    const blind = { ...read, readability: 0 };
    const sRead = y.map((v) => worldModelScore(v, read, rng));
    const sBlind = y.map((v) => worldModelScore(v, blind, rng));
    expect(pearson(y, sRead)).toBeGreaterThan(0.95);
    expect(Math.abs(pearson(y, sBlind))).toBeLessThan(0.06);
  });

  it('true scores include failures at about the failure rate', () => {
    const rng = mulberry32(3);
    let zeros = 0;
    let total = 0;
    for (let g = 0; g < 2000; g++) {
      for (const v of sampleTrueScores(rng, 4)) {
        if (v === 0) zeros++;
        total++;
      }
    }
    expect(zeros / total).toBeGreaterThan(FAILURE_RATE * 0.8);
    expect(zeros / total).toBeLessThan(FAILURE_RATE * 1.3);
  });
});
