// gradeRun is the one reading of a sandbox result against the hidden labels, shared by the trainer's
// executor, the Playground, the models pipeline and `npm run score`.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseCsv } from '../../../src/tasks/csv.ts';
import { buildTask } from '../../../src/tasks/task-builder.ts';
import { gradeRun, runReward } from '../../../src/sandbox-pyodide/run-grade.ts';
import type { SandboxResult, SandboxStatus } from '../../../src/sandbox-pyodide/protocol.ts';
import { syntheticCsv } from '../tasks/fixtures.ts';

const built = buildTask(parseCsv(syntheticCsv({ rows: 200, kind: 'binary' })), { id: 'b', split: 'train', target: 'label', type: 'binary', metric: 'auc', positive: 'yes' });
const board = { entries: [{ value: 0.4, programIds: ['a'] }, { value: 0.6, programIds: ['b'] }, { value: 0.9, programIds: ['c'] }] };
const ranked = { meta: built.meta, labels: built.labels, leaderboard: board };
const unranked = { ...ranked, leaderboard: null };
const truth = built.labels.labels.map((l) => (l === 'yes' ? 1 : 0));
const predictions = (values: readonly number[]): string => ['label', ...values.map(String)].join('\n') + '\n';

function result(over: Partial<SandboxResult>): SandboxResult {
  return { status: 'ok', stdout: '', stderr: '', outputTruncated: false, work: 0, workBudget: 1, workRule: 2, backstops: 0, seconds: 0, wallMs: 0, queuedMs: 0, bootMs: 0, workerId: 0, interpreter: 0, jobId: 1, heapBytes: 0, fileBytes: 0, ...over };
}

describe('gradeRun', () => {
  it('a perfect run is ok with its value, percentile and medal; without a leaderboard only the value', () => {
    const r = result({ predictionsCsv: predictions(truth) });
    const g = gradeRun(r, ranked);
    expect(g).toMatchObject({ status: 'ok', value: 1, percentile: 1 });
    expect(runReward(g)).toBe(1);
    const u = gradeRun(r, unranked);
    expect(u).toEqual({ status: 'ok', value: 1, percentile: null, medal: null });
    expect(runReward(u)).toBeNaN();
  });

  it('a run without predictions is invalid with the sandbox\'s reason; bad predictions with the grader\'s', () => {
    expect(gradeRun(result({}), ranked)).toEqual({ status: 'invalid', message: 'the program wrote no predictions.csv' });
    expect(gradeRun(result({ predictionsProblem: 'predictions.csv is not UTF-8' }), ranked)).toEqual({ status: 'invalid', message: 'predictions.csv is not UTF-8' });
    const g = gradeRun(result({ predictionsCsv: 'prediction\n1\n' }), ranked);
    expect(g.status).toBe('invalid');
    expect(runReward(g)).toBe(0);
  });

  it('every failed status scores 0, whatever predictions it left, and says why: traceback, then reason, then the status', () => {
    const failed: SandboxStatus[] = ['error', 'timeout', 'memory', 'resource', 'killed', 'unscored'];
    fc.assert(
      fc.property(fc.constantFrom(...failed), fc.option(fc.string()), fc.option(fc.string()), (status, traceback, reason) => {
        const r = result({ status, predictionsCsv: predictions(truth), ...(traceback === null ? {} : { traceback }), ...(reason === null ? {} : { reason }) });
        const g = gradeRun(r, ranked);
        expect(g.status).toBe(status);
        expect(runReward(g)).toBe(0);
        expect(g.status !== 'ok' && g.message).toBe(traceback ?? reason ?? `the run ended with status ${status}`);
      }),
    );
  });
});
