// The outcome store under the work budget: outcomes measured under the old wall-clock budget are
// reused only where the two rules cannot disagree; timeouts and runs near the limit run again, and
// an unscored run (stopped by the backstop) is never stored as a verdict.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { executeWithStore, holdsUnderWorkBudget, OutcomeStore, outcomeKey, type StoredOutcome } from '../../../src/pipeline/outcome-store.ts';
import type { GradedRun } from '../../../src/pipeline/graded-runs.ts';
import { LEGACY_TRUSTED_FRACTION, WORK_RULE, type WorkRule } from '../../../src/sandbox-pyodide/work-rule.ts';

const run = (status: GradedRun['status'], seconds: number, y = status === 'ok' ? 0.5 : 0): GradedRun => ({ taskId: 't', status, y, seconds, workRule: WORK_RULE });

describe('stored outcomes under the work budget', () => {
  it('a wall-clock outcome holds only when it did not time out and finished well within the budget', () => {
    fc.assert(
      fc.property(fc.constantFrom<GradedRun['status']>('ok', 'error', 'invalid', 'timeout', 'memory'), fc.double({ min: 0, max: 40, noNaN: true }), (status, seconds) => {
        const o: StoredOutcome = { key: 'k', taskId: 't', timeoutMs: 20_000, run: run(status, seconds) };
        const expected = status !== 'timeout' && seconds <= LEGACY_TRUSTED_FRACTION * 20;
        expect(holdsUnderWorkBudget(o)).toBe(expected);
        // Measured under the rule now, any outcome holds; under an older rule, only as a wall-clock one does.
        expect(holdsUnderWorkBudget({ ...o, budget: 'work', workRule: WORK_RULE })).toBe(true);
        expect(holdsUnderWorkBudget({ ...o, budget: 'work' })).toBe(expected);
        expect(holdsUnderWorkBudget({ ...o, budget: 'work' }, 1)).toBe(true);
      }),
    );
  });

  it('runs the near-limit and timed-out wall-clock outcomes again, keeps the rest, and stores no unscored run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outcomes-'));
    const path = join(dir, 'outcomes.jsonl');
    const programs = ['fast', 'slow', 'late', 'stuck'].map((program) => ({ taskId: 't', program }));
    const legacy: Record<string, GradedRun> = { fast: run('ok', 1), slow: run('ok', 19), late: run('timeout', 20.5), stuck: run('ok', 0.5) };
    writeFileSync(path, programs.map((p) => JSON.stringify({ key: outcomeKey('t', p.program, 20_000), taskId: 't', timeoutMs: 20_000, run: legacy[p.program] })).join('\n') + '\n');
    const ran: string[] = [];
    const now: Record<string, GradedRun> = { slow: run('timeout', 30), late: run('ok', 25), stuck: run('unscored', 90) };
    const first = await executeWithStore(new OutcomeStore(path), programs, 20_000, async (chunk) =>
      chunk.map((p) => {
        ran.push(p.program);
        return now[p.program];
      }),
    );
    // 'stuck' was trusted (fast, not a timeout): only the two near the limit ran again.
    expect(ran).toEqual(['slow', 'late']);
    expect(first.map((r) => r.status)).toEqual(['ok', 'timeout', 'ok', 'ok']);
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as StoredOutcome);
    expect(lines.slice(4).map((o) => [o.budget, o.workRule, o.run.status])).toEqual([['work', WORK_RULE, 'timeout'], ['work', WORK_RULE, 'ok']]);

    // An unscored run is returned, not stored: the next build runs it again.
    const other = [{ taskId: 't', program: 'blocked' }];
    let calls = 0;
    const runner = async () => (calls++, [run('unscored', 90)]);
    expect((await executeWithStore(new OutcomeStore(path), other, 20_000, runner))[0].status).toBe('unscored');
    expect((await executeWithStore(new OutcomeStore(path), other, 20_000, runner))[0].status).toBe('unscored');
    expect(calls).toBe(2);
    expect(readFileSync(path, 'utf8')).not.toContain('unscored');
  });

  it('stores each outcome under the rule its run was counted under, not the default', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'outcomes-')), 'outcomes.jsonl');
    const other: WorkRule = WORK_RULE === 1 ? 2 : 1;
    const programs = [{ taskId: 't', program: 'old-rule' }];
    let calls = 0;
    const runner = async () => (calls++, [{ ...run('timeout', 20), workRule: other }]);
    await executeWithStore(new OutcomeStore(path), programs, 20_000, runner);
    const [stored] = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as StoredOutcome);
    expect(stored.workRule).toBe(other);
    // A timeout under another rule does not hold under today's: the next build runs it again.
    await executeWithStore(new OutcomeStore(path), programs, 20_000, runner);
    expect(calls).toBe(2);
  });
});
