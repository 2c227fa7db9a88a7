// Runs programs on their tasks through an executor (the browser sandbox for untrusted programs) and
// grades them here with the hidden labels: y = leaderboard percentile, 0 when the program fails,
// times out or writes invalid predictions (trueScore).

import type { SandboxJob, SandboxResult } from '../sandbox-pyodide/protocol.ts';
import type { WorkRule } from '../sandbox-pyodide/work-rule.ts';
import { gradeRun, runReward } from '../sandbox-pyodide/run-grade.ts';
import { programInputs } from '../tasks/task-builder.ts';
import type { TaskRegistry } from '../tasks/task-registry.ts';

export type RunJobs = (jobs: readonly SandboxJob[]) => Promise<SandboxResult[]>;

export interface ProgramToRun {
  taskId: string;
  program: string;
}

export interface GradedRun {
  taskId: string;
  status: SandboxResult['status'] | 'invalid';
  /** true score in [0, 1]; NaN when the task has no leaderboard (validity only) */
  y: number;
  value?: number;
  seconds: number;
  /** The work rule the sandbox counted this run under (its verdict holds under that rule). */
  workRule: WorkRule;
  error?: string;
}

export async function runAndGrade(registry: TaskRegistry, programs: readonly ProgramToRun[], run: RunJobs, timeoutMs: number): Promise<GradedRun[]> {
  const ids = [...new Set(programs.map((p) => p.taskId))];
  const files = new Map(await Promise.all(ids.map(async (id) => [id, programInputs(await registry.loadTask(id))] as const)));
  // A task without a leaderboard yet (some held-out ones) is still checked for valid predictions; y is then NaN.
  const graders = new Map(
    await Promise.all(
      ids.map(async (id) => {
        const task = await registry.loadTask(id);
        const labels = await registry.loadLabels(id);
        const leaderboard = await registry.loadLeaderboard(id).catch(() => null);
        return [id, { meta: task.meta, labels, leaderboard }] as const;
      }),
    ),
  );
  const results = await run(programs.map((p) => ({ source: p.program, files: files.get(p.taskId)!, timeoutMs })));
  return results.map((r, i) => {
    const taskId = programs[i].taskId;
    const g = gradeRun(r, graders.get(taskId)!);
    if (g.status === 'ok') return { taskId, status: 'ok', y: runReward(g), value: g.value, seconds: r.seconds, workRule: r.workRule };
    // Failures keep the end of their traceback, invalid predictions the start of the grader's message.
    const error = g.status === 'invalid' ? g.message.slice(0, 300) : g.message.slice(-300);
    return { taskId, status: g.status, y: 0, seconds: r.seconds, workRule: r.workRule, error };
  });
}
