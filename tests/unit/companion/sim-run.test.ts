import { describe, expect, it } from 'vitest';
import { fallbackSweep, lateMean, simulateRun, type SimRunConfig } from '../../../src/ui/companion/sim-run.ts';

const base: SimRunConfig = {
  seed: 3,
  steps: 80,
  groups: 16,
  groupSize: 4,
  rho: 0.1,
  wm: { shape: 'optimistic', strength: 0.6, noise: 0.03, readability: 1 },
  fusion: 'ivw',
  debias: true,
  advantageMode: 'mean',
};

describe('simulated run (sections 4 and 5)', () => {
  it('is deterministic per seed', () => {
    expect(simulateRun(base)).toEqual(simulateRun(base));
    expect(simulateRun({ ...base, seed: 4 })).not.toEqual(simulateRun(base));
  });

  it('keeps w_A + w_W = 1 and starts on the world model before any anchor', () => {
    const run = simulateRun(base);
    for (const s of run) expect(s.wA + s.wW).toBeCloseTo(1, 12);
    const firstAnchor = run.findIndex((s) => s.anchorGroups > 0);
    for (let i = 0; i < firstAnchor; i++) expect(run[i].wA).toBe(0);
  });

  it('puts more weight on the anchors when the world model is noisier', () => {
    const quiet = lateMean(simulateRun(base), (s) => s.wA)!;
    const noisy = lateMean(simulateRun({ ...base, wm: { ...base.wm, noise: 0.25 } }), (s) => s.wA)!;
    expect(noisy).toBeGreaterThan(quiet + 0.1);
  });

  it('falls back toward the anchors as the score becomes unreadable, in both ivw and ppi', () => {
    const [blind, , sharp] = fallbackSweep(base, [0, 0.5, 1]);
    expect(blind.wA!).toBeGreaterThan(sharp.wA! + 0.25);
    expect(blind.lambda!).toBeLessThan(0.3);
    expect(sharp.lambda!).toBeGreaterThan(0.8);
  });

  it('noise estimate r grows as readability drops', () => {
    const sharp = lateMean(simulateRun(base), (s) => s.r)!;
    const blind = lateMean(simulateRun({ ...base, wm: { ...base.wm, readability: 0 } }), (s) => s.r)!;
    expect(blind).toBeGreaterThan(3 * sharp);
  });

  it('debiasing shrinks the measured bias of a distorted world model', () => {
    const wm = { shape: 'compressed' as const, strength: 1, noise: 0.01, readability: 1 };
    const on = lateMean(simulateRun({ ...base, wm }), (s) => s.biasSlope)!;
    const off = lateMean(simulateRun({ ...base, wm, debias: false }), (s) => s.biasSlope)!;
    expect(off).toBeLessThan(-0.5);
    expect(Math.abs(on)).toBeLessThan(Math.abs(off) / 2);
  });

  it('lateMean skips missing values and returns null when there are none', () => {
    const run = simulateRun({ ...base, steps: 4, rho: 0 });
    expect(lateMean(run, (s) => s.r)).toBeNull();
    expect(lateMean(run, (s) => s.wA)).toBe(0);
  });
});

describe("the authors' anchor weight in the simulated run (section 4)", () => {
  it('is 1 until warm-up, stays in [1, 4], and gives the anchors the share w K_A / (w K_A + K_W)', () => {
    const run = simulateRun({ ...base, fusion: 'anchor-weight' });
    let groups = 0;
    for (const s of run) {
      expect(s.anchorWeight).not.toBeNull();
      if (groups + s.anchorGroups < 4) expect(s.anchorWeight).toBe(1); // the step's own groups count before its weight
      expect(s.anchorWeight!).toBeGreaterThanOrEqual(1);
      expect(s.anchorWeight!).toBeLessThanOrEqual(4);
      const kA = s.anchorGroups;
      expect(s.anchorShare).toBeCloseTo((s.anchorWeight! * kA) / (s.anchorWeight! * kA + (base.groups - kA)), 12);
      groups += kA;
    }
    expect(new Set(run.map((s) => s.anchorWeight)).size).toBeGreaterThan(1);
    // ours: the share is w_A itself
    for (const s of simulateRun(base)) if (s.anchorGroups > 0) expect(s.anchorShare).toBe(s.wA);
  });

  it("caps the anchors' share where ours does not, with one anchor group of sixteen", () => {
    const unreadable = { ...base, wm: { ...base.wm, readability: 0 } };
    const authors = lateMean(simulateRun({ ...unreadable, fusion: 'anchor-weight' }), (s) => s.anchorShare)!;
    const ours = lateMean(simulateRun(unreadable), (s) => s.anchorShare)!;
    expect(authors).toBeLessThanOrEqual((4 * 2) / (4 * 2 + 14) + 1e-12); // at most 2 anchor groups a step at rho 0.1
    expect(ours).toBeGreaterThan(authors);
  });
});
