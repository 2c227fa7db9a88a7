// How long a leaderboard build has left, honestly. Reference programs differ in cost by two orders of
// magnitude (a constant runs in milliseconds, a 60-tree forest for seconds) and the population is
// grouped by family, so a pace measured on the first, cheap programs promises seconds for a build of
// minutes. The committed suite leaderboards record each program's run time: a program's typical share
// of a build is its median share over the suite's boards of the same task type, and the time left is
// the time so far scaled by the shares still to run.
import { medianOf } from '../../primitives/median.ts';

export interface RecordedBuild {
  programIds: readonly string[];
  programSeconds: readonly number[];
  /** Wall-clock seconds of the whole build, its worker count and the task's training rows. */
  seconds: number;
  jobs: number;
  nTrain: number;
}

/** Each program's median share of its build's summed run time, over the recorded builds that ran it. */
export function costShares(builds: readonly RecordedBuild[]): Map<string, number> {
  const per = new Map<string, number[]>();
  for (const b of builds) {
    const total = b.programSeconds.reduce((a, x) => a + x, 0);
    if (!(total > 0) || b.programIds.length !== b.programSeconds.length) continue;
    b.programIds.forEach((id, i) => per.set(id, [...(per.get(id) ?? []), b.programSeconds[i] / total]));
  }
  return new Map([...per].map(([id, shares]) => [id, medianOf(shares)]));
}

/**
 * Seconds left of a build of `programIds` with `done` finished after `elapsedS`: the elapsed time
 * scaled by the cost still to run over the cost run so far. A program no build recorded counts as
 * the median program. Null until a program with a positive cost has finished.
 */
export function buildSecondsLeft(shares: ReadonlyMap<string, number>, programIds: readonly string[], done: ReadonlySet<string>, elapsedS: number): number | null {
  const typical = shares.size > 0 ? medianOf([...shares.values()]) : 1;
  const cost = (id: string): number => shares.get(id) ?? typical;
  let doneCost = 0;
  let total = 0;
  for (const id of programIds) {
    total += cost(id);
    if (done.has(id)) doneCost += cost(id);
  }
  if (!(doneCost > 0) || !(elapsedS >= 0)) return null;
  return (elapsedS * (total - doneCost)) / doneCost;
}

/**
 * Before anything has run: the recorded builds' times, each scaled to this task's training rows and
 * worker count (cost grows about linearly with rows for the tree ensembles that dominate), as a range
 * and its median. Rough by design: the page says so.
 */
export function firstBuildEstimate(builds: readonly RecordedBuild[], nTrain: number, jobs: number): { low: number; median: number; high: number } | null {
  const scaled = builds.filter((b) => b.seconds > 0 && b.nTrain > 0 && b.jobs > 0).map((b) => (b.seconds * (nTrain / b.nTrain) * b.jobs) / Math.max(1, jobs));
  if (scaled.length === 0 || !(nTrain > 0)) return null;
  return { low: Math.min(...scaled), median: medianOf(scaled), high: Math.max(...scaled) };
}
