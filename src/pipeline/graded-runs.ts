// Runs programs on their tasks through an executor (the browser sandbox for untrusted programs) and
// grades them here with the hidden labels: y = leaderboard percentile, 0 when the program fails,
// times out or writes invalid predictions (trueScore).

import { missingPredictionsMessage, type SandboxJob, type SandboxResult } from '../sandbox-pyodide/protocol.ts';
import { gradePredictions, trueScore } from '../tasks/grader.ts';
import type { GradeResult } from '../tasks/grader.ts';
import { scorePredictions } from '../tasks/leaderboard.ts';
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
    if (r.status !== 'ok') return { taskId, status: r.status, y: 0, seconds: r.seconds, error: (r.traceback ?? r.reason ?? r.status).slice(-300) };
    if (r.predictionsCsv === undefined) return { taskId, status: 'invalid', y: 0, seconds: r.seconds, error: missingPredictionsMessage(r) };
    const gt = graders.get(taskId)!;
    if (!gt.leaderboard) {
      const s = scorePredictions(gt.meta, gt.labels, r.predictionsCsv);
      return s.ok ? { taskId, status: 'ok', y: Number.NaN, value: s.value, seconds: r.seconds } : { taskId, status: 'invalid', y: 0, seconds: r.seconds, error: s.message.slice(0, 300) };
    }
    const g: GradeResult = gradePredictions({ meta: gt.meta, labels: gt.labels, leaderboard: gt.leaderboard }, r.predictionsCsv);
    if (g.status !== 'ok') return { taskId, status: 'invalid', y: 0, seconds: r.seconds, error: g.message.slice(0, 300) };
    return { taskId, status: 'ok', y: trueScore(g), value: g.value, seconds: r.seconds };
  });
}
