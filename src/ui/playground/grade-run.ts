// The Playground's grading side: runs on the page's main thread, where the task's hidden labels are
// loaded; the sandbox worker only ever saw the program and the three input files. A run that fails
// or writes invalid predictions scores 0 when there is a leaderboard (the grader's trueScore rule).
import { gradePredictions, type GradeResult } from '../../tasks/grader';
import type { Leaderboard } from '../../tasks/leaderboard';
import type { Medal } from '../../tasks/medals';
import type { TaskRegistry } from '../../tasks/task-registry';
import { missingPredictionsMessage, type SandboxResult } from '../../sandbox-pyodide/protocol';

export interface RunOutcome {
  result: SandboxResult;
  /** Metric value, when the predictions graded. */
  value: number | null;
  /** Share of the leaderboard beaten (0 for a failed run); null without a leaderboard. */
  percentile: number | null;
  medal: Medal | null;
  leaderboardSize: number | null;
  /** Why the run has no metric: the traceback, the pool's reason, or the grader's message. */
  problem: string | null;
}

/** Loads the leaderboard if the task has one (a held-out task may not be built yet; a CSV task until its build ends). */
async function leaderboardOf(registry: TaskRegistry, taskId: string): Promise<Leaderboard | null> {
  try {
    return await registry.loadLeaderboard(taskId);
  } catch {
    return null;
  }
}

export async function gradeRun(registry: TaskRegistry, taskId: string, result: SandboxResult): Promise<RunOutcome> {
  const [{ meta }, labels, leaderboard] = await Promise.all([registry.loadTask(taskId), registry.loadLabels(taskId), leaderboardOf(registry, taskId)]);
  let graded: GradeResult | null = null;
  let problem: string | null = null;
  if (result.status !== 'ok') problem = result.traceback ?? result.reason ?? `the run ended with status ${result.status}`;
  else if (result.predictionsCsv === undefined) problem = missingPredictionsMessage(result);
  else {
    graded = gradePredictions({ meta, labels, leaderboard: leaderboard ?? { entries: [] } }, result.predictionsCsv);
    if (graded.status === 'invalid') problem = graded.message;
  }
  const ok = graded?.status === 'ok' ? graded : null;
  return {
    result,
    value: ok ? ok.value : null,
    percentile: leaderboard ? (ok ? ok.percentile : 0) : null,
    medal: leaderboard && ok ? ok.medal : null,
    leaderboardSize: leaderboard ? leaderboard.entries.length : null,
    problem,
  };
}
