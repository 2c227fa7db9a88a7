// The programs of a sampling call as the page shows them while the policy writes them: each
// finished program's text, the one being written, the counts. Folded from the session's
// SamplingEvents; pure, so it is tested without a browser.
import type { SamplingEvent } from '../../app/create-trainer.ts';

/** One sampling call seen so far: every finished program's text, and the one being written. */
export interface LiveSampling {
  what: SamplingEvent['what'];
  step: number;
  startedAt: number;
  taskIds: readonly string[];
  /** Per request: its text once finished, null while it is written. */
  programs: readonly (string | null)[];
  current: { index: number; program: string } | null;
  done: number;
  total: number;
  tokens: number;
  /** performance.now() of the latest report. */
  at: number;
}

/** `prev` with `e` folded in (a new call when it began at another time). */
export function liveSampling(prev: LiveSampling | null, e: SamplingEvent, now: number): LiveSampling {
  const same = prev !== null && prev.startedAt === e.startedAt;
  const programs = same ? [...prev.programs] : new Array<string | null>(e.progress.total).fill(null);
  for (const f of e.progress.finished) programs[f.index] = f.program;
  return {
    what: e.what, step: e.step, startedAt: e.startedAt, taskIds: e.taskIds.length > 0 ? e.taskIds : (same ? prev.taskIds : []),
    programs, current: e.progress.current, done: e.progress.done, total: e.progress.total, tokens: e.progress.tokens, at: now,
  };
}

/** The programs by group of n (a step's groups), each with its task and the programs finished so far. */
export function liveGroups(live: LiveSampling, n: number): { taskId: string; written: number; programs: string[] }[] {
  const out: { taskId: string; written: number; programs: string[] }[] = [];
  for (let start = 0; start < live.programs.length; start += n) {
    const mine = live.programs.slice(start, start + n);
    const programs = mine.filter((p): p is string => p !== null);
    out.push({ taskId: live.taskIds[start] ?? '…', written: programs.length, programs });
  }
  return out;
}

/** Tokens per second so far, null before any time has passed. */
export function tokenRate(live: Pick<LiveSampling, 'tokens' | 'startedAt' | 'at'>): number | null {
  const s = (live.at - live.startedAt) / 1000;
  return s > 0 ? live.tokens / s : null;
}
