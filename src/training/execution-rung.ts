// Where a real run lands on the authors' reward ladder (wmrl/reward-ladder.ts), read from what the
// sandbox and the grader reported, and the real reward of a run under either reward rule.

import { ladderReward, type Rung } from '../wmrl/reward-ladder.ts';
import type { ExecutionResult } from './ports.ts';
import { REJECTED_MESSAGE_PREFIX } from './static-checks.ts';

/** The real reward of an executed program: the leaderboard percentile (ours) or the authors' ladder. */
export type RewardRule = 'percentile' | 'ladder';

/**
 * A failed program's message says it never compiled: the interpreter's words (the runner compiles
 * before it executes, so a SyntaxError there is the program's text) or the static check's. A program
 * that raises SyntaxError itself is read as not compiling too, which only lowers its reward.
 */
export function isCompileFailure(message: string | null | undefined): boolean {
  return /\b(SyntaxError|IndentationError|TabError)\b/.test(message ?? '') || (message ?? '').startsWith(`${REJECTED_MESSAGE_PREFIX}does not compile`);
}

export function rungOf(r: Pick<ExecutionResult, 'status' | 'message'>): Rung {
  switch (r.status) {
    case 'ok':
      return 'valid';
    case 'invalid':
      return 'no-submission';
    case 'error':
      return isCompileFailure(r.message) ? 'no-compile' : 'failed';
    default:
      return 'failed';
  }
}

/** The reward the method sees for a real run. */
export function realReward(r: Pick<ExecutionResult, 'status' | 'message' | 'score'>, rule: RewardRule): number {
  return rule === 'ladder' ? ladderReward(rungOf(r), r.score) : r.score;
}
