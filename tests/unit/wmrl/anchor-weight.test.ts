// The authors' denoising (wmrl/denoise.py) as we rebuilt it: one weight on anchor advantages.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { anchorWeight, AUTHORS_ANCHOR_WEIGHT, groupDisagreement, initialAnchorWeightState, observeDisagreement } from '../../../src/wmrl/anchor-weight.ts';

const config = { halfLife: 8, warmup: 4, target: 2, max: 4 };

describe('group disagreement', () => {
  it('is the centred squared error over the variance of y', () => {
    // d - mean d = [-0.1, 0.1]; y - mean y = [-0.5, 0.5]; errors 0.4^2 each; var y = 0.25
    expect(groupDisagreement([0.4, 0.6], [0, 1])).toBeCloseTo(0.16 / 0.25, 12);
  });

  it('is blind to a constant offset of d (GRPO sees only differences)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 2, maxLength: 8 }), fc.double({ min: -1, max: 1, noNaN: true }), (pairs, offset) => {
        const d = pairs.map((p) => p[0]);
        const y = pairs.map((p) => p[1]);
        const a = groupDisagreement(d, y);
        const b = groupDisagreement(d.map((v) => v + offset), y);
        if (a === null) expect(b).toBeNull();
        else expect(b).toBeCloseTo(a, 6);
      }),
    );
  });

  it('is null for a group whose real rewards do not vary, or of one program', () => {
    expect(groupDisagreement([0.1, 0.9, 0.5], [0.1, 0.1, 0.1])).toBeNull();
    expect(groupDisagreement([0.3], [0.7])).toBeNull();
  });
});

describe('the anchor weight', () => {
  it('is exactly 1 before warm-up, and exactly the target when the scale freezes', () => {
    let s = initialAnchorWeightState();
    for (let k = 0; k < config.warmup - 1; k++) {
      s = observeDisagreement(s, 0.3 + 0.1 * k, config);
      expect(anchorWeight(s, config)).toBe(1);
      expect(s.c).toBeNull();
    }
    s = observeDisagreement(s, 0.9, config);
    expect(s.c).not.toBeNull();
    expect(anchorWeight(s, config)).toBeCloseTo(config.target, 12);
  });

  it('follows the running disagreement after the freeze, clipped to [1, max]', () => {
    let s = initialAnchorWeightState();
    for (let k = 0; k < config.warmup; k++) s = observeDisagreement(s, 0.5, config);
    const c = s.c!;
    const up = observeDisagreement(s, 5, config);
    expect(up.c).toBe(c); // frozen
    expect(anchorWeight(up, config)).toBeCloseTo(Math.min(config.max, 1 + c * up.disagreement!), 12);
    let down = s;
    for (let k = 0; k < 100; k++) down = observeDisagreement(down, 0, config);
    expect(anchorWeight(down, config)).toBeGreaterThanOrEqual(1);
    expect(anchorWeight(down, config)).toBeLessThan(1.01);
    let high = s;
    for (let k = 0; k < 100; k++) high = observeDisagreement(high, 50, config);
    expect(anchorWeight(high, config)).toBe(config.max);
  });

  it('folds with a half-life counted in groups', () => {
    let s = observeDisagreement(initialAnchorWeightState(), 1, config);
    expect(s.disagreement).toBe(1); // the first group sets the estimate
    for (let k = 0; k < config.halfLife; k++) s = observeDisagreement(s, 0, config);
    expect(s.disagreement).toBeCloseTo(0.5, 12);
  });

  it('is blind to the level of disagreement: scaling every group\'s eta^2 by k leaves every weight as it was', () => {
    // The frozen scale c = (target - 1) / D divides the level out, so a world model that disagrees with the
    // anchors k times more from the start gets the same weights: w follows how disagreement moves, not its size.
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.01, max: 10, noNaN: true }), { minLength: config.warmup, maxLength: 30 }), fc.double({ min: 0.1, max: 100, noNaN: true }), (etas, k) => {
        let a = initialAnchorWeightState();
        let b = initialAnchorWeightState();
        for (const eta2 of etas) {
          a = observeDisagreement(a, eta2, config);
          b = observeDisagreement(b, k * eta2, config);
          expect(anchorWeight(b, config)).toBeCloseTo(anchorWeight(a, config), 9);
        }
      }),
    );
  });

  it("with the authors' constants, 20 anchor groups never leave weight 1", () => {
    let s = initialAnchorWeightState();
    for (let k = 0; k < 20; k++) s = observeDisagreement(s, 0.7, AUTHORS_ANCHOR_WEIGHT);
    expect(anchorWeight(s, AUTHORS_ANCHOR_WEIGHT)).toBe(1);
  });
});
