// Real-executed groups in which no program ran: counted over a run, with the streak of such steps at
// its end (how the two collapsed controls runs ended).
import { describe, expect, it } from 'vitest';
import { failedRealGroups, type StepStatuses } from '../../../src/training/failed-real-groups.ts';
import type { ExecutionStatus } from '../../../src/training/ports.ts';

/** A step of groups: a list of statuses is a real-executed group, null a world-model-scored one. */
const step = (...groups: (ExecutionStatus[] | null)[]): StepStatuses => ({ groups: groups.map((statuses) => ({ statuses })) });
const ok: ExecutionStatus[] = ['ok', 'error', 'ok', 'ok'];
const dead: ExecutionStatus[] = ['error', 'error', 'timeout', 'error'];

describe('failedRealGroups', () => {
  it('counts the executed groups where nothing ran, and ignores world-model-scored ones', () => {
    expect(failedRealGroups([step(ok, null, null), step(dead, null), step(null, ok)])).toEqual({ executed: 3, noneRan: 1, endStreak: 0, endStreakStart: 3 });
  });

  it('counts the streak of steps at the end in which every executed group failed', () => {
    expect(failedRealGroups([step(ok), step(dead), step(ok), step(dead, null), step(dead)])).toEqual({ executed: 5, noneRan: 3, endStreak: 2, endStreakStart: 3 });
    // one group that runs in the last step breaks the streak, even beside a dead one
    expect(failedRealGroups([step(dead), step(dead, ok)])).toMatchObject({ endStreak: 0, endStreakStart: 2 });
    // a step that executed nothing (an accumulator's step without anchors) neither breaks a streak nor extends it
    expect(failedRealGroups([step(ok), step(dead), step(null), step(dead)])).toEqual({ executed: 3, noneRan: 2, endStreak: 2, endStreakStart: 1 });
    expect(failedRealGroups([step(dead), step(null)])).toEqual({ executed: 1, noneRan: 1, endStreak: 1, endStreakStart: 0 });
    expect(failedRealGroups([])).toEqual({ executed: 0, noneRan: 0, endStreak: 0, endStreakStart: 0 });
  });

  it('reads run files written before statuses were recorded as having no executed group', () => {
    expect(failedRealGroups([{ groups: [{} as StepStatuses['groups'][number]] }])).toEqual({ executed: 0, noneRan: 0, endStreak: 0, endStreakStart: 1 });
  });
});
