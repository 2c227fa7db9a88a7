import { describe, expect, it } from 'vitest';
import { groupAdvantages } from '../../../src/wmrl/advantages.ts';
import { fuseStreams, initialFusionState } from '../../../src/wmrl/fusion.ts';
import { mulberry32, normal, type Rng } from '../../../src/primitives/random.ts';
import { BiasNoiseTracker } from '../../../src/wmrl/theory.ts';

/** Feeds `steps` steps of two anchor groups of four, world-model scores made from real ones by `wmOf`. */
function track(wmOf: (y: number, rng: Rng) => number, seed: number, steps = 300) {
  const rng = mulberry32(seed);
  const tracker = new BiasNoiseTracker();
  let fusion = initialFusionState();
  for (let t = 0; t < steps; t++) {
    const ys = [0, 1].map(() => [rng(), rng(), rng(), rng()]);
    const real = ys.map((g) => groupAdvantages(g, 'mean'));
    const wm = ys.map((g) => groupAdvantages(g.map((y) => wmOf(y, rng)), 'mean'));
    tracker.update(wm, real);
    fusion = fuseStreams(
      wm.map((w, k) => ({ wm: w, real: real[k] })),
      fusion,
      { mode: 'ivw' },
    ).state;
  }
  return { estimate: tracker.estimate(fusion.r), r: fusion.r };
}

describe('BiasNoiseTracker', () => {
  it('reports nothing before any anchor', () => {
    const e = new BiasNoiseTracker().estimate(null);
    expect(e).toEqual({ steps: 0, pairs: 0, meanError: null, errorRealCorrelation: null, biasSlope: null, noise: null });
  });

  it('detects a world model that flattens the real differences', () => {
    const { estimate } = track((y, rng) => 0.2 * y + 0.05 * normal(rng), 1);
    expect(estimate.steps).toBe(300);
    expect(estimate.pairs).toBe(2400);
    expect(Math.abs(estimate.meanError ?? 1)).toBeLessThan(1e-12);
    expect(estimate.errorRealCorrelation).toBeLessThan(-0.8);
    expect(estimate.biasSlope).toBeLessThan(-0.6);
    expect(estimate.biasSlope).toBeGreaterThan(-1);
  });

  it('detects an inverted world model as the strongest bias', () => {
    const { estimate } = track((y) => 1 - y, 2);
    expect(estimate.biasSlope).toBeCloseTo(-2, 6);
    expect(estimate.errorRealCorrelation).toBeCloseTo(-1, 6);
  });

  it('finds bias near zero for an unbiased noisy world model, with the noise read from fusion\'s r', () => {
    const { estimate, r } = track((y, rng) => y + 0.2 * normal(rng), 3);
    expect(Math.abs(estimate.errorRealCorrelation ?? 1)).toBeLessThan(0.25);
    expect(Math.abs(estimate.biasSlope ?? 1)).toBeLessThan(0.25);
    // Centred noise of variance 0.04 within a group of four keeps 3/4 of it: E[e^2] ~ 0.03.
    expect(estimate.noise).toBeGreaterThan(0.015);
    expect(estimate.noise).toBeLessThan(0.05);
    expect(estimate.noise).toBe(r);
  });

  it('reports zero bias and zero noise for a perfect world model', () => {
    const { estimate } = track((y) => y, 4, 20);
    expect(estimate.biasSlope).toBe(0);
    expect(estimate.noise).toBe(0);
  });

  it('rejects mismatched inputs', () => {
    const t = new BiasNoiseTracker();
    expect(() => t.update([[0.1, -0.1]], [])).toThrow(RangeError);
    expect(() => t.update([[0.1, -0.1]], [[0.1]])).toThrow(RangeError);
  });
});
