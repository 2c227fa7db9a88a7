// The work budget's arithmetic (protocol.ts): the count a budget gives, the backstop above it, and
// the messages that name the limit. The behaviour itself is tested in the browser (tests/sandbox/budget.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKSTOP_FACTOR, backstopMsFor, WORK_UNITS_PER_SECOND, workBudgetFor, workLimitMessage } from '../../../src/sandbox-pyodide/protocol';
import { countUnscored, isScored, type ExecutionStatus } from '../../../src/training/ports';

describe('work budget', () => {
  it('grows with the budget, is a positive integer, and the backstop stays well above the budget', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 10_000_000 }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(Number.isInteger(workBudgetFor(lo))).toBe(true);
        expect(workBudgetFor(lo)).toBeGreaterThanOrEqual(1);
        expect(workBudgetFor(lo)).toBeLessThanOrEqual(workBudgetFor(hi));
        expect(backstopMsFor(lo)).toBeGreaterThanOrEqual(BACKSTOP_FACTOR * lo);
      }),
    );
    expect(workBudgetFor(20_000)).toBe(20 * WORK_UNITS_PER_SECOND);
  });

  it('names the limit and its size', () => {
    expect(workLimitMessage(1234)).toMatch(/^work limit reached: .*1234 work units.*\(workBudget\)$/);
  });

  it('an unscored run is no verdict; every other status is', () => {
    const all: ExecutionStatus[] = ['ok', 'invalid', 'error', 'timeout', 'memory', 'resource', 'killed', 'unscored'];
    expect(all.filter((status) => !isScored({ status }))).toEqual(['unscored']);
    expect(countUnscored(all.map((status) => ({ status })))).toBe(1);
  });
});
