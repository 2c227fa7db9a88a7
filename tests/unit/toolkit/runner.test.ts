import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrustedPyodideRunner } from '../../../src/sandbox-pyodide/node-runner.ts';
import { referencePrograms } from '../../../src/sandbox-pyodide/reference-programs.ts';
import { parseCsvRecords } from '../../../src/tasks/csv.ts';
import { REPO_ROOT } from '../../run-cli.ts';
import { pyRunner } from './python.ts';
import { splitDataset, type SplitTask } from './real-data.ts';

let runner: TrustedPyodideRunner;
beforeAll(async () => {
  runner = await pyRunner();
}, 60_000);

function predictions(csv: string | undefined): string[][] {
  expect(csv).toBeDefined();
  return parseCsvRecords(csv!).filter((r) => !(r.length === 1 && r[0] === ''));
}

function pick(type: 'regression' | 'binary' | 'multiclass', ids: string[]) {
  const all = referencePrograms(type);
  return ids.map((id) => {
    const p = all.find((x) => x.id === id);
    if (!p) throw new Error(`no reference program ${id}`);
    return p;
  });
}

describe('program runner (trusted, Node)', () => {
  it('runs reference programs end to end on real data sets and writes well-formed predictions.csv', async () => {
    const cases: [SplitTask, ReturnType<typeof pick>][] = [
      [splitDataset('vega_penguins', 2), pick('multiclass', ['majority__std', 'logit_C1__std', 'gbm_30_lr0.1_d3__raw', 'select_nb_vs_tree__std'])],
      [splitDataset('vega_cars', 2), pick('regression', ['mean__std', 'ridge_10__std', 'rf_10_d6__raw'])],
      [splitDataset('sklearn_breast_cancer', 2), pick('binary', ['knn_5__std', 'gnb__std', 'tree_d3__raw'])],
    ];
    for (const [task, programs] of cases) {
      const classes = new Set(task.labels);
      for (const p of programs) {
        const r = await runner.run(p.source, task.trainCsv, task.testCsv, task.taskJson, 60_000);
        expect(r.status, `${p.id}: ${r.traceback}`).toBe('ok');
        const rows = predictions(r.predictionsCsv);
        expect(rows[0]).toEqual([task.entry.target]);
        expect(rows.length - 1).toBe(task.labels.length);
        for (const [v] of rows.slice(1)) {
          if (task.entry.task === 'multiclass') expect(classes.has(v)).toBe(true);
          else expect(Number.isFinite(Number(v))).toBe(true);
          if (task.entry.task === 'binary') expect(Number(v) >= 0 && Number(v) <= 1).toBe(true);
        }
      }
    }
  }, 120_000);

  it('an erroring program returns status error with a traceback pointing into the program', async () => {
    const task = splitDataset('vega_penguins', 3);
    const r = await runner.run('import toolkit as tk\nprint("before")\nx = 1 / 0\n', task.trainCsv, task.testCsv, task.taskJson);
    expect(r.status).toBe('error');
    expect(r.stdout).toBe('before\n');
    expect(r.traceback).toContain('ZeroDivisionError');
    expect(r.traceback).toContain('program.py", line 3');
    expect(r.traceback).not.toContain('wmrl_runner');
    expect(r.predictionsCsv).toBeUndefined();
  });

  it('gives each run fresh globals and an empty job folder', async () => {
    const task = splitDataset('vega_penguins', 3);
    await runner.run("leak = 1\nopen('stray.txt', 'w').write('x')\n", task.trainCsv, task.testCsv, task.taskJson);
    const r = await runner.run(
      "import os\nprint('leak' in globals(), __name__, sorted(os.listdir('.')))\n",
      task.trainCsv,
      task.testCsv,
      task.taskJson,
    );
    expect(r.stdout.trim()).toBe("False __main__ ['task.json', 'test.csv', 'train.csv']");
  });

  it('caps captured output and interrupts a program that runs past its timeout', async () => {
    const task = splitDataset('vega_penguins', 3);
    const flood = await runner.run("print('y' * 200000)\n", task.trainCsv, task.testCsv, task.taskJson);
    expect(flood.status).toBe('ok');
    expect(flood.outputTruncated).toBe(true);
    expect(flood.stdout.length).toBeLessThan(70_000);
    const slow = await runner.run('while True:\n    pass\n', task.trainCsv, task.testCsv, task.taskJson, 300);
    expect(slow.status).toBe('error');
    expect(slow.timedOut).toBe(true);
    expect(slow.traceback).toContain('KeyboardInterrupt');
    expect(slow.seconds).toBeLessThan(5);
    const after = await runner.run("print('fine')\n", task.trainCsv, task.testCsv, task.taskJson, 5_000);
    expect(after.stdout).toBe('fine\n');
    expect(after.timedOut).toBe(false);
  });

  it('never loses a timeout: 240 endless runs with deadlines of 1 to 50 ms all end timed out, and the next run is clean', async () => {
    // In a child process: a lost interrupt holds the thread that runs Python, so the test cannot time
    // itself out; it ends the child when no run has finished for STALL_MS (a run takes well under 1 s).
    const script = join(import.meta.dirname, 'timeout-stress.ts');
    const child = spawn(process.execPath, [join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), script, '240'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const STALL_MS = 60_000;
    const lines: Record<string, unknown>[] = [];
    let stderr = '';
    let stalled = false;
    await new Promise<void>((done) => {
      let buffered = '';
      let stall = setTimeout(onStall, STALL_MS * 2); // Pyodide's start-up too
      function onStall() {
        stalled = true;
        child.kill('SIGKILL');
      }
      child.stdout.on('data', (d: Buffer) => {
        buffered += d.toString();
        for (let k = buffered.indexOf('\n'); k >= 0; k = buffered.indexOf('\n')) {
          lines.push(JSON.parse(buffered.slice(0, k)) as Record<string, unknown>);
          buffered = buffered.slice(k + 1);
        }
        clearTimeout(stall);
        stall = setTimeout(onStall, STALL_MS);
      });
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', () => {
        clearTimeout(stall);
        done();
      });
    });
    const runs = lines.filter((l) => 'i' in l);
    expect(stalled, `run ${runs.length} never ended (its interrupt was lost); ${stderr.slice(-500)}`).toBe(false);
    expect(runs.length).toBe(240);
    expect(runs.filter((r) => !(r.status === 'error' && r.timedOut === true))).toEqual([]);
    expect(lines.at(-1)).toEqual({ after: { status: 'ok', stdout: "fine /job ['task.json', 'test.csv', 'train.csv']\n", timedOut: false } });
  }, 600_000);
});
