import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { anchorCount, AnchorSchedule, chooseAnchorGroups } from '../../../src/wmrl/anchors.ts';

const rho = fc.double({ min: 0, max: 1, noNaN: true });
const batches = fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 60 });

describe('AnchorSchedule', () => {
  it('keeps the cumulative anchor count at round(rho * cumulative groups) after every step', () => {
    fc.assert(
      fc.property(rho, fc.integer(), batches, (r, seed, sizes) => {
        const sched = new AnchorSchedule(r, seed);
        let groups = 0;
        let anchors = 0;
        sizes.forEach((b, t) => {
          const plan = sched.next(b);
          groups += b;
          anchors += plan.anchors.length;
          expect(plan.step).toBe(t);
          expect(plan.isAnchor).toHaveLength(b);
          expect(plan.isAnchor.filter(Boolean)).toHaveLength(plan.anchors.length);
          expect(new Set(plan.anchors).size).toBe(plan.anchors.length);
          for (const a of plan.anchors) expect(plan.isAnchor[a]).toBe(true);
          expect(anchors).toBe(Math.round(r * groups));
          expect(sched.anchorsSoFar).toBe(anchors);
          expect(sched.groupsSoFar).toBe(groups);
        });
      }),
    );
  });

  it('with small batches some steps have no anchors, and rho = 0.1 gives one anchor per ten groups', () => {
    const sched = new AnchorSchedule(0.1, 3);
    const counts = Array.from({ length: 20 }, () => sched.next(4).anchors.length);
    expect(counts.filter((c) => c === 0).length).toBeGreaterThan(10);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(8);
  });

  it('rho = 1 makes every group an anchor and rho = 0 none', () => {
    const all = new AnchorSchedule(1, 1);
    const none = new AnchorSchedule(0, 1);
    for (let t = 0; t < 5; t++) {
      expect(all.next(6).anchors).toEqual([0, 1, 2, 3, 4, 5]);
      expect(none.next(6).anchors).toEqual([]);
    }
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const run = (seed: number) => {
      const s = new AnchorSchedule(0.3, seed);
      return Array.from({ length: 30 }, () => s.next(16).anchors);
    };
    expect(run(11)).toEqual(run(11));
    expect(run(11)).not.toEqual(run(12));
  });

  it('which groups are anchors is a function of (seed, step) only', () => {
    fc.assert(
      fc.property(fc.integer(), fc.nat(1000), fc.integer({ min: 1, max: 30 }), (seed, step, groups) => {
        const k = Math.min(groups, 3);
        expect(chooseAnchorGroups(seed, step, groups, k)).toEqual(chooseAnchorGroups(seed, step, groups, k));
      }),
    );
  });

  it('plans each step by anchorCount and chooseAnchorGroups, and survives a snapshot/restore', () => {
    const a = new AnchorSchedule(0.15, 99);
    let groupsBefore = 0;
    for (let t = 0; t < 10; t++) {
      const anchors = chooseAnchorGroups(99, t, 8, anchorCount(0.15, groupsBefore, 8));
      const plan = a.next(8);
      expect(plan.step).toBe(t);
      expect(plan.anchors).toEqual(anchors);
      expect(plan.isAnchor).toEqual(Array.from({ length: 8 }, (_, g) => anchors.includes(g)));
      groupsBefore += 8;
    }
    const b = AnchorSchedule.restore(a.snapshot());
    for (let t = 0; t < 10; t++) expect(b.next(5)).toEqual(a.next(5));
  });

  it('selects every group equally often in the long run (uniform selection)', () => {
    const s = new AnchorSchedule(0.25, 5);
    const hits = new Array<number>(8).fill(0);
    for (let t = 0; t < 4000; t++) for (const g of s.next(8).anchors) hits[g]++;
    // 8000 anchors over 8 slots: 1000 each, binomial sd ~ 29.
    for (const h of hits) expect(Math.abs(h - 1000)).toBeLessThan(150);
  });

  it('rejects invalid rho, seed and group counts', () => {
    expect(() => new AnchorSchedule(1.5, 0)).toThrow(RangeError);
    expect(() => new AnchorSchedule(Number.NaN, 0)).toThrow(RangeError);
    expect(() => new AnchorSchedule(0.1, 0.5)).toThrow(RangeError);
    expect(() => new AnchorSchedule(0.1, 0).next(-1)).toThrow(RangeError);
  });
});
