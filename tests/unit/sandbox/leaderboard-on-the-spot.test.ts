// The on-the-spot leaderboard's pure parts: which programs a reduced population takes, how runs
// are collected (order, progress, failures), the toolkit digest, and the grading side's result.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  failureMessage,
  leaderboardOnTheSpot,
  libraryHash,
  populationFor,
  runPopulation,
  type PopulationProgress,
} from '../../../src/sandbox-pyodide/leaderboard-on-the-spot.ts';
import { pythonLibraryHash } from '../../../src/sandbox-pyodide/node-runner.ts';
import { referencePrograms } from '../../../src/sandbox-pyodide/reference-programs.ts';
import type { SandboxJob, SandboxResult } from '../../../src/sandbox-pyodide/protocol.ts';
import { createCustomTask } from '../../../src/tasks/byo-data.ts';
import { programInputs } from '../../../src/tasks/task-builder.ts';

function result(partial: Partial<SandboxResult>): SandboxResult {
  return { status: 'ok', stdout: '', stderr: '', outputTruncated: false, seconds: 0.01, wallMs: 10, queuedMs: 0, bootMs: 0, workerId: 0, interpreter: 1, jobId: 1, heapBytes: 0, fileBytes: 0, work: 0, workBudget: 1, workRule: 2, backstops: 0, ...partial };
}

describe('populationFor', () => {
  const full = referencePrograms('regression', 'rmse');

  it('a reduced population is an order-preserving subset of distinct programs, starting at the baseline', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: full.length + 5 }), (n) => {
        const ids = populationFor('regression', 'rmse', n).map((p) => p.id);
        expect(ids).toHaveLength(Math.min(n, full.length));
        expect(new Set(ids).size).toBe(ids.length);
        const positions = ids.map((id) => full.findIndex((p) => p.id === id));
        expect(positions.every((pos, i) => pos >= 0 && (i === 0 || pos > positions[i - 1]))).toBe(true);
        expect(ids[0]).toBe(full[0].id);
        // Evenly spread: no gap wider than full/n, and the subset reaches the end of the list.
        const step = Math.ceil(full.length / Math.min(n, full.length));
        expect(positions.every((pos, i) => i === 0 || pos - positions[i - 1] <= step)).toBe(true);
        expect(positions[positions.length - 1]).toBeGreaterThanOrEqual(full.length - step);
      }),
    );
  });

  it('without a size it is the whole population; rmsle adds the log-target programs', () => {
    expect(populationFor('binary', 'auc')).toHaveLength(referencePrograms('binary', 'auc').length);
    expect(populationFor('regression', 'rmsle').length).toBeGreaterThan(populationFor('regression', 'rmse').length);
  });

  it.each([0, -3, 2.5, Number.NaN])('refuses a size of %s', (n) => {
    expect(() => populationFor('multiclass', 'accuracy', n)).toThrow(/positive integer/);
  });
});

describe('libraryHash', () => {
  it('equals the Node digest the suite build records, for any library', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 40 }), { maxKeys: 6 }), async (lib) => {
        expect(await libraryHash(lib)).toBe(pythonLibraryHash(lib));
      }),
      { numRuns: 60 },
    );
  });
});

describe('runPopulation and leaderboardOnTheSpot', () => {
  const rows = Array.from({ length: 60 }, (_, i) => `${i},${(i * 7) % 11},${(2 * i + ((i * 5) % 3)).toString()}`);
  const task = createCustomTask({ csv: ['x1,x2,y', ...rows].join('\n') + '\n', target: 'y', metric: 'rmse' });
  const files = programInputs(task);
  const programs = populationFor('regression', 'rmse', 5);

  it('keeps program order whatever the completion order, reports progress 1..n, and never sends labels', async () => {
    const seen: SandboxJob[] = [];
    const progress: PopulationProgress[] = [];
    const delays = [30, 5, 20, 1, 10];
    let call = 0;
    const run = async (job: SandboxJob): Promise<SandboxResult> => {
      seen.push(job);
      const i = call++;
      await new Promise((r) => setTimeout(r, delays[i]));
      if (i === 2) return result({ status: 'error', traceback: 'Traceback (most recent call last):\n  File "program.py", line 1\nValueError: nope' });
      // Each fake program predicts a different constant, so the leaderboard has distinct entries.
      const preds = [task.meta.target, ...Array.from({ length: task.meta.nTest }, () => String(10 + i * 3))].join('\n') + '\n';
      return result({ predictionsCsv: preds, seconds: i / 10 });
    };
    const pop = await runPopulation(run, files, programs, { jobs: 2, toolkitHash: 'abc', onProgress: (p) => progress.push(p) });
    expect(pop.programIds).toEqual(programs.map((p) => p.id));
    expect(pop.runs.map((r) => r.programId)).toEqual(programs.map((p) => p.id));
    expect('error' in pop.runs[2] && pop.runs[2].error).toBe('error: File "program.py", line 1 | ValueError: nope');
    expect(pop.programSeconds).toEqual([0, 0.1, 0.01, 0.3, 0.4]);
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5]);
    expect(progress.at(-1)).toMatchObject({ total: 5, failed: 1 });
    for (const job of seen) {
      expect(Object.keys(job.files).sort()).toEqual(['task.json', 'test.csv', 'train.csv']);
      expect(job.files['test.csv'].split('\n')[0]).not.toContain('y');
    }

    const lb = leaderboardOnTheSpot(task, pop, 'test runner');
    expect(lb.taskId).toBe(task.meta.id);
    expect(lb.entries).toHaveLength(4);
    expect(lb.failed).toEqual([{ programId: programs[2].id, message: 'error: File "program.py", line 1 | ValueError: nope' }]);
    expect(lb.entries.map((e) => e.value)).toEqual([...lb.entries.map((e) => e.value)].sort((a, b) => a - b));
    expect(lb.provenance).toMatchObject({ toolkitHash: 'abc', jobs: 2, runner: 'test runner', programIds: pop.programIds });
  });

  it('failureMessage names the status and the last lines of the traceback or reason', () => {
    expect(failureMessage(result({ status: 'timeout', reason: 'interrupted after 5 ms' }))).toBe('timeout: interrupted after 5 ms');
    expect(failureMessage(result({ status: 'ok' }))).toBe('wrote no predictions.csv');
    expect(failureMessage(result({ status: 'killed' }))).toBe('killed: no detail');
  });
});
