// The Playground shows tracebacks in the user's line numbers: the sandbox runner's frames go, the
// program's frames (and the library frames under them) stay, and a SyntaxError keeps its line.
import { describe, expect, it } from 'vitest';
import { userTraceback } from '../../../src/ui/playground/traceback.ts';

// As the pool's guard reports them (Python's own format; the runner is compiled as "<exec>").
const RUNTIME = `Traceback (most recent call last):
  File "<exec>", line 156, in run
  File "program.py", line 5, in <module>
  File "program.py", line 4, in fit
ZeroDivisionError: division by zero
`;

const SYNTAX = `Traceback (most recent call last):
  File "<exec>", line 156, in run
  File "program.py", line 2
    def f(:
          ^
SyntaxError: invalid syntax
`;

const CHAINED = `Traceback (most recent call last):
  File "program.py", line 3, in <module>
  File "/lib/python3.14/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^
json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "<exec>", line 156, in run
  File "<exec>", line 12, in guarded
  File "program.py", line 5, in <module>
    raise RuntimeError('bad') from e
RuntimeError: bad
`;

describe('userTraceback', () => {
  it("drops the runner's frames and keeps the program's, with their line numbers", () => {
    expect(userTraceback(RUNTIME)).toBe(`Traceback (most recent call last):
  File "program.py", line 5, in <module>
  File "program.py", line 4, in fit
ZeroDivisionError: division by zero
`);
  });

  it("keeps a SyntaxError's line and caret, without the runner's frame or an empty header", () => {
    expect(userTraceback(SYNTAX)).toBe(`  File "program.py", line 2
    def f(:
          ^
SyntaxError: invalid syntax
`);
  });

  it('treats each traceback of a chain alike and keeps library frames with their source lines', () => {
    const shown = userTraceback(CHAINED);
    expect(shown).not.toContain('<exec>');
    expect(shown).toContain('  File "/lib/python3.14/json/__init__.py", line 346, in loads\n    return _default_decoder.decode(s)\n           ^^^');
    expect(shown).toContain('The above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File "program.py", line 5, in <module>\n    raise RuntimeError');
    expect(shown.match(/Traceback \(most recent call last\):/g)).toHaveLength(2);
  });

  it('leaves text that is not a traceback, or has nothing to drop, as it is', () => {
    for (const text of ['SystemExit: 3', 'sandbox worker is not usable', CHAINED.split('\n\nThe above')[0]]) expect(userTraceback(text)).toBe(text);
  });
});
