// The Train view's warning that a run has fallen into one failure, read on real run files: the collapsed
// controls run (paper-wmrl seed 8) warns with its crash, runs that kept working do not.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import CollapseNotice from '../../../src/ui/train/CollapseNotice.svelte';
import { collapseWarning, COLLAPSE_STEPS, errorLine } from '../../../src/ui/train/collapse-warning.ts';
import type { RunResult } from '../../../src/experiments/run-result.ts';
import type { ExecutionStatus } from '../../../src/training/ports.ts';
import { REPO_ROOT } from '../../run-cli.ts';

const records = (name: string) => (JSON.parse(readFileSync(join(REPO_ROOT, 'results/controls-40/runs', name), 'utf8')) as RunResult).records;
const step = (statuses: ExecutionStatus[] | null, messages: (string | null)[] = []) => ({ groups: [{ statuses, messages }] });

describe('collapseWarning', () => {
  it('names the collapse of paper-wmrl seed 8 (controls-40): 11 steps, 43 of 44 programs calling toolkit.fit', () => {
    const run = records('paper-wmrl-seed8.json');
    expect(collapseWarning(run)).toEqual({ steps: 11, programs: 44, error: "AttributeError: module 'toolkit' has no attribute 'fit'", count: 43 });
    // while it happened: silent after two failed steps, warning from the third
    expect(collapseWarning(run.slice(0, 31))).toBeNull();
    expect(collapseWarning(run.slice(0, 29 + COLLAPSE_STEPS))?.steps).toBe(COLLAPSE_STEPS);
  });

  it('stays silent on runs that kept working, an odd failed group included', () => {
    // paper-wmrl seed 3's last anchor group failed whole: one step, no warning
    for (const name of ['paper-wmrl-seed3.json', 'paper-wmrl-seed18.json', 'paper-grpo-all-real-seed4.json']) expect(collapseWarning(records(name)), name).toBeNull();
  });

  it('counts what the programs of the failed steps ended in, a status where there is no message', () => {
    const dead = step(['error', 'timeout', 'error', 'error'], ['  File "program.py", line 3, in <module> ZeroDivisionError: division by zero', null, 'line 2 SyntaxError: invalid syntax', '  File "program.py", line 3, in <module> ZeroDivisionError: division by zero']);
    // a step that executed nothing is passed over: three failed steps around it warn, and their programs are counted
    expect(collapseWarning([step(['ok', 'error']), dead, step(null), dead, dead])).toEqual({ steps: 3, programs: 12, error: 'ZeroDivisionError: division by zero', count: 6 });
    expect(collapseWarning([step(['ok']), dead, step(['error', 'ok']), dead, dead])).toBeNull();
  });
});

describe('errorLine', () => {
  it('reads the exception out of the pool\'s one-line message, the gate\'s reason included', () => {
    expect(errorLine('  File "program.py", line 8, in <module> AttributeError: module \'toolkit\' has no attribute \'fit\'', 'error')).toBe("AttributeError: module 'toolkit' has no attribute 'fit'");
    expect(errorLine('does not compile: SyntaxError: keyword argument repeated: subsample (line 7)', 'error')).toBe('SyntaxError: keyword argument repeated: subsample (line 7)');
    expect(errorLine('json.decoder.JSONDecodeError: Expecting value', 'error')).toBe('json.decoder.JSONDecodeError: Expecting value');
    expect(errorLine(null, 'timeout')).toBe('timeout');
    expect(errorLine('killed after 512 MiB', 'memory')).toBe('killed after 512 MiB');
  });
});

describe('CollapseNotice', () => {
  it("says how long, how many and which error, the program's text escaped", () => {
    const body = render(CollapseNotice, { props: { warning: collapseWarning(records('paper-wmrl-seed8.json'))! } }).body;
    expect(body).toContain('data-testid="collapse-warning"');
    expect(body).toContain('in its last 11 steps with executions');
    expect(body).toMatch(/43 of the 44 programs ended in <code[^>]*>AttributeError: module 'toolkit' has no attribute 'fit'<\/code>/);
    const hostile = render(CollapseNotice, { props: { warning: { steps: 3, programs: 4, count: 4, error: 'ValueError: <img src=x onerror=alert(1)>' } } }).body;
    expect(hostile).not.toContain('<img');
    expect(hostile).toContain('ValueError: &lt;img src=x onerror=alert(1)>');
  });
});
