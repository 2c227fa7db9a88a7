// A sandbox result read against a task's hidden labels: the one place that decides whether a run is
// ok (graded, with its percentile when the task has a leaderboard), invalid (it ran but left no
// gradable predictions) or failed (the sandbox's own status). The trainer's executor, the
// Playground, the models pipeline and `npm run score` each format the outcome their own way.

import { gradePredictions, type GraderTask } from '../tasks/grader.ts';
import type { Medal } from '../tasks/medals.ts';
import { missingPredictionsMessage, type SandboxResult, type SandboxStatus } from './protocol.ts';

export type RunGrade =
  /** percentile and medal are null when the task has no leaderboard (validity only). */
  | { status: 'ok'; value: number; percentile: number | null; medal: Medal | null }
  | { status: 'invalid'; message: string }
  /** message: the traceback, else the pool's reason, else the status in words. */
  | { status: Exclude<SandboxStatus, 'ok'>; message: string };

export interface RunGradeTask extends Omit<GraderTask, 'leaderboard'> {
  leaderboard: GraderTask['leaderboard'] | null;
}

export function gradeRun(result: SandboxResult, task: RunGradeTask): RunGrade {
  if (result.status !== 'ok') {
    return { status: result.status, message: result.traceback ?? result.reason ?? `the run ended with status ${result.status}` };
  }
  if (result.predictionsCsv === undefined) return { status: 'invalid', message: missingPredictionsMessage(result) };
  const graded = gradePredictions({ ...task, leaderboard: task.leaderboard ?? { entries: [] } }, result.predictionsCsv);
  if (graded.status !== 'ok') return { status: 'invalid', message: graded.message };
  const ranked = task.leaderboard !== null;
  return { status: 'ok', value: graded.value, percentile: ranked ? graded.percentile : null, medal: ranked ? graded.medal : null };
}

/** The reward of a graded run (the grader's trueScore rule): its percentile, 0 when it failed or was invalid; NaN without a leaderboard. */
export function runReward(g: RunGrade): number {
  return g.status === 'ok' ? (g.percentile ?? Number.NaN) : 0;
}
