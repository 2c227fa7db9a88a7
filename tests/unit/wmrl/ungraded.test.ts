// A run that gave no verdict (null y in an anchor group) is left out: of its group's comparison, of
// the calibrator, of the disagreement, and of the update (coefficient 0), never scored 0.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gradedAdvantages, groupAdvantages } from '../../../src/wmrl/advantages.ts';
import { anchorPairsOf, MethodState } from '../../../src/wmrl/step.ts';

describe('ungraded programs', () => {
  it('compare the graded ones among themselves and give the ungraded advantage 0 (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }), { minLength: 1, maxLength: 8 }), fc.constantFrom('mean', 'std', 'std-population', 'rloo' as const), (r, mode) => {
        const a = gradedAdvantages(r, mode);
        const graded = r.flatMap((v, i) => (v === null ? [] : [i]));
        r.forEach((v, i) => {
          if (v === null) expect(a[i]).toBe(0);
        });
        if (graded.length < 2) {
          expect(a.every((v) => v === 0)).toBe(true);
        } else {
          const ref = groupAdvantages(graded.map((i) => r[i] as number), mode);
          graded.forEach((i, j) => expect(a[i]).toBe(ref[j]));
        }
      }),
    );
  });

  it('never reach the update or the calibrator, in every fusion mode', () => {
    for (const mode of ['none', 'ivw', 'ppi', 'anchor-weight'] as const) {
      const m = new MethodState({ rho: 0.5, seed: 2, advantageMode: 'mean', debias: true, fusion: { mode, anchorWeight: { halfLife: 2, warmup: 1, target: 2, max: 4 } } });
      const plan = m.plan(2);
      const s = [[0.1, 0.5, 0.9, 0.3], [0.2, 0.4, 0.6, 0.8]];
      const y = plan.isAnchor.map((a) => (a ? [0.2, null, 0.8, 0.4] : null));
      const r = m.score(s, y);
      const k = plan.anchors[0];
      expect(r.coefficients[k][1]).toBe(0);
      expect(r.advantages[k][1]).toBe(0);
      expect(anchorPairsOf(s, y).s).toEqual([0.1, 0.9, 0.3].map((v, i) => [s[k][0], s[k][2], s[k][3]][i]));
      expect(r.calibrationPairs).toBe(3);
      // the graded three are compared among themselves: mean of 0.2, 0.8, 0.4
      expect(r.advantages[k][0]).toBeCloseTo(0.2 - 1.4 / 3, 12);
    }
  });
});
