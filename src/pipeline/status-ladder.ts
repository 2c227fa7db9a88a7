// The authors' status ladder (WMRL's reference code, ../docs/models.md "Fidelity on the ladder"):
// what became of a program, in five ordered statuses, and the reward their real-execution path pays
// for each. Used by wm-eval to measure the world model the way the authors measured theirs.
//   malformed 0 (no program text at all: the authors' response without a code block)
//   syntax error 0 (does not compile)
//   runtime error 0.1 (compiles but fails: an exception, a timeout, a cap)
//   ran without submission 0.2 (finished without a valid predictions file)
//   valid 0.5 + 0.5 x leaderboard position (our y, the percentile)

import type { GradedRun } from './graded-runs.ts';

export const LADDER_STATUSES = ['malformed', 'syntax error', 'runtime error', 'ran without submission', 'valid'] as const;
export type LadderStatus = (typeof LADDER_STATUSES)[number];

/** A program's status from its text, whether Python compiles it, and the sandbox's outcome. */
export function ladderStatus(program: string, compiles: boolean, status: GradedRun['status']): LadderStatus {
  if (program.trim() === '') return 'malformed';
  if (!compiles) return 'syntax error';
  if (status === 'ok') return 'valid';
  if (status === 'invalid') return 'ran without submission';
  return 'runtime error';
}

/** The ladder's reward; y (the leaderboard position in [0, 1]) counts only for a valid program. */
export function ladderReward(status: LadderStatus, y: number): number {
  switch (status) {
    case 'malformed':
    case 'syntax error':
      return 0;
    case 'runtime error':
      return 0.1;
    case 'ran without submission':
      return 0.2;
    case 'valid':
      if (!(y >= 0 && y <= 1)) throw new RangeError(`ladder reward: a valid program's position must be in [0, 1], got ${y}`);
      return 0.5 + 0.5 * y;
  }
}
