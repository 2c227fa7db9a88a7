// Executed outcomes on disk, one JSON line per (task, program), appended as each chunk of runs
// finishes. Executing thousands of sampled programs is the expensive part of the models pipeline,
// so an interrupted stage resumes where it stopped and a later stage (or a rebuild with another
// objective) reuses every outcome instead of running the program again.

import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { GradedRun } from './graded-runs.ts';
import { LEGACY_TRUSTED_FRACTION, WORK_RULE, type WorkRule } from '../sandbox-pyodide/work-rule.ts';

export interface StoredOutcome {
  key: string;
  taskId: string;
  /** the sandbox budget the outcome was measured under, in (calibrated) milliseconds */
  timeoutMs: number;
  /**
   * How the budget was counted: 'work' (a work budget); absent in outcomes measured before, when it
   * was wall-clock time.
   */
  budget?: 'work';
  /** Which work rule counted it (work-rule.ts); absent with budget 'work': rule 1. */
  workRule?: WorkRule;
  run: GradedRun;
}

/** The work rule a stored outcome was measured under; null for the old wall-clock budget. */
export function ruleOf(o: StoredOutcome): WorkRule | null {
  return o.workRule ?? (o.budget === 'work' ? 1 : null);
}

/**
 * Whether a stored outcome holds under the sandbox's rule now (WORK_RULE). One measured under it
 * does. One measured under an older rule (or the wall-clock budget) holds only where the two cannot
 * disagree: it did not time out, and it finished within LEGACY_TRUSTED_FRACTION of its budget, too
 * little time for its work count to reach the budget at the fastest rate measured for any kind of
 * program (a loaded machine only stretches the time a given work takes, so a stored time overstates
 * the work). The rest, timeouts and runs near the limit, run again.
 */
export function holdsUnderWorkBudget(o: StoredOutcome, rule: WorkRule = WORK_RULE): boolean {
  if (ruleOf(o) === rule) return true;
  return o.run.status !== 'timeout' && o.run.status !== 'unscored' && o.run.seconds * 1000 <= LEGACY_TRUSTED_FRACTION * o.timeoutMs;
}

/** Identity of a program on a task: the same text on the same task is the same experiment. */
export function outcomeKey(taskId: string, program: string, timeoutMs: number): string {
  return createHash('sha256').update(`${taskId}\u0000${timeoutMs}\u0000${program}`).digest('hex').slice(0, 32);
}

export class OutcomeStore {
  private readonly byKey = new Map<string, StoredOutcome>();

  constructor(private readonly path: string) {
    if (!existsSync(path)) return;
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      try {
        const o = JSON.parse(line) as StoredOutcome;
        this.byKey.set(o.key, o);
      } catch {
        // A line cut by an interrupted write is the only expected damage: its program runs again.
        if (i < lines.length - 1 && lines.slice(i + 1).some((l) => l.trim())) throw new Error(`${path}: line ${i + 1} is not JSON (the file is damaged in the middle, not just cut at the end)`);
      }
    });
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The outcome stored under `key`, if it holds under the sandbox's rule now (holdsUnderWorkBudget). */
  get(key: string): StoredOutcome | undefined {
    const o = this.byKey.get(key);
    return o && holdsUnderWorkBudget(o) ? o : undefined;
  }

  /** Appends outcomes (one line each) and keeps them in memory. */
  add(outcomes: readonly StoredOutcome[]): void {
    if (outcomes.length === 0) return;
    appendFileSync(this.path, outcomes.map((o) => JSON.stringify(o)).join('\n') + '\n');
    for (const o of outcomes) this.byKey.set(o.key, o);
  }
}

export interface ProgramOnTask {
  taskId: string;
  program: string;
}

/**
 * Runs every (task, program) the store does not hold yet (or holds only from the wall-clock era,
 * near its limit), in chunks, storing each chunk as it finishes; then returns the outcome of each
 * input in input order (repeats share one run). An unscored run (the backstop stopped it twice) is
 * returned but not stored: it is no verdict, so the next build runs it again.
 */
export async function executeWithStore(
  store: OutcomeStore,
  programs: readonly ProgramOnTask[],
  timeoutMs: number,
  run: (chunk: readonly ProgramOnTask[]) => Promise<GradedRun[]>,
  options: { chunk?: number; log?: (done: number, total: number) => void } = {},
): Promise<GradedRun[]> {
  const keys = programs.map((p) => outcomeKey(p.taskId, p.program, timeoutMs));
  const todo = new Map<string, ProgramOnTask>();
  programs.forEach((p, i) => {
    if (!store.get(keys[i]) && !todo.has(keys[i])) todo.set(keys[i], p);
  });
  const pending = [...todo.entries()];
  const size = options.chunk ?? 32;
  // This call's runs are returned as they ran, whatever rule counted them (the store keeps them too).
  const ranNow = new Map<string, GradedRun>();
  for (let s = 0; s < pending.length; s += size) {
    const chunk = pending.slice(s, s + size);
    const runs = await run(chunk.map(([, p]) => p));
    const fresh = chunk.map(([key, p], i): StoredOutcome => ({ key, taskId: p.taskId, timeoutMs, budget: 'work', workRule: runs[i].workRule, run: runs[i] }));
    for (const o of fresh) ranNow.set(o.key, o.run);
    store.add(fresh.filter((o) => o.run.status !== 'unscored'));
    options.log?.(Math.min(s + size, pending.length), pending.length);
  }
  return keys.map((k) => ranNow.get(k) ?? store.get(k)!.run);
}
