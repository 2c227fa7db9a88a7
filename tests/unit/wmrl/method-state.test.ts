import { describe, expect, it } from 'vitest';
import { MethodState, type MethodConfig, type MethodSnapshot } from '../../../src/wmrl/step.ts';
import { mulberry32, normal, type Rng } from '../../../src/primitives/random.ts';

const base: MethodConfig = { rho: 0.25, seed: 5, advantageMode: 'mean', debias: true, fusion: { mode: 'ivw' }, halfLife: 50 };

/** Runs `steps` steps of B groups of n programs with a synthetic world model s = wmOf(y). */
function simulate(config: MethodConfig, wmOf: (y: number, rng: Rng) => number, steps: number, B = 8, n = 4) {
  const rng = mulberry32(config.seed + 1000);
  const method = new MethodState(config);
  const results = [];
  for (let t = 0; t < steps; t++) {
    const plan = method.plan(B);
    const ys = Array.from({ length: B }, () => Array.from({ length: n }, () => rng()));
    const s = ys.map((g) => g.map((y) => wmOf(y, rng)));
    results.push({ ...method.score(s, ys.map((g, k) => (plan.isAnchor[k] ? g : null))), isAnchor: plan.isAnchor });
  }
  return { method, results };
}

describe('MethodState', () => {
  it('keeps the anchor accumulator, calibrator pairs and step numbers in step', () => {
    const { method, results } = simulate(base, (y) => y, 12);
    expect(method.groupsSoFar).toBe(96);
    expect(method.anchorsSoFar).toBe(Math.round(0.25 * 96));
    expect(results[11].calibrationPairs).toBe(method.anchorsSoFar * 4);
    expect(results.map((r) => r.step)).toEqual([...Array(12).keys()]);
  });

  it('scores a step with the calibrator from earlier steps, then refits on its anchors', () => {
    // World model reads y as y^2 / 2: biased low. Step 0 has no earlier anchors, so identity.
    const { method, results } = simulate(base, (y) => (y * y) / 2, 40);
    const first = results[0];
    expect(first.isAnchor.some(Boolean)).toBe(true);
    first.isAnchor.forEach((a, k) => {
      // On anchors rewards are y; at step 0 the world-model reward is the raw s = y^2 / 2 (identity g).
      if (a) first.rewards[k].forEach((y, i) => expect(first.wmRewards[k][i]).toBeCloseTo((y * y) / 2, 12));
    });
    // After 40 steps of anchors the calibrator maps s back to y.
    for (const y of [0.2, 0.5, 0.8]) expect(method.calibrate((y * y) / 2)).toBeCloseTo(y, 1);
    expect(results[39].knots.x.length).toBeGreaterThan(3);
    // Debiasing lowers the world-model stream's error on anchors: compare with debiasing off.
    const off = simulate({ ...base, debias: false }, (y) => (y * y) / 2, 40);
    expect(results[39].diagnostics.r ?? 1).toBeLessThan((off.results[39].diagnostics.r ?? 0) / 2);
  });

  it('a step uses exactly the calibration fitted through the previous step', () => {
    const m = new MethodState({ ...base, rho: 1 });
    m.plan(2);
    m.score([[0.1, 0.3], [0.2, 0.6]], [[0.3, 0.5], [0.1, 0.9]]);
    const expected = [0.15, 0.25, 0.4].map((v) => m.calibrate(v));
    const plan = m.plan(2);
    const out = m.score([[0.15, 0.25], [0.4, 0.4]], plan.isAnchor.map((a) => (a ? [0, 1] : null)));
    expect(out.wmRewards[0]).toEqual([expected[0], expected[1]]);
    expect(out.wmRewards[1]).toEqual([expected[2], expected[2]]);
    expect(m.calibrate(0.15)).not.toBe(expected[0]); // refitted after step 1 with its pairs
  });

  it('falls back toward the anchors when the score is not readable from the program', () => {
    const meanWa = (wmOf: (y: number, rng: Rng) => number) => {
      const { results } = simulate({ ...base, rho: 0.1, seed: 9 }, wmOf, 150, 16);
      const late = results.slice(50).map((r) => r.diagnostics.wA);
      return late.reduce((a, b) => a + b, 0) / late.length;
    };
    const readable = meanWa((y, rng) => y + 0.05 * normal(rng));
    const unreadable = meanWa((_, rng) => rng());
    expect(unreadable).toBeGreaterThan(readable + 0.2);
  });

  it('tracks bias: high for a flattening world model without debiasing, low with it', () => {
    const flatten = (y: number, rng: Rng) => 0.4 + 0.1 * y + 0.01 * normal(rng);
    const on = simulate(base, flatten, 60).results[59].theory;
    const off = simulate({ ...base, debias: false }, flatten, 60).results[59].theory;
    expect(off.biasSlope).toBeLessThan(-0.7);
    expect(Math.abs(on.biasSlope ?? 1)).toBeLessThan(0.3);
  });

  it('resumes from a JSON snapshot exactly where it left off', () => {
    const cfg: MethodConfig = { ...base, fusion: { mode: 'ppi' } };
    const rng = mulberry32(8);
    const step = (m: MethodState, ys: number[][]) => {
      const plan = m.plan(ys.length);
      return m.score(ys.map((g) => g.map((y) => y * 0.8 + 0.1)), ys.map((g, k) => (plan.isAnchor[k] ? g : null)));
    };
    const batch = () => Array.from({ length: 6 }, () => [rng(), rng(), rng()]);
    const a = new MethodState(cfg);
    for (let t = 0; t < 10; t++) step(a, batch());
    const b = MethodState.restore(JSON.parse(JSON.stringify(a.snapshot())) as MethodSnapshot);
    const infinite = MethodState.restore(JSON.parse(JSON.stringify(new MethodState({ ...cfg, halfLife: undefined }).snapshot())) as MethodSnapshot);
    expect(infinite.calibrate(0.3)).toBe(0.3);
    for (let t = 0; t < 10; t++) {
      const ys = batch();
      expect(step(b, ys)).toEqual(step(a, ys));
    }
    a.plan(2);
    expect(() => a.snapshot()).toThrow();
  });

  it('insists on plan before score, once each, and on real scores exactly for the anchors', () => {
    const m = new MethodState(base);
    expect(() => m.score([], [])).toThrow();
    const plan = m.plan(4);
    expect(() => m.plan(4)).toThrow();
    const s = [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8]];
    const wrong = plan.isAnchor.map((a) => (a ? null : [0.5, 0.5]));
    expect(() => m.score(s, wrong)).toThrow(RangeError);
    const right = plan.isAnchor.map((a) => (a ? [0.5, 0.6] : null));
    expect(m.score(s, right).step).toBe(0);
  });

  it('takes calibration-only outcomes on world-model groups into the calibrator and nowhere else', () => {
    const cfg: MethodConfig = { rho: 0.5, seed: 3, advantageMode: 'mean', debias: true, fusion: { mode: 'none' } };
    const a = new MethodState(cfg);
    const b = new MethodState(cfg);
    const plan = a.plan(4);
    b.plan(4);
    const s = [[0.1, 0.9], [0.2, 0.8], [0.3, 0.7], [0.4, 0.6]];
    const y = plan.isAnchor.map((x) => (x ? [0, 1] : null));
    const extra = plan.isAnchor.map((x) => (x ? null : [1, 0]));
    const with_ = a.score(s, y, undefined, extra);
    const without = b.score(s, y);
    // this step's rewards and coefficients are the same (the step is scored with the earlier fit) ...
    expect(with_.coefficients).toEqual(without.coefficients);
    // ... and the calibrator saw every group's pairs
    expect([with_.calibrationPairs, without.calibrationPairs]).toEqual([8, 4]);
    const c = new MethodState(cfg);
    const p2 = c.plan(4);
    expect(() => c.score(s, y, undefined, p2.isAnchor.map(() => [1, 0]))).toThrow(/anchor group/);
  });
});

