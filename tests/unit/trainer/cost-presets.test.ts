// Cost meter arithmetic, the task draw, and the presets' switches.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addCosts, COST_COMPONENTS, CostMeter, costShares, emptyCost } from '../../../src/training/cost.ts';
import { PRESETS, presetConfig, presetById, WMRL_RHO } from '../../../src/training/presets.ts';
import { drawTasks, validateTrainerConfig } from '../../../src/training/trainer.ts';

describe('CostMeter', () => {
  it('total busy time is the sum of the charges; addCosts adds component by component', () => {
    const charge = fc.record({ c: fc.constantFrom(...COST_COMPONENTS), ms: fc.double({ min: 0, max: 1e4, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(charge, { maxLength: 30 }), fc.array(charge, { maxLength: 30 }), (xs, ys) => {
        const a = new CostMeter();
        const b = new CostMeter();
        for (const x of xs) a.charge(x.c, x.ms);
        for (const y of ys) b.charge(y.c, y.ms);
        const ra = a.result();
        const sum = COST_COMPONENTS.reduce((s, c) => s + ra.busyMs[c], 0);
        expect(ra.totalBusyMs).toBeCloseTo(sum, 6);
        for (const c of COST_COMPONENTS) expect(ra.busyMs[c]).toBeCloseTo(xs.filter((x) => x.c === c).reduce((s, x) => s + x.ms, 0), 6);
        const both = addCosts(ra, b.result());
        expect(both.totalBusyMs).toBeCloseTo(ra.totalBusyMs + b.result().totalBusyMs, 6);
        const shares = costShares(both);
        const total = COST_COMPONENTS.reduce((s, c) => s + shares[c], 0);
        expect(total === 0 || Math.abs(total - 1) < 1e-9).toBe(true);
      }),
    );
  });

  it('refuses times that are not measurements', () => {
    const m = new CostMeter();
    expect(() => m.charge('sandbox', -1)).toThrow();
    expect(() => m.charge('sandbox', Number.NaN)).toThrow();
    expect(() => m.count('executions', 1.5)).toThrow();
    expect(emptyCost().totalBusyMs).toBe(0);
  });
});

describe('drawTasks', () => {
  it('is seeded, draws distinct tasks while the pool allows, and covers the pool before repeating', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 30 }), fc.integer(), (poolSize, count, seed) => {
        const pool = Array.from({ length: poolSize }, (_, i) => i);
        const a = drawTasks(pool, count, seed);
        expect(a).toEqual(drawTasks(pool, count, seed));
        expect(a).toHaveLength(count);
        const firstPass = a.slice(0, Math.min(count, poolSize));
        expect(new Set(firstPass).size).toBe(firstPass.length);
        if (count >= poolSize) expect(new Set(a).size).toBe(poolSize);
      }),
    );
    expect(() => drawTasks([], 1, 1)).toThrow(/no training tasks/);
  });
});

describe('presets', () => {
  it('cover the paper rows, the four ablations, PPI, the claim-5 control and the free verifier, each a valid full config', () => {
    expect(PRESETS.filter((p) => p.block === 'ours').map((p) => p.id)).toEqual([
      'grpo-all-real', 'world-model-only', 'wmrl', 'ablation-neither', 'ablation-denoise-only', 'ablation-debias-only', 'ablation-both', 'wmrl-ppi',
      'wmrl-unreadable', 'wmrl-static',
    ]);
    for (const p of PRESETS) {
      expect(() => validateTrainerConfig(p.config)).not.toThrow();
      expect(p.config.name).toBe(p.id);
    }
    const sw = (id: Parameters<typeof presetById>[0]) => {
      const c = presetById(id).config;
      return [c.rho, c.debias, c.fusion];
    };
    expect(sw('grpo-all-real')).toEqual([1, false, 'none']);
    expect(sw('world-model-only')).toEqual([0, false, 'none']);
    expect(sw('wmrl')).toEqual([WMRL_RHO, true, 'ivw']);
    expect(sw('ablation-neither')).toEqual([WMRL_RHO, false, 'none']);
    expect(sw('ablation-denoise-only')).toEqual([WMRL_RHO, false, 'ivw']);
    expect(sw('ablation-debias-only')).toEqual([WMRL_RHO, true, 'none']);
    expect(sw('ablation-both')).toEqual(sw('wmrl'));
    expect(sw('wmrl-ppi')).toEqual([WMRL_RHO, true, 'ppi']);
    expect(sw('wmrl-unreadable')).toEqual(sw('wmrl'));
    expect(presetById('wmrl-unreadable').config.worldModelReading).toBe('shuffled');
    for (const p of PRESETS.filter((x) => x.id !== 'wmrl-unreadable' && x.id !== 'paper-wmrl-unreadable')) expect(p.config.worldModelReading ?? 'program').toBe('program');
    expect(sw('wmrl-static')).toEqual(sw('wmrl'));
    for (const p of PRESETS) expect(p.config.staticCheck ?? false).toBe(p.id === 'wmrl-static');
    // our reading uses none of the authors' switches
    for (const p of PRESETS.filter((x) => x.block === 'ours')) {
      const c = p.config;
      expect([c.wmGate, c.reward, c.binnedCalibrator, c.anchorWeight, c.perStepAnchors]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    }
  });

  it("as the authors built it: their rules in every row, and each one-switch variant differs from paper-wmrl by one switch", () => {
    const authors = PRESETS.filter((p) => p.block === 'authors');
    expect(authors.map((p) => p.id)).toEqual([
      'paper-grpo-all-real', 'paper-world-model-only', 'paper-wmrl', 'paper-wmrl-as-configured', 'paper-ablation-neither', 'paper-ablation-denoise-only',
      'paper-ablation-debias-only', 'paper-wmrl-unreadable', 'paper-anchors-only', 'paper-wmrl-lookup', 'paper-grpo-matched', 'paper-wmrl-unscaled', 'paper-wmrl-percentile', 'paper-wmrl-mean-advantages', 'paper-wmrl-pava', 'paper-wmrl-ivw',
      'paper-wmrl-verifier-gate',
    ]);
    for (const p of authors) expect(() => validateTrainerConfig(p.config)).not.toThrow();
    const w = presetById('paper-wmrl').config;
    expect([w.reward, w.wmGate, w.advantageMode, w.debias, w.fusion]).toEqual(['ladder', 'compile', 'std', true, 'anchor-weight']);
    expect(w.perStepAnchors).toEqual({ fraction: 0.1, floor: 1 });
    expect(w.binnedCalibrator).toEqual({ bins: 10, minPairs: 12, refitEvery: 4, cap: 300 });
    expect(w.anchorWeight).toEqual({ halfLife: 8, warmup: 4, target: 2, max: 4 });
    expect(presetById('paper-wmrl-as-configured').config.perStepAnchors).toEqual({ fraction: 0.25, floor: 1 });
    expect(presetById('paper-wmrl-unscaled').config.binnedCalibrator!.minPairs).toBe(200);
    expect(presetById('paper-wmrl-unscaled').config.anchorWeight!.warmup).toBe(32);
    const all = presetById('paper-grpo-all-real').config;
    expect([all.rho, all.reward, all.advantageMode, all.wmGate]).toEqual([1, 'ladder', 'std', undefined]);
    const differs = (id: Parameters<typeof presetById>[0]) => {
      const c = presetById(id).config as unknown as Record<string, unknown>;
      const base = w as unknown as Record<string, unknown>;
      return [...new Set([...Object.keys(c), ...Object.keys(base)])].filter((k) => k !== 'name' && JSON.stringify(c[k]) !== JSON.stringify(base[k])).sort();
    };
    expect(differs('paper-wmrl-percentile')).toEqual(['reward']);
    expect(differs('paper-wmrl-mean-advantages')).toEqual(['advantageMode']);
    expect(differs('paper-wmrl-pava')).toEqual(['binnedCalibrator']);
    expect(differs('paper-wmrl-ivw')).toEqual(['anchorWeight', 'fusion']);
    expect(differs('paper-wmrl-verifier-gate')).toEqual(['wmGate']);
    expect(differs('paper-wmrl-unreadable')).toEqual(['worldModelReading']);
    expect(differs('paper-wmrl-lookup')).toEqual(['scorer']);
    expect(differs('paper-ablation-neither')).toEqual(['anchorWeight', 'binnedCalibrator', 'debias', 'fusion']);
    // the anchors-only control: the switch, and what has no world-model stream to act on
    expect(differs('paper-anchors-only')).toEqual(['anchorWeight', 'anchorsOnly', 'binnedCalibrator', 'debias', 'fusion', 'wmGate']);
  });

  it('overrides change a copy, never the preset table', () => {
    const c = presetConfig('wmrl', { seed: 5, sampling: { maxNewTokens: 8, temperature: 1, topK: 0 } });
    expect(c.seed).toBe(5);
    expect(c.sampling.maxNewTokens).toBe(8);
    expect(presetById('wmrl').config.seed).toBe(1);
    expect(presetById('wmrl').config.sampling.maxNewTokens).toBe(256);
  });
});
