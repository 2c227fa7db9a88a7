import { describe, expect, it } from 'vitest';
import { optionalPositiveInt } from '../../../src/cli/cli-input.ts';

class MyUsageError extends Error {}

describe('optionalPositiveInt (the experiment CLIs\' integer flags)', () => {
  it('reads a positive integer, passes an absent flag through, and refuses anything else with the CLI\'s own error naming the flag', () => {
    expect(optionalPositiveInt(undefined, '--steps', MyUsageError)).toBeUndefined();
    expect(optionalPositiveInt('12', '--steps', MyUsageError)).toBe(12);
    for (const bad of ['0', '-3', '1.5', 'ten', '', 'NaN', '1e400']) {
      expect(() => optionalPositiveInt(bad, '--steps', MyUsageError)).toThrow(MyUsageError);
      expect(() => optionalPositiveInt(bad, '--steps', MyUsageError)).toThrow(/^--steps must be a positive integer/);
    }
  });
});
