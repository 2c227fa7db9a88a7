import { describe, expect, it } from 'vitest';
import { ProgressTracker, secondsLeft, shareDone, type Activity } from '../../../src/app/progress.ts';

const at = (over: Partial<Activity>): Activity => ({ key: 'k', label: 'l', startedAt: 0, done: null, total: null, expectedMs: null, ...over });

describe('time left and share done', () => {
  it('from the count where there is one: elapsed per item times the items left', () => {
    expect(secondsLeft(at({ done: 2, total: 8 }), 4000)).toBeCloseTo(12);
    expect(shareDone(at({ done: 2, total: 8 }), 4000)).toBe(0.25);
  });
  it('from the last duration otherwise, never below 0, and never looking finished by time alone', () => {
    expect(secondsLeft(at({ expectedMs: 10_000 }), 4000)).toBeCloseTo(6);
    expect(secondsLeft(at({ expectedMs: 10_000 }), 15_000)).toBe(0);
    expect(shareDone(at({ expectedMs: 10_000 }), 5000)).toBe(0.5);
    expect(shareDone(at({ expectedMs: 10_000 }), 50_000)).toBeLessThan(1);
  });
  it('unknown the first time, before anything is counted', () => {
    expect(secondsLeft(at({}), 1000)).toBeNull();
    expect(secondsLeft(at({ done: 0, total: 4 }), 1000)).toBeNull();
    expect(shareDone(at({}), 1000)).toBeNull();
  });
});

describe('ProgressTracker', () => {
  it('lists what is under way, counts it, and remembers how long it took for the next estimate', async () => {
    let t = 0;
    const tracker = new ProgressTracker(() => t);
    const seen: Activity[][] = [];
    tracker.listen((a) => seen.push([...a]));
    const h = tracker.begin('test.executions', 'running', 4);
    h.advance(3);
    expect(tracker.list()).toEqual([expect.objectContaining({ label: 'running', done: 3, total: 4 })]);
    t = 2000;
    h.end();
    expect(tracker.list()).toEqual([]);
    // a late count (a worker's report over another port) does not bring an ended operation back
    h.advance(4);
    expect(tracker.list()).toEqual([]);
    const again = tracker.begin('test.executions', 'running', 4);
    expect(tracker.list()[0].expectedMs).toBe(2000);
    again.end(false);
    // A failed operation does not overwrite the estimate, and track() ends even on a throw.
    await expect(tracker.track('test.x', 'x', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(tracker.list()).toEqual([]);
    expect(seen.length).toBeGreaterThan(4);
  });
});
