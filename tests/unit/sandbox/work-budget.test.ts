// The work budget's arithmetic (protocol.ts): the count a budget gives, the backstop above it, and
// the messages that name the limit. The behaviour itself is tested in the browser (tests/sandbox/budget.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKSTOP_FACTOR, backstopMsFor } from '../../../src/sandbox-pyodide/protocol.ts';
import { LEGACY_TRUSTED_FRACTION, MAX_RATE_OVER_CALIBRATED, WORK_RULE, WORK_RULES, workBudgetFor, workLimitMessage } from '../../../src/sandbox-pyodide/work-rule.ts';
import { quietSecondsPerCalibratedSecond, WORK_REFERENCE } from '../../../src/sandbox-pyodide/work-reference.ts';
import { countUnscored, isScored, type ExecutionStatus } from '../../../src/training/ports.ts';

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
    expect(workBudgetFor(20_000)).toBe(20 * WORK_RULES[WORK_RULE].unitsPerSecond);
    expect(workBudgetFor(20_000, 1)).toBe(660_000);
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

describe('work rule 2 and its reference set', () => {
  const ref = WORK_REFERENCE;
  const rates = ref.programs.map((p) => p.units / p.seconds);
  const median = [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)];

  it('calibrates its rate to the reference set: within 10% of the median kind', () => {
    expect(ref.programs.length).toBeGreaterThanOrEqual(12);
    expect(Math.abs(WORK_RULES[2].unitsPerSecond / median - 1)).toBeLessThan(0.1);
  });

  it('trusts an older outcome only where no reference kind could have used more than half its budget', () => {
    const fastest = Math.max(...rates) / WORK_RULES[2].unitsPerSecond;
    expect(fastest).toBeLessThanOrEqual(MAX_RATE_OVER_CALIBRATED);
    expect(LEGACY_TRUSTED_FRACTION * MAX_RATE_OVER_CALIBRATED).toBeLessThanOrEqual(0.5);
  });

  it('says how long a calibrated second lasts from the reference kinds: the fastest-counted kind to the slowest', () => {
    const { min, max } = quietSecondsPerCalibratedSecond();
    expect(min).toBeCloseTo(WORK_RULES[2].unitsPerSecond / Math.max(...rates), 12);
    expect(max).toBeCloseTo(WORK_RULES[2].unitsPerSecond / Math.min(...rates), 12);
    expect(min).toBeGreaterThan(1 / 3);
    expect(max).toBeLessThan(3);
  });

  it('names the unit and the calibrated seconds in its message', () => {
    expect(workLimitMessage(2_600_000_000, 2)).toMatch(/more than 2600000000 work units \(a unit is one loop iteration or function call.*; 10\.0 calibrated seconds of work\)/);
  });
});
