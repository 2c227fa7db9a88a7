// This project's measured results, as `npm run experiment` summarised them (results/<name>/summary.json,
// published to /results/ at build time). Only reads and selects: every number comes from the file.
import type { MetricKey, PresetSummary, PairedComparison } from '../../experiments/aggregate';
import type { MeanInterval } from '../../experiments/interval';

export interface ExperimentSummary {
  format: 'wmrl-experiment-summary';
  version: 1;
  command: string;
  presets: PresetSummary[];
  claim1BusyRatio?: PairedComparison;
  /** wmrl-unreadable minus wmrl, mean anchor weight w_A (the claim-5 control); interval null when not both ran. */
  claim5AnchorWeight?: PairedComparison;
}

export interface ResultsIndex {
  format: 'wmrl-results-index';
  version: 1;
  results: { name: string; file: string; command: string; presets: string[] }[];
}

export interface OurRow {
  preset: string;
  seeds: number;
  heldOut: MeanInterval | null;
  busyTotal: MeanInterval | null;
  executions: MeanInterval | null;
}

const metric = (p: PresetSummary, k: MetricKey): MeanInterval | null => p.metrics[k] ?? null;

/** Rows in the summary's order (the SFT starting point first). */
export function ourRows(summary: ExperimentSummary): OurRow[] {
  return summary.presets.map((p) => ({
    preset: p.preset,
    seeds: p.seeds.length,
    heldOut: metric(p, 'heldOut'),
    busyTotal: metric(p, 'busyTotal'),
    executions: metric(p, 'executions'),
  }));
}

/** "17.2 [9.6, 24.8]", or the mean alone for one seed. */
export function formatInterval(m: MeanInterval | null, digits = 1): string {
  if (!m) return '–';
  if (m.low === null || m.high === null) return m.mean.toFixed(digits);
  return `${m.mean.toFixed(digits)} [${m.low.toFixed(digits)}, ${m.high.toFixed(digits)}]`;
}

/** The published index; null when this build publishes no results. */
export async function loadResultsIndex(base = 'results/'): Promise<ResultsIndex | null> {
  const res = await fetch(`${base}index.json`);
  if (!res.ok) return null;
  return (await res.json()) as ResultsIndex;
}

/** One published summary by its index entry. */
export async function loadSummary(entry: ResultsIndex['results'][number], base = 'results/'): Promise<ExperimentSummary> {
  const s = await fetch(`${base}${entry.file}`);
  if (!s.ok) throw new Error(`results/${entry.file}: HTTP ${s.status}`);
  return (await s.json()) as ExperimentSummary;
}

/** The entry shown first: the main experiment when there is one, else the first in the index. */
export function defaultEntry(index: ResultsIndex): ResultsIndex['results'][number] | null {
  return index.results.find((r) => r.name === 'main') ?? index.results[0] ?? null;
}
