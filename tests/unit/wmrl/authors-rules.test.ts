// The authors' anchor rule, advantages and anchor weight inside one step of the method.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AnchorSchedule, perStepAnchorCount, roundHalfEven } from '../../../src/wmrl/anchors.ts';
import { groupAdvantages } from '../../../src/wmrl/advantages.ts';
import { MethodState } from '../../../src/wmrl/step.ts';
import { groupDisagreement } from '../../../src/wmrl/anchor-weight.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';

describe('the per-step anchor rule', () => {
  it("rounds halves to even as Python's round() does", () => {
    expect([0.5, 1.5, 2.5, 3.5, 0.8, 1.2, 2.6].map(roundHalfEven)).toEqual([0, 2, 2, 4, 1, 1, 3]);
  });

  it('gives max(floor, round(fraction x groups)) every step, never more than the groups', () => {
    expect(perStepAnchorCount({ fraction: 0.1, floor: 1 }, 8)).toBe(1);
    expect(perStepAnchorCount({ fraction: 0.25, floor: 1 }, 8)).toBe(2);
    expect(perStepAnchorCount({ fraction: 0.25, floor: 1 }, 10)).toBe(2); // 2.5 -> 2
    expect(perStepAnchorCount({ fraction: 0, floor: 1 }, 8)).toBe(1);
    expect(perStepAnchorCount({ fraction: 0.1, floor: 3 }, 2)).toBe(2);
    const s = new AnchorSchedule(0.1, 3, { fraction: 0.1, floor: 1 });
    for (let k = 0; k < 30; k++) expect(s.next(8).anchors).toHaveLength(1); // the accumulator at 0.1 would skip some steps
  });
});

describe("verl's std advantages", () => {
  it('divide by the unbiased std plus 1e-6; the library by the population std plus 1e-4', () => {
    const r = [0.1, 0.5, 0.2, 0.9];
    const mean = 0.425;
    const ss = r.reduce((a, v) => a + (v - mean) ** 2, 0);
    groupAdvantages(r, 'std').forEach((a, i) => expect(a).toBeCloseTo((r[i] - mean) / (Math.sqrt(ss / 3) + 1e-6), 12));
    groupAdvantages(r, 'std-population').forEach((a, i) => expect(a).toBeCloseTo((r[i] - mean) / (Math.sqrt(ss / 4) + 1e-4), 12));
  });
});

/** A seeded step's scores: s for every group, y for the anchors. */
function stepScores(plan: { isAnchor: boolean[] }, rng: () => number, n: number) {
  const s = plan.isAnchor.map(() => Array.from({ length: n }, () => rng()));
  const y = plan.isAnchor.map((a, k) => (a ? s[k].map((v) => Math.min(1, Math.max(0, 1 - v + 0.2 * (rng() - 0.5)))) : null));
  return { s, y };
}

describe("the authors' method in MethodState", () => {
  const config = {
    rho: 0.25, seed: 5, advantageMode: 'std' as const, debias: true,
    fusion: { mode: 'anchor-weight' as const, anchorWeight: { halfLife: 8, warmup: 3, target: 2, max: 4 } },
    binned: { bins: 10, minPairs: 8, refitEvery: 4, cap: 100 },
    perStepAnchors: { fraction: 0.25, floor: 1 },
  };

  it('weights anchor advantages by w alone, leaves world-model groups at 1, and w = 1 until warm-up', () => {
    const m = new MethodState(config);
    const rng = mulberry32(9);
    for (let step = 0; step < 8; step++) {
      const plan = m.plan(8);
      const { s, y } = stepScores(plan, rng, 4);
      const r = m.score(s, y);
      const w = r.diagnostics.anchorWeight!;
      expect(w).toBeGreaterThanOrEqual(1);
      if (step < 1) expect(w).toBe(1); // 2 informative groups a step, warm-up 3
      r.coefficients.forEach((c, k) => {
        const scale = plan.isAnchor[k] ? w : 1;
        c.forEach((v, i) => expect(v).toBeCloseTo(scale * r.advantages[k][i], 12));
      });
    }
  });

  it('measures the disagreement on the calibration that already holds the step\'s pairs', () => {
    const m = new MethodState(config);
    const rng = mulberry32(4);
    let seen = 0;
    for (let step = 0; step < 3; step++) {
      const plan = m.plan(8);
      const { s, y } = stepScores(plan, rng, 4);
      const before = m.fusionState.anchorWeight?.disagreement ?? null;
      m.score(s, y);
      // after the step, the running estimate equals what folding the groups' eta^2, measured on
      // the post-step calibrator, gives
      let expected = before;
      const a = 1 - Math.pow(0.5, 1 / 8);
      plan.anchors.forEach((k) => {
        const eta = groupDisagreement(s[k].map((v) => m.calibrate(v)), y[k]!);
        if (eta === null) return;
        expected = expected === null ? eta : (1 - a) * expected + a * eta;
        seen++;
      });
      expect(m.fusionState.anchorWeight?.disagreement).toBeCloseTo(expected!, 12);
    }
    expect(seen).toBeGreaterThan(0);
    expect(m.snapshot().calibrator).toMatchObject({ kind: 'binned' });
  });

  it('resumes from a snapshot to the same step results', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 1000 }), (cut, seed) => {
        const a = new MethodState(config);
        const rngA = mulberry32(seed);
        let b: MethodState | null = null;
        for (let step = 0; step < 8; step++) {
          if (step === cut) {
            b = MethodState.restore(JSON.parse(JSON.stringify(a.snapshot())));
          }
          const planA = a.plan(8);
          const scores = stepScores(planA, rngA, 4);
          const ra = a.score(scores.s, scores.y);
          if (b) {
            const planB = b.plan(8);
            expect(planB).toEqual(planA);
            const rb = b.score(scores.s, scores.y);
            expect(rb.coefficients).toEqual(ra.coefficients);
          }
        }
      }),
      { numRuns: 10 },
    );
  });
});
