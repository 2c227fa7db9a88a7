import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { behaviourDifferences, behaviourOf } from '../../../src/experiments/run-behaviour.ts';

const run = (reward: number, wallMs: number) => ({
  preset: 'wmrl',
  seed: 1,
  startedAt: `2026-12-01T10:00:0${wallMs % 10}Z`,
  environment: { userAgent: `machine ${wallMs}` },
  // the host's load while it ran, and the provenance (a check before and after a refactor crosses commits); older run files have neither
  ...(wallMs % 2 === 0 ? { host: { cpus: 2, samples: 3, meanLoad1: wallMs / 1e5, maxLoad1: wallMs / 1e4 } } : {}),
  ...(wallMs % 3 === 0 ? { provenance: { commit: String(wallMs).repeat(40).slice(0, 40), dirty: wallMs % 2 === 0, gitError: null, toolkitHash: 'ab', startedAt: 'x', finishedAt: 'y' } } : {}),
  records: [
    { step: 0, meanReward: reward, wallMs, cost: { busyMs: { sandbox: wallMs / 2 }, totalBusyMs: wallMs, counts: { executions: 4 } }, update: { loss: 0.5, seconds: wallMs / 1000 } },
  ],
});

describe('run behaviour (a run file, timings aside)', () => {
  it('runs that differ only in measured times and the machine behave the same', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 1e6 }), (t1, t2) => {
        expect(behaviourDifferences(run(0.25, t1), run(0.25, t2))).toEqual([]);
      }),
    );
    expect(behaviourOf(run(0.25, 7))).toEqual({ preset: 'wmrl', seed: 1, records: [{ step: 0, meanReward: 0.25, cost: { counts: { executions: 4 } }, update: { loss: 0.5 } }] });
  });

  it("a robot run's phase times (a step's ms) and its machine are timings; its success is not", () => {
    const robot = (wall: number, success: number) => ({ format: 'wmrl-robot-run', machine: `cpu ${wall}`, wallMs: wall, steps: [{ step: 0, successRate: success, ms: { rollouts: wall / 2, progress: 1, update: wall / 3, wall } }] });
    expect(behaviourDifferences(robot(100, 0.25), robot(250, 0.25))).toEqual([]);
    expect(behaviourDifferences(robot(100, 0.25), robot(100, 0.5))).toEqual(['steps[0].successRate: 0.25 vs 0.5']);
  });

  it('a changed number, count or length is named by its path', () => {
    expect(behaviourDifferences(run(0.25, 1), run(0.5, 1))).toEqual(['records[0].meanReward: 0.25 vs 0.5']);
    const more = run(0.25, 1);
    more.records[0].cost.counts.executions = 5;
    expect(behaviourDifferences(run(0.25, 1), more)).toEqual(['records[0].cost.counts.executions: 4 vs 5']);
    const longer = { ...run(0.25, 1), records: [...run(0.25, 1).records, ...run(0.25, 1).records] };
    expect(behaviourDifferences(run(0.25, 1), longer)[0]).toBe('records: 1 vs 2 entries');
    expect(behaviourDifferences({ a: 1 }, { a: 1, b: 2 })).toEqual(['b: undefined vs 2']);
  });
});
