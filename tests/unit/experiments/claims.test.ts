import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CLAIMS, claimVerdict, evaluateClaims, LARGER_SFT_PRESET, NON_INFERIORITY_MARGIN, testVerdict, type ClaimTestSpec } from '../../../src/experiments/claims.ts';
import { pairedComparison } from '../../../src/experiments/aggregate.ts';
import { SFT_PRESET, type RunResult } from '../../../src/experiments/run-result.ts';
import { cost, run } from './run-fixtures.ts';

const busy = (totalS: number) => cost({ policySampling: 0, worldModel: 0, sandbox: 1000 * totalS, policyUpdate: 0 }, 1000 * totalS, 0, 0);

/** Held-out scores (x100) per preset over seeds 1..n, and a busy time per training run. */
function runsOf(scores: Record<string, number[]>, busyS: Record<string, number[]> = {}): RunResult[] {
  return Object.entries(scores).flatMap(([preset, xs]) => xs.map((x, i) => run(preset, i + 1, x / 100, preset.startsWith(SFT_PRESET) ? null : busy(busyS[preset]?.[i] ?? 10))));
}

const claim = (id: string, runs: RunResult[]) => evaluateClaims(runs).find((c) => c.id === id)!;

describe('the claims, decided from paired intervals', () => {
  it('claim 1 holds when GRPO costs more than WMRL on every seed, with an interval above 1', () => {
    const runs = runsOf({ 'grpo-all-real': [20, 21, 22], wmrl: [20, 21, 22] }, { 'grpo-all-real': [90, 100, 110], wmrl: [30, 31, 33] });
    const c = claim('1', runs);
    expect(c.verdict).toBe('holds');
    expect(c.tests[0].comparison.interval!.mean).toBeCloseTo((3 + 100 / 31 + 110 / 33) / 3, 9);
    // the same runs with the costs swapped: WMRL is the expensive one, the claim fails
    const swapped = runsOf({ 'grpo-all-real': [20, 21, 22], wmrl: [20, 21, 22] }, { wmrl: [90, 100, 110], 'grpo-all-real': [30, 31, 33] });
    expect(claim('1', swapped).verdict).toBe('fails');
  });

  it(`claim 2 is non-inferiority within ${NON_INFERIORITY_MARGIN} points: a small loss with a tight interval still holds, a clear loss fails`, () => {
    const base = { 'world-model-only': [0, 1, 0], 'grpo-all-real': [40, 45, 50] };
    expect(claim('2', runsOf({ ...base, wmrl: [38, 44, 48] })).verdict).toBe('holds');
    expect(claim('2', runsOf({ ...base, wmrl: [20, 24, 31] })).verdict).toBe('fails');
    // wide and centred on zero: neither
    expect(claim('2', runsOf({ ...base, wmrl: [20, 60, 50] })).verdict).toBe('undecided');
    // world-model-only as good as GRPO breaks the second half
    expect(claim('2', runsOf({ 'world-model-only': [40, 45, 50], 'grpo-all-real': [40, 45, 50], wmrl: [40, 45, 50] })).tests[1].verdict).toBe('undecided');
  });

  it('one seed gives no interval, so nothing is decided; a missing preset says which', () => {
    const one = claim('2', runsOf({ wmrl: [90], 'grpo-all-real': [10], 'world-model-only': [0] }));
    expect(one.verdict).toBe('undecided');
    const missing = claim('4', runsOf({ wmrl: [30, 31] }));
    expect(missing.verdict).toBe('not run');
    expect(missing.missing).toEqual([LARGER_SFT_PRESET]);
  });

  it("claim 4 reads the larger policy's SFT row; claim 3 needs every comparison to hold", () => {
    expect(claim('4', runsOf({ wmrl: [30, 32, 34], [LARGER_SFT_PRESET]: [20, 21, 22] })).verdict).toBe('holds');
    expect(claim('4', runsOf({ wmrl: [10, 12, 14], [LARGER_SFT_PRESET]: [20, 21, 22] })).verdict).toBe('fails');
    const ordered = { 'ablation-denoise-only': [10, 11, 12], 'ablation-debias-only': [20, 21, 23], wmrl: [30, 31, 33] };
    expect(claim('3', runsOf(ordered)).verdict).toBe('holds');
    expect(claim('3', runsOf({ ...ordered, 'ablation-debias-only': [5, 6, 8] })).verdict).toBe('fails');
  });

  it('every claim names presets the runner has, or the larger SFT row', async () => {
    const { PRESETS } = await import('../../../src/training/presets.ts');
    const known = new Set<string>([...PRESETS.map((p) => p.id), LARGER_SFT_PRESET]);
    for (const c of CLAIMS) for (const t of c.tests) expect([known.has(t.a), known.has(t.b)]).toEqual([true, true]);
  });

  it('property: a verdict is symmetric: swapping a and b of a difference and the direction gives the same verdict', () => {
    fc.assert(fc.property(
      fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 2, maxLength: 6 }),
      fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 6, maxLength: 6 }),
      fc.double({ min: -10, max: 10, noNaN: true }),
      (xa, xb, bound) => {
        const runs = runsOf({ wmrl: xa, 'grpo-all-real': xb.slice(0, xa.length) });
        const spec: ClaimTestSpec = { a: 'wmrl', b: 'grpo-all-real', metric: 'heldOut', kind: 'difference', direction: 'greater', holdsBeyond: bound, failsBeyond: bound };
        const mirror: ClaimTestSpec = { ...spec, a: 'grpo-all-real', b: 'wmrl', direction: 'less', holdsBeyond: -bound, failsBeyond: -bound };
        const v = testVerdict(spec, pairedComparison(runs, spec.a, spec.b, 'heldOut', 'difference'));
        const w = testVerdict(mirror, pairedComparison(runs, mirror.a, mirror.b, 'heldOut', 'difference'));
        expect(w).toBe(v);
        // and 'holds' means the whole interval is beyond the bound
        const iv = pairedComparison(runs, 'wmrl', 'grpo-all-real', 'heldOut', 'difference').interval!;
        if (v === 'holds') expect(iv.low!).toBeGreaterThan(bound);
        if (v === 'fails') expect(iv.high!).toBeLessThan(bound);
      },
    ));
  });

  it("a claim's verdict: any failure fails it, all holding holds it", () => {
    expect(claimVerdict(['holds', 'holds'])).toBe('holds');
    expect(claimVerdict(['holds', 'undecided'])).toBe('undecided');
    expect(claimVerdict(['undecided', 'fails'])).toBe('fails');
    expect(claimVerdict(['holds', 'not run'])).toBe('not run');
    expect(claimVerdict([])).toBe('not run');
  });
});
