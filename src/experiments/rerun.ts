// A rerun folder: some of an experiment's runs run again alone on the machine, for the compute
// accounting (docs/results.md, "Compute alone"). Rewards count work, not time, so each rerun must do
// what its twin did, timings aside; only its busy times may differ. This checks that and gives the
// compute ratio both ways on the same seeds: measured alone, and as the table measured it beside
// other work.
import { pairedComparison, runMetrics, type PairedComparison } from './aggregate.ts';
import { MAIN_TABLE_TESTS } from './main-table.ts';
import { behaviourDifferences } from './run-behaviour.ts';
import type { RunResult } from './run-result.ts';

export interface RerunComparison {
  /** The folder whose runs were rerun, relative to the project (e.g. results/main-v3). */
  of: string;
  /** Reruns that have a twin there (same preset and seed, both finished). */
  compared: number;
  /** Reruns without a twin, as "preset seed N". */
  withoutTwin: string[];
  /** The first differences in behaviour, "preset seed N: path: x vs y"; empty when every rerun did what its twin did. */
  differences: string[];
  /** The compute ratio (busy time, a over b) of the pair both folders hold; null when the reruns hold no such pair. */
  compute: {
    /** measured alone, seed by seed */
    alone: PairedComparison;
    /** the twins of the same seeds, as the folder measured them */
    table: PairedComparison;
    /** host load per core (mean over a run), lowest and highest over the runs of the pair */
    loadAlone: [number, number] | null;
    loadTable: [number, number] | null;
  } | null;
}

/** The pairs a compute ratio is read for: the main table's A1, then the older claim 1. */
export const COMPUTE_PAIRS: readonly [string, string][] = [
  ...MAIN_TABLE_TESTS.filter((t) => t.metric === 'busyTotal' && t.kind === 'ratio').map((t): [string, string] => [t.a, t.b]),
  ['grpo-all-real', 'wmrl'],
];

const label = (r: Pick<RunResult, 'preset' | 'seed'>) => `${r.preset} seed ${r.seed}`;

function loadRange(runs: readonly RunResult[]): [number, number] | null {
  const loads = runs.map((r) => runMetrics(r).hostLoad).filter((x): x is number => x !== undefined);
  return loads.length > 0 ? [Math.min(...loads), Math.max(...loads)] : null;
}

/** Compares the finished reruns with their twins among `table` (the rerun folder's runs against the folder they rerun). */
export function compareRerun(of: string, reruns: readonly RunResult[], table: readonly RunResult[], limit = 10): RerunComparison {
  const done = reruns.filter((r) => r.status === 'ok');
  const twins = new Map(table.filter((t) => t.status === 'ok').map((t) => [label(t), t]));
  const paired = done.filter((r) => twins.has(label(r)));
  const differences: string[] = [];
  for (const r of paired) {
    if (differences.length >= limit) break;
    for (const d of behaviourDifferences(r, twins.get(label(r)), limit - differences.length)) differences.push(`${label(r)}: ${d}`);
  }
  const pair = COMPUTE_PAIRS.find(([a, b]) => paired.some((r) => r.preset === a) && paired.some((r) => r.preset === b));
  let compute: RerunComparison['compute'] = null;
  if (pair) {
    const alone = pairedComparison(paired, pair[0], pair[1], 'busyTotal', 'ratio');
    // the same seeds in the table, so that the two ratios are of the same runs' work
    const ofPair = paired.filter((r) => alone.seeds.includes(r.seed) && pair.includes(r.preset));
    const theirTwins = ofPair.map((r) => twins.get(label(r))!);
    compute = { alone, table: pairedComparison(theirTwins, pair[0], pair[1], 'busyTotal', 'ratio'), loadAlone: loadRange(ofPair), loadTable: loadRange(theirTwins) };
  }
  return { of, compared: paired.length, withoutTwin: done.filter((r) => !twins.has(label(r))).map(label), differences, compute };
}
