// The authors' reward ladder (their grader; docs/method.md "As the authors built it"). A real run is
// placed on one rung, and only a valid submission earns more than a fixed amount:
//
//   does not compile                         0
//   compiles but fails (error, timeout, cap) 0.1
//   ran, but wrote no valid submission       0.2
//   valid submission                         0.5 + 0.5 x leaderboard position
//
// Unlike the percentile (every failure 0), the ladder ranks the ways of failing, so a group whose
// programs all fail can still teach "compile first, then run, then write the file".

/** Where a real run lands, from worst to best. */
export type Rung = 'no-compile' | 'failed' | 'no-submission' | 'valid';

export const RUNGS: readonly Rung[] = ['no-compile', 'failed', 'no-submission', 'valid'];

/** The fixed rewards of the failing rungs and the floor and span of the valid one. */
export const LADDER = { noCompile: 0, failed: 0.1, noSubmission: 0.2, validFloor: 0.5, validSpan: 0.5 } as const;

/** The ladder reward of one run: `position` in [0, 1] (the leaderboard percentile) counts only when valid. */
export function ladderReward(rung: Rung, position: number): number {
  switch (rung) {
    case 'no-compile':
      return LADDER.noCompile;
    case 'failed':
      return LADDER.failed;
    case 'no-submission':
      return LADDER.noSubmission;
    case 'valid':
      if (!(position >= 0 && position <= 1)) throw new RangeError(`leaderboard position must lie in [0, 1], got ${position}`);
      return LADDER.validFloor + LADDER.validSpan * position;
  }
}
