import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fitIsotonic } from '../../../src/wmrl/isotonic.ts';
import { pavaStepFunction, simulateDebias, tiedPairFraction, type DebiasConfig } from '../../../src/ui/companion/sim-debias.ts';

const base: DebiasConfig = {
  seed: 11,
  steps: 30,
  groups: 16,
  groupSize: 4,
  rho: 0.1,
  wm: { shape: 'compressed', strength: 1, noise: 0.03, readability: 1 },
};

describe('PAVA step function', () => {
  it('is non-decreasing and agrees with the interpolating fit at the block centres', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 40 }),
        (pairs) => {
          const s = pairs.map((p) => p[0]);
          const y = pairs.map((p) => p[1]);
          const step = pavaStepFunction(s, y);
          for (let i = 1; i < step.blocks.length; i++) expect(step.blocks[i].value).toBeGreaterThanOrEqual(step.blocks[i - 1].value);
          let prev = -Infinity;
          for (let k = 0; k <= 50; k++) {
            const v = step.predict(k / 50);
            expect(v).toBeGreaterThanOrEqual(prev);
            prev = v;
          }
          // Same blocks as the real calibrator: one knot per block, same values.
          const fit = fitIsotonic(s, y);
          expect(fit.knots.y.length).toBe(step.blocks.length);
          fit.knots.y.forEach((v, i) => expect(step.blocks[i].value).toBeCloseTo(v, 9));
        },
      ),
    );
  });
});

describe('debiasing simulation (section 3)', () => {
  it('is deterministic per seed', () => {
    expect(simulateDebias(base)).toEqual(simulateDebias(base));
    expect(simulateDebias({ ...base, seed: 12 }).pairs.s).not.toEqual(simulateDebias(base).pairs.s);
  });

  it('its linear curve is the real isotonic fit of the accumulated pairs', () => {
    const r = simulateDebias(base);
    const fit = fitIsotonic(r.pairs.s, r.pairs.y);
    for (const [x, v] of r.curves.linear) expect(v).toBeCloseTo(fit.predict(x), 12);
    expect(r.pairs.s.length).toBe(r.anchorGroups * base.groupSize);
    expect(r.anchorGroups).toBe(Math.round(base.rho * base.groups * base.steps));
  });

  it('brings rewards closer to the true scores than the raw distorted score', () => {
    const r = simulateDebias({ ...base, steps: 60 });
    expect(r.meanAbsError.linear).toBeLessThan(r.meanAbsError.raw * 0.7);
  });

  it('ties and flattens more groups with the step function than with interpolation, the more so with few pairs', () => {
    for (const seed of [1, 2, 3, 4]) {
      const few = simulateDebias({ ...base, seed, steps: 2 });
      expect(few.zeroSpread.step).toBeGreaterThanOrEqual(few.zeroSpread.linear);
      expect(few.tiedPairs.step).toBeGreaterThan(few.tiedPairs.linear + 0.05);
      const many = simulateDebias({ ...base, seed, steps: 80 });
      expect(many.tiedPairs.step).toBeLessThan(few.tiedPairs.step);
      expect(many.tiedPairs.raw).toBe(0);
    }
  });

  it('counts tied pairs only among programs with different true scores', () => {
    expect(tiedPairFraction([[0.5, 0.5, 0.7]], [[0.1, 0.2, 0.3]])).toBeCloseTo(1 / 3, 12);
    expect(tiedPairFraction([[0.5, 0.5]], [[0.2, 0.2]])).toBe(0);
  });

  it('has the identity as calibrator before any anchor', () => {
    const r = simulateDebias({ ...base, steps: 0 });
    expect(r.pairs.s).toEqual([]);
    for (const [x, v] of r.curves.linear) expect(v).toBe(x);
  });
});
