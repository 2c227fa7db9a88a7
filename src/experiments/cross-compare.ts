// Paired comparisons across experiment folders: e.g. wmrl of a sensitivity run against
// grpo-all-real of the main run, seed by seed. Pairing is only meaningful when both sides were
// evaluated the same way (same k, tasks, sampling temperature and evaluation seeds), so that is
// checked first; the arithmetic is pairedComparison's.

import { pairedComparison, type MetricKey, type PairedComparison } from './aggregate.ts';
import type { RunResult } from './run-result.ts';

/** One side of a comparison: the runs of one preset in one folder. */
export interface ComparisonSide {
  /** e.g. 'results/main:grpo-all-real' */
  label: string;
  runs: readonly RunResult[];
}

/** Why two sides' held-out evaluations do not pair up; null when they do. */
export function evaluationMismatch(a: ComparisonSide, b: ComparisonSide): string | null {
  const key = (r: RunResult) => JSON.stringify({ k: r.request.evalK, tasks: r.request.evalTaskIds, t: r.request.config.sampling.temperature, tokens: r.request.config.sampling.maxNewTokens });
  for (const ra of a.runs) {
    const rb = b.runs.find((x) => x.seed === ra.seed);
    if (rb && key(ra) !== key(rb)) return `seed ${ra.seed}: ${a.label} was evaluated with ${key(ra)}, ${b.label} with ${key(rb)}`;
  }
  return null;
}

/** a versus b seed by seed; throws when their evaluations do not pair up. */
export function compareSides(a: ComparisonSide, b: ComparisonSide, metric: MetricKey, kind: 'ratio' | 'difference'): PairedComparison {
  const why = evaluationMismatch(a, b);
  if (why) throw new Error(`not comparable: ${why}`);
  const relabel = (side: ComparisonSide) => side.runs.map((r) => ({ ...r, preset: side.label }));
  return pairedComparison([...relabel(a), ...relabel(b)], a.label, b.label, metric, kind);
}
