// The programs the Train view shows while the policy writes them, folded from the session's events.
import { describe, expect, it } from 'vitest';
import type { SamplingEvent } from '../../../src/app/create-trainer.ts';
import { liveGroups, liveSampling, tokenRate } from '../../../src/ui/train/live-sampling.ts';

const event = (startedAt: number, progress: Partial<SamplingEvent['progress']>, taskIds: string[] = ['a', 'a', 'b', 'b']): SamplingEvent => ({
  what: 'step', step: 0, taskIds, startedAt,
  progress: { total: 4, done: 0, tokens: 0, finished: [], current: null, ...progress },
});

describe('live sampling', () => {
  it('keeps every finished program of a call, fills its groups, and starts afresh with the next call', () => {
    let live = liveSampling(null, event(10, { tokens: 8, current: { index: 0, program: 'import' } }), 1010);
    expect(live.programs).toEqual([null, null, null, null]);
    expect(live.current?.program).toBe('import');
    live = liveSampling(live, event(10, { done: 1, tokens: 20, finished: [{ index: 2, program: 'p2' }], current: { index: 0, program: 'import x' } }, []), 2010);
    live = liveSampling(live, event(10, { done: 2, tokens: 30, finished: [{ index: 3, program: 'p3' }], current: { index: 0, program: 'import xy' } }), 3010);
    expect(live.programs).toEqual([null, null, 'p2', 'p3']);
    // an event without task ids keeps the ones the call began with
    expect(live.taskIds).toEqual(['a', 'a', 'b', 'b']);
    expect(liveGroups(live, 2)).toEqual([{ taskId: 'a', written: 0, programs: [] }, { taskId: 'b', written: 2, programs: ['p2', 'p3'] }]);
    expect(tokenRate(live)).toBeCloseTo(10);
    const next = liveSampling(live, event(5000, { tokens: 1 }), 5000);
    expect(next.programs).toEqual([null, null, null, null]);
    expect(tokenRate(next)).toBeNull();
  });
});
