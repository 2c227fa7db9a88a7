import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { groupAdvantages } from '../../../src/wmrl/advantages.ts';
import { chooseAnchorGroups } from '../../../src/wmrl/anchors.ts';
import { fuseStreams, initialFusionState, type FusionGroup, type FusionState } from '../../../src/wmrl/fusion.ts';
import { mulberry32, normal, type Rng } from '../../../src/primitives/random.ts';

/** A centred group of n advantages. */
const advGroup = (n: number) =>
  fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }).map((r) => groupAdvantages(r, 'mean'));

const mixedStep = fc
  .record({
    n: fc.integer({ min: 2, max: 5 }),
    kA: fc.integer({ min: 1, max: 4 }),
    kW: fc.integer({ min: 1, max: 12 }),
  })
  .chain(({ n, kA, kW }) =>
    fc.record({
      anchors: fc.array(fc.tuple(advGroup(n), advGroup(n)), { minLength: kA, maxLength: kA }),
      wm: fc.array(advGroup(n), { minLength: kW, maxLength: kW }),
    }),
  )
  .map(({ anchors, wm }): FusionGroup[] => [
    ...anchors.map(([real, w]) => ({ real, wm: w })),
    ...wm.map((w) => ({ wm: w, real: null })),
  ]);

function stateWith(r: number): FusionState {
  return { ...initialFusionState(), r };
}

describe('fuseStreams: inverse-variance weights', () => {
  it('lie in [0, 1] and sum to 1', () => {
    fc.assert(
      fc.property(mixedStep, fc.double({ min: 0, max: 10, noNaN: true }), (groups, r) => {
        const { diagnostics: d, state } = fuseStreams(groups, stateWith(r), { mode: 'ivw' });
        for (const [a, w] of [[d.wA, d.wW], [state.wA, state.wW]]) {
          expect(a).toBeGreaterThanOrEqual(0);
          expect(a).toBeLessThanOrEqual(1);
          expect(a + w).toBeCloseTo(1, 12);
        }
      }),
    );
  });

  it('computes v_A, v_W, r and w_A exactly as method.md 3.7 says', () => {
    const groups: FusionGroup[] = [
      { real: [0.3, -0.3], wm: [0.1, -0.1] },
      { real: null, wm: [0.2, -0.2] },
      { real: null, wm: [0.4, -0.4] },
    ];
    const prior = stateWith(0.05);
    const { diagnostics: d, coefficients } = fuseStreams(groups, prior, { mode: 'ivw', emaRate: 0.5 });
    const stepError = 0.2 ** 2;
    expect(d.stepError).toBeCloseTo(stepError, 12);
    const r = 0.5 * 0.05 + 0.5 * stepError;
    expect(d.r).toBeCloseTo(r, 12);
    const vA = 0.09 / 1;
    const vW = (0.04 + 0.16) / 2 / 2 + r;
    expect(d.vA).toBeCloseTo(vA, 12);
    expect(d.vW).toBeCloseTo(vW, 12);
    const wA = 1 / vA / (1 / vA + 1 / vW);
    expect(d.wA).toBeCloseTo(wA, 12);
    expect(d.wW).toBeCloseTo(1 - wA, 12);
    // B = 3 groups; anchor stream mean over 1 group, world-model stream mean over 2.
    expect(coefficients[0][0]).toBeCloseTo(3 * wA * 0.3, 12);
    expect(coefficients[2][1]).toBeCloseTo((3 * (1 - wA) * -0.4) / 2, 12);
  });

  it('move to the anchors as r grows and to the world model as r -> 0', () => {
    fc.assert(
      fc.property(mixedStep, (groups) => {
        const rs = [0, 0.01, 0.1, 1, 10, 1e6];
        // emaRate 1e-9 keeps r at the prior, so r is the knob.
        const was = rs.map((r) => fuseStreams(groups, stateWith(r), { mode: 'ivw', emaRate: 1e-9 }).diagnostics);
        for (let i = 1; i < was.length; i++) {
          if (was[i].weightsReused || was[i - 1].weightsReused) continue;
          expect(was[i].wA).toBeGreaterThanOrEqual(was[i - 1].wA - 1e-12);
        }
        const last = was[was.length - 1];
        if (!last.weightsReused) expect(last.wA).toBeGreaterThan(0.99);
      }),
    );
    // A world model that reproduces the real advantages (r = 0) with many groups takes most weight.
    const rng = mulberry32(4);
    const g = () => groupAdvantages([rng(), rng(), rng(), rng()], 'mean');
    const groups: FusionGroup[] = [{ real: g(), wm: [] }, ...Array.from({ length: 99 }, () => ({ real: null, wm: g() }))];
    groups[0] = { real: groups[0].real, wm: groups[0].real ?? [] };
    const d = fuseStreams(groups, initialFusionState(), { mode: 'ivw' }).diagnostics;
    expect(d.r).toBe(0);
    expect(d.wW).toBeGreaterThan(0.95);
  });

  it('with an uninformative world model (calibrated advantages all 0) the anchor weight tends to K_A / (K_A + 1), not to 1', () => {
    // Why claim 5's fallback needs several anchor groups a step: r -> mean squared real advantage s^2,
    // v_W -> r, v_A = s^2 / K_A, so w_A = K_A / (K_A + 1) (0.5 for one anchor group).
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2, max: 8 }), fc.integer(),
        (kA, kW, n, seed) => {
          const rng = mulberry32(seed);
          const groups: FusionGroup[] = [];
          for (let g = 0; g < kA; g++) groups.push({ wm: new Array(n).fill(0), real: groupAdvantages(Array.from({ length: n }, () => rng()), 'mean') });
          for (let g = 0; g < kW; g++) groups.push({ wm: new Array(n).fill(0), real: null });
          const { diagnostics } = fuseStreams(groups, initialFusionState(), { mode: 'ivw' });
          expect(diagnostics.wA).toBeCloseTo(kA / (kA + 1), 12);
        },
      ),
    );
  });

  it('reuse the last weights in steps without anchors', () => {
    const mixed: FusionGroup[] = [
      { real: [0.5, -0.5], wm: [0.1, -0.1] },
      { real: null, wm: [0.2, -0.2] },
    ];
    const first = fuseStreams(mixed, initialFusionState(), { mode: 'ivw' });
    expect(first.diagnostics.weightsReused).toBe(false);
    const noAnchors: FusionGroup[] = [
      { real: null, wm: [0.3, -0.3] },
      { real: null, wm: [0.1, -0.1] },
    ];
    const second = fuseStreams(noAnchors, first.state, { mode: 'ivw' });
    expect(second.diagnostics.weightsReused).toBe(true);
    expect(second.diagnostics.wA).toBe(first.diagnostics.wA);
    expect(second.diagnostics.wW).toBe(first.diagnostics.wW);
    expect(second.state.r).toBe(first.state.r);
    expect(second.coefficients[0][0]).toBeCloseTo((2 * first.diagnostics.wW * 0.3) / 2, 12);
  });

  it('before any anchor the world-model stream carries full weight', () => {
    const { coefficients, diagnostics } = fuseStreams([{ real: null, wm: [0.2, -0.2] }], initialFusionState(), { mode: 'ivw' });
    expect(diagnostics.wW).toBe(1);
    expect(coefficients).toEqual([[0.2, -0.2]]);
  });

  it('guard: flat anchor groups give no variance estimate, so weights are reused (r still updates)', () => {
    const prior: FusionState = { ...initialFusionState(), r: 0.01, wA: 0.3, wW: 0.7 };
    const { diagnostics: d, state } = fuseStreams(
      [
        { real: [0, 0], wm: [0.1, -0.1] },
        { real: null, wm: [0.2, -0.2] },
      ],
      prior,
      { mode: 'ivw' },
    );
    expect(d.vA).toBe(0);
    expect(d.weightsReused).toBe(true);
    expect([d.wA, d.wW]).toEqual([0.3, 0.7]);
    expect(state.r).toBeCloseTo(0.9 * 0.01 + 0.1 * 0.01, 12);
  });

  it('guard: a step of anchors only runs on the anchor stream but keeps the carried weights', () => {
    const prior: FusionState = { ...initialFusionState(), r: 0.01, wA: 0.3, wW: 0.7 };
    const res = fuseStreams([{ real: [0.5, -0.5], wm: [0.5, -0.5] }], prior, { mode: 'ivw' });
    expect(res.diagnostics.wA).toBe(1);
    expect(res.coefficients).toEqual([[0.5, -0.5]]);
    expect([res.state.wA, res.state.wW]).toEqual([0.3, 0.7]);
  });

  it('rejects non-finite advantages and mismatched anchor groups', () => {
    expect(() => fuseStreams([{ real: null, wm: [Number.NaN] }], initialFusionState(), { mode: 'ivw' })).toThrow(RangeError);
    expect(() => fuseStreams([{ real: [0.1], wm: [0.1, 0.2] }], initialFusionState(), { mode: 'ivw' })).toThrow(RangeError);
    expect(() => fuseStreams([], initialFusionState(), { mode: 'ivw', emaRate: 0 })).toThrow(RangeError);
  });
});

describe("fuseStreams: 'none' and the scale of 'ivw'", () => {
  it("'none' weighs every group the same: coefficients are the advantages used", () => {
    fc.assert(
      fc.property(mixedStep, (groups) => {
        const { coefficients } = fuseStreams(groups, stateWith(0.1), { mode: 'none' });
        groups.forEach((g, k) => expect(coefficients[k]).toEqual(g.real ?? g.wm));
      }),
    );
  });

  it("'ivw' with w_A = K_A / B reduces to 'none'", () => {
    fc.assert(
      fc.property(mixedStep, (groups) => {
        const kA = groups.filter((g) => g.real !== null).length;
        const b = groups.length;
        // A flat anchor stream forces reuse of the prior weights, which we set to K_A / B.
        const flat = groups.map((g) => (g.real === null ? g : { real: g.real.map(() => 0), wm: g.wm }));
        const prior: FusionState = { ...initialFusionState(), wA: kA / b, wW: 1 - kA / b };
        const ivw = fuseStreams(flat, prior, { mode: 'ivw' }).coefficients;
        const none = fuseStreams(flat, prior, { mode: 'none' }).coefficients;
        ivw.forEach((row, k) => row.forEach((c, i) => expect(c).toBeCloseTo(none[k][i], 10)));
      }),
    );
  });
});

describe("fuseStreams: 'ppi'", () => {
  it('tunes lambda online towards Cov(real, wm) / Var(wm), clipped to [0, 1]', () => {
    const rng = mulberry32(3);
    const run = (wmOf: (a: number, rng: Rng) => number) => {
      let state = initialFusionState();
      let late = 0;
      for (let t = 0; t < 400; t++) {
        const real = groupAdvantages([rng(), rng(), rng(), rng()], 'mean');
        const wm = groupAdvantages(real.map((a) => wmOf(a, rng)), 'mean');
        state = fuseStreams([{ real, wm }, { real: null, wm }], state, { mode: 'ppi' }).state;
        if (t >= 200) late += state.lambda / 200;
      }
      // The EMA of one noisy group per step wanders; its average over the late steps does not.
      return late;
    };
    expect(run((a) => a)).toBeCloseTo(1, 6);
    expect(run((a) => 2 * a)).toBeCloseTo(0.5, 6);
    expect(run((a, r) => 0.5 * a + 0.3 * normal(r))).toBeLessThan(0.6);
    expect(run((_, r) => r())).toBeLessThan(0.15);
    expect(run((a) => -a)).toBe(0);
  });

  it('is unbiased with a biased world model, where the world-model-only gradient is not', () => {
    // Simulated step: B groups of n programs; each program has a real score y, a biased world-model
    // score f (flattened, offset, noisy, sometimes inverted) and a scalar stand-in g for its
    // log-probability gradient, correlated with y. The target is the all-real GRPO gradient
    // sum_i A_real_i g_i over all B groups.
    const rng = mulberry32(2024);
    const B = 10;
    const n = 4;
    const kA = 2;
    const trials = 6000;
    let state = initialFusionState();
    let sumPpi = 0;
    let sumPpi2 = 0;
    let sumWm = 0;
    let sumWm2 = 0;
    for (let t = 0; t < trials; t++) {
      const ys = Array.from({ length: B }, () => Array.from({ length: n }, () => rng()));
      const fs = ys.map((g) => g.map((y) => (rng() < 0.25 ? 1 - y : 0.3 + 0.4 * y * y + 0.1 * normal(rng))));
      const grads = ys.map((g) => g.map((y) => y - 0.5 + 0.5 * normal(rng)));
      const anchors = new Set(chooseAnchorGroups(77, t, B, kA));
      const real = ys.map((g) => groupAdvantages(g, 'mean'));
      const wm = fs.map((g) => groupAdvantages(g, 'mean'));
      const groups: FusionGroup[] = wm.map((w, k) => ({ wm: w, real: anchors.has(k) ? real[k] : null }));
      const res = fuseStreams(groups, state, { mode: 'ppi' });
      state = res.state;
      let truth = 0;
      let ppi = 0;
      let wmOnly = 0;
      for (let k = 0; k < B; k++)
        for (let i = 0; i < n; i++) {
          truth += real[k][i] * grads[k][i];
          ppi += res.coefficients[k][i] * grads[k][i];
          wmOnly += wm[k][i] * grads[k][i];
        }
      sumPpi += ppi - truth;
      sumPpi2 += (ppi - truth) ** 2;
      sumWm += wmOnly - truth;
      sumWm2 += (wmOnly - truth) ** 2;
    }
    const stats = (s: number, s2: number) => {
      const m = s / trials;
      return { mean: m, se: Math.sqrt((s2 / trials - m * m) / trials) };
    };
    const p = stats(sumPpi, sumPpi2);
    const w = stats(sumWm, sumWm2);
    expect(Math.abs(p.mean)).toBeLessThan(4 * p.se);
    expect(Math.abs(w.mean)).toBeGreaterThan(10 * w.se);
    expect(state.lambda).toBeGreaterThan(0);
    expect(state.lambda).toBeLessThan(1);
  });

  it('uses lambda * world-model advantage on every group plus the rectifier on anchors', () => {
    const prior: FusionState = { ...initialFusionState(), lambda: 0.5 };
    const { coefficients, diagnostics } = fuseStreams(
      [
        { real: [0.4, -0.4], wm: [0.2, -0.2] },
        { real: null, wm: [0.1, -0.1] },
        { real: null, wm: [0.3, -0.3] },
      ],
      prior,
      { mode: 'ppi' },
    );
    expect(diagnostics.lambda).toBe(0.5);
    expect(coefficients[1]).toEqual([0.05, -0.05]);
    // 0.5 * 0.2 + (3 / 1) * (0.4 - 0.5 * 0.2)
    expect(coefficients[0][0]).toBeCloseTo(0.1 + 3 * 0.3, 12);
  });
});
