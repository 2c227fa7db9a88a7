// The Playground's report of one run: the world model's guess runs beside the execution and can come after the
// real result, so the report tells a guess still on its way from one that will not come.
import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import RunReport from '../../../src/ui/playground/RunReport.svelte';
import type { RunOutcome } from '../../../src/ui/playground/grade-run.ts';
import { WORK_RULE } from '../../../src/sandbox-pyodide/work-rule.ts';

const outcome: RunOutcome = {
  result: {
    status: 'ok', stdout: '', stderr: '', outputTruncated: false, seconds: 0.5, work: 1000, heapBytes: 0, fileBytes: 0,
    workBudget: 1e9, workRule: WORK_RULE, backstops: 0, wallMs: 600, queuedMs: 0, bootMs: 0, workerId: 1, interpreter: 1, jobId: 1,
  },
  value: 0.8, percentile: 0.5, medal: null, leaderboardSize: 10, problem: null,
};
const guessCell = (props: Record<string, unknown>): string => {
  const { body } = render(RunReport, { props: { outcome, metric: 'accuracy', direction: 'higher', ...props } });
  return body.match(/data-testid="result-wm-guess"[^>]*>([\s\S]*?)<\/dd>/)?.[1] ?? '';
};

describe('RunReport: the world model\'s guess', () => {
  it('says the guess is on its way while the run still waits for it', () => {
    expect(guessCell({ guessPending: true })).toContain('the world model is still reading the program');
  });
  it('shows a dash when no guess will come, and an error over both', () => {
    expect(guessCell({})).not.toContain('still reading');
    expect(guessCell({})).toContain('—');
    expect(guessCell({ guessPending: true, guessError: 'no model' })).toContain('no model');
    expect(guessCell({ guessPending: true, guessError: 'no model' })).not.toContain('still reading');
  });
});
