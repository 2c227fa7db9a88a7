import { describe, expect, it } from 'vitest';
import { InputError, optionalPositiveInt, positiveInt } from '../../../src/cli/cli-input.ts';

class MyUsageError extends Error {}

const REFUSED = ['0', '-3', '1.5', 'ten', '', 'NaN', '1e400'];

describe('positiveInt and optionalPositiveInt (the CLIs\' integer flags)', () => {
  it('optionalPositiveInt reads a positive integer, passes an absent flag through, and refuses anything else with the CLI\'s own error naming the flag', () => {
    expect(optionalPositiveInt(undefined, '--steps', MyUsageError)).toBeUndefined();
    expect(optionalPositiveInt('12', '--steps', MyUsageError)).toBe(12);
    for (const bad of REFUSED) {
      expect(() => optionalPositiveInt(bad, '--steps', MyUsageError)).toThrow(MyUsageError);
      expect(() => optionalPositiveInt(bad, '--steps', MyUsageError)).toThrow(/^--steps must be a positive integer/);
    }
  });

  it('positiveInt refuses an absent value too, and throws InputError unless told otherwise, quoting the value as typed', () => {
    expect(positiveInt('3', '--seed')).toBe(3);
    expect(() => positiveInt(undefined, '--seed')).toThrow(InputError);
    for (const bad of REFUSED) expect(() => positiveInt(bad, '--seed')).toThrow(`--seed must be a positive integer, got ${JSON.stringify(bad)}`);
    expect(() => positiveInt('0', '--seed', MyUsageError)).toThrow(MyUsageError);
  });
});
