// The Playground's grading side: runs on the page's main thread, where the task's hidden labels are
// loaded; the sandbox worker only ever saw the program and the three input files. A run that fails
// or writes invalid predictions scores 0 when there is a leaderboard (the grader's trueScore rule).
import type { Leaderboard } from '../../tasks/leaderboard.ts';
import type { Medal } from '../../tasks/medals.ts';
import type { TaskRegistry } from '../../tasks/task-registry.ts';
import type { SandboxResult } from '../../sandbox-pyodide/protocol.ts';
import { gradeRun, runReward } from '../../sandbox-pyodide/run-grade.ts';

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

export async function gradePlaygroundRun(registry: TaskRegistry, taskId: string, result: SandboxResult): Promise<RunOutcome> {
  const [{ meta }, labels, leaderboard] = await Promise.all([registry.loadTask(taskId), registry.loadLabels(taskId), leaderboardOf(registry, taskId)]);
  const g = gradeRun(result, { meta, labels, leaderboard });
  return {
    result,
    value: g.status === 'ok' ? g.value : null,
    percentile: leaderboard ? runReward(g) : null,
    medal: g.status === 'ok' ? g.medal : null,
    leaderboardSize: leaderboard ? leaderboard.entries.length : null,
    problem: g.status === 'ok' ? null : g.message,
  };
}
