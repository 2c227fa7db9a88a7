// How a step's rollouts weigh in the RL loss: exact weights for both normalisations, the property that
// per-rollout gives every rollout its coefficient / (number of rollouts) in all whatever its length,
// and that 'constant' is the token budget the loop used before the switch.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rolloutLossWeights } from '../../../src/embodied/rollout-loss-weights.ts';

describe('rollout loss weights', () => {
  // A success of 30 steps and a failure of the whole horizon (96), advantages +1 and -1.
  const coefficients = [1, -1, 0.5, 0];
  const lengths = [30, 96, 48, 60];

  it("'constant': every step carries its rollout's coefficient, Z = rollouts x horizon", () => {
    const w = rolloutLossWeights(coefficients, lengths, 96, 'constant');
    expect(w.stepWeight).toEqual([1, -1, 0.5, 0]);
    expect(w.normalizer).toBe(4 * 96);
    // the length bias: the failure's total weight is 96 / 30 = 3.2 times the success's
    expect((lengths[1] * Math.abs(w.stepWeight[1])) / (lengths[0] * w.stepWeight[0])).toBeCloseTo(3.2, 12);
  });

  it("'per-rollout': every step carries coefficient / length, Z = rollouts", () => {
    const w = rolloutLossWeights(coefficients, lengths, 96, 'per-rollout');
    expect(w.stepWeight).toEqual([1 / 30, -1 / 96, 0.5 / 48, 0]);
    expect(w.normalizer).toBe(4);
    // a rollout of the whole horizon weighs exactly as under 'constant'
    const c = rolloutLossWeights(coefficients, lengths, 96, 'constant');
    expect(w.stepWeight[1] / w.normalizer).toBe(c.stepWeight[1] / c.normalizer);
  });

  it("'per-rollout' gives each rollout its coefficient / rollouts in all, whatever its length", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 96 }).chain((horizon) =>
          fc.array(fc.tuple(fc.double({ min: -5, max: 5, noNaN: true }), fc.integer({ min: 1, max: horizon })), { minLength: 1, maxLength: 40 }).map((rs) => ({ horizon, rs })),
        ),
        ({ horizon, rs }) => {
          const w = rolloutLossWeights(rs.map((r) => r[0]), rs.map((r) => r[1]), horizon, 'per-rollout');
          rs.forEach(([c, n], k) => expect((n * w.stepWeight[k]) / w.normalizer).toBeCloseTo(c / rs.length, 12));
        },
      ),
    );
  });

  it('a rollout that took no action weighs 0; bad input is refused with a clear message', () => {
    expect(rolloutLossWeights([2, 1], [0, 5], 10, 'per-rollout').stepWeight).toEqual([0, 0.2]);
    expect(() => rolloutLossWeights([1], [1, 2], 10, 'constant')).toThrow(/1 coefficients for 2 rollouts/);
    expect(() => rolloutLossWeights([1], [11], 10, 'per-rollout')).toThrow(/integer in \[0, 10\], got 11/);
    expect(() => rolloutLossWeights([], [], 10, 'constant')).toThrow(/no rollouts/);
    expect(() => rolloutLossWeights([1], [1], 10, 'sum' as never)).toThrow(/must be one of constant, per-rollout, got sum/);
  });
});
