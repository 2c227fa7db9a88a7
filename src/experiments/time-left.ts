// How long an experiment still has to run, from the runs it has finished: each remaining run is
// expected to take the median wall time of the finished runs of its own preset (presets differ by
// far more than seeds do: grpo-all-real executes every program, the SFT row trains nothing), else of
// all finished training runs. Null until there is something to go on.
import { medianOf } from '../primitives/median.ts';

export interface FinishedRun {
  preset: string;
  kind: 'sft' | 'train';
  wallMs: number;
}

export interface RemainingRun {
  preset: string;
  kind: 'sft' | 'train';
}

/** Expected milliseconds left, or null when some remaining run has no finished run to be judged by. */
export function estimateTimeLeft(finished: readonly FinishedRun[], remaining: readonly RemainingRun[]): number | null {
  let total = 0;
  for (const r of remaining) {
    const same = finished.filter((f) => f.preset === r.preset && f.kind === r.kind && Number.isFinite(f.wallMs));
    const kind = finished.filter((f) => f.kind === r.kind && Number.isFinite(f.wallMs));
    const basis = same.length > 0 ? same : kind;
    if (basis.length === 0) return null;
    total += medianOf(basis.map((f) => f.wallMs));
  }
  return total;
}

/** "1 h 05 min", "12 min", "40 s". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
}
