import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { groupAdvantages } from '../../../src/wmrl/advantages.ts';
import { initialFusionState, type FusionMode } from '../../../src/wmrl/fusion.ts';
import { fitIsotonic, identityCalibrator } from '../../../src/wmrl/isotonic.ts';
import { anchorPairsOf, scoreStep, type StepConfig } from '../../../src/wmrl/step.ts';

const cfg = (over: Partial<StepConfig> = {}): StepConfig => ({ advantageMode: 'mean', debias: true, fusion: { mode: 'ivw' }, ...over });
// g doubles scores below 0.5 (a simple monotone calibrator with knots (0,0), (0.5,1)).
const doubling = fitIsotonic([0, 0.5], [0, 1]);

describe('scoreStep', () => {
  const s = [
    [0.1, 0.3],
    [0.2, 0.4],
    [0.05, 0.25],
  ];
  const y = [[0.9, 0.1], null, null];

  it('uses y on anchor groups and g(s) elsewhere, or raw s with debiasing off', () => {
    const on = scoreStep({ s, y, calibrator: doubling, fusionState: initialFusionState(), config: cfg() });
    expect(on.rewards[0]).toEqual([0.9, 0.1]);
    expect(on.rewards[1][0]).toBeCloseTo(0.4, 12);
    expect(on.rewards[1][1]).toBeCloseTo(0.8, 12);
    expect(on.wmRewards[0][0]).toBeCloseTo(0.2, 12);
    const off = scoreStep({ s, y, calibrator: doubling, fusionState: initialFusionState(), config: cfg({ debias: false }) });
    expect(off.rewards[1]).toEqual([0.2, 0.4]);
    expect(off.rewards[0]).toEqual([0.9, 0.1]);
  });

  it('known rewards (the static check) replace g(s) and y, and their pairs never reach the calibrator', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ s: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }), y: fc.option(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 })), mask: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }) }), { minLength: 1, maxLength: 5 }),
        (groups) => {
          const input = { s: groups.map((g) => g.s), y: groups.map((g) => g.y), calibrator: doubling, fusionState: initialFusionState(), config: cfg() };
          const known = groups.map((g) => g.mask.map((m) => (m ? 0 : null)));
          const out = scoreStep({ ...input, known });
          groups.forEach((g, k) => g.mask.forEach((m, i) => {
            if (m) expect(out.rewards[k][i]).toBe(0);
            if (m) expect(out.wmRewards[k][i]).toBe(0);
          }));
          const pairs = groups.flatMap((g) => (g.y ? g.s.map((sv, i) => ({ sv, yv: g.y![i], m: g.mask[i] })).filter((p) => !p.m) : []));
          expect(anchorPairsOf(input.s, input.y, known)).toEqual({ s: pairs.map((p) => p.sv), y: pairs.map((p) => p.yv) });
          // nothing known: the same as no known at all
          const none = scoreStep({ ...input, known: groups.map((g) => g.s.map(() => null)) });
          expect(none.coefficients).toEqual(scoreStep(input).coefficients);
        },
      ),
    );
  });

  it('returns anchor pairs and paired anchor advantages for the calibrator and the tracker', () => {
    const out = scoreStep({ s, y, calibrator: doubling, fusionState: initialFusionState(), config: cfg() });
    expect(anchorPairsOf(s, y)).toEqual({ s: [0.1, 0.3], y: [0.9, 0.1] });
    expect(out.anchorAdvantages.real).toEqual([groupAdvantages([0.9, 0.1], 'mean')]);
    expect(out.anchorAdvantages.wm[0][0]).toBeCloseTo(-0.2, 12);
    expect(out.diagnostics.anchorGroups).toBe(1);
    expect(out.diagnostics.wmGroups).toBe(2);
    expect(out.diagnostics.stepError).toBeCloseTo(((-0.2 - 0.4) ** 2 + (0.2 + 0.4) ** 2) / 2, 12);
    expect(out.diagnostics.meanRealReward).toBeCloseTo(0.5, 12);
  });

  it('reports zero spread when the calibrator is flat over the scores', () => {
    const flat = fitIsotonic([0.1, 0.9], [0.6, 0.4]); // one pooled block: g = 0.5 everywhere
    const out = scoreStep({ s, y, calibrator: flat, fusionState: initialFusionState(), config: cfg() });
    expect(out.diagnostics.wmZeroSpreadFraction).toBe(1);
    expect(out.diagnostics.zeroSpreadFraction).toBeCloseTo(2 / 3, 12);
    expect(out.coefficients[1]).toEqual([0, 0]);
  });

  it('with rho = 1 (all anchors) and any fusion mode it is plain GRPO on real rewards', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom<FusionMode>('ivw', 'none', 'ppi'),
        (ys, mode) => {
          const out = scoreStep({ s: ys.map((g) => g.map((v) => 1 - v)), y: ys, calibrator: identityCalibrator(), fusionState: initialFusionState(), config: cfg({ fusion: { mode } }) });
          out.coefficients.forEach((row, k) => {
            const a = groupAdvantages(ys[k], 'mean');
            row.forEach((c, i) => expect(c).toBeCloseTo(a[i], 10));
          });
        },
      ),
    );
  });

  it('without anchors, debiasing and fusion it is world-model-only GRPO on raw scores', () => {
    const out = scoreStep({ s, y: [null, null, null], calibrator: doubling, fusionState: initialFusionState(), config: cfg({ debias: false, fusion: { mode: 'none' }, advantageMode: 'rloo' }) });
    out.coefficients.forEach((row, k) => expect(row).toEqual(groupAdvantages(s[k], 'rloo')));
    expect(anchorPairsOf(s, [null, null, null])).toEqual({ s: [], y: [] });
    expect(out.diagnostics.meanRealReward).toBeNull();
  });

  it('carries fusion state forward and rejects inconsistent input', () => {
    const out = scoreStep({ s, y, calibrator: doubling, fusionState: initialFusionState(), config: cfg() });
    expect(out.fusionState.r).toBe(out.diagnostics.stepError);
    expect(out.fusionState.wA).toBe(out.diagnostics.wA);
    expect(() => scoreStep({ s, y: [null], calibrator: doubling, fusionState: initialFusionState(), config: cfg() })).toThrow(RangeError);
    expect(() => scoreStep({ s, y: [[0.1], null, null], calibrator: doubling, fusionState: initialFusionState(), config: cfg() })).toThrow(RangeError);
  });
});
