// Small real-data fixtures for the toolkit: a seeded split of a data set from data/datasets
// into the three files a program reads, plus the hidden test labels for scoring.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCsv, writeCsv } from '../../../src/tasks/csv.ts';
import { mulberry32, shuffleInPlace } from '../../../src/primitives/random.ts';

export interface ManifestEntry {
  id: string;
  file: string;
  target: string;
  task: 'regression' | 'binary' | 'multiclass';
  metric: string;
  positive?: string;
}

export interface SplitTask {
  entry: ManifestEntry;
  trainCsv: string;
  testCsv: string;
  taskJson: string;
  labels: string[];
}

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const DATASETS_DIR = join(REPO, 'data', 'datasets');

export function manifest(): ManifestEntry[] {
  return JSON.parse(readFileSync(join(DATASETS_DIR, 'manifest.json'), 'utf8')) as ManifestEntry[];
}

/** Deterministic shuffle (mulberry32) so the split does not depend on anything but the seed. */
function shuffled(n: number, seed: number): number[] {
  return shuffleInPlace(mulberry32(seed), Array.from({ length: n }, (_, i) => i));
}

/** Split a manifest data set: test share `testFraction`, train rows capped at `trainCap`. */
export function splitDataset(id: string, seed = 1, testFraction = 0.3, trainCap = 1200, testCap = 600): SplitTask {
  const entry = manifest().find((e) => e.id === id);
  if (!entry) throw new Error(`no data set ${id}`);
  const table = parseCsv(readFileSync(join(DATASETS_DIR, entry.file), 'utf8'));
  const t = table.header.indexOf(entry.target);
  const order = shuffled(table.rows.length, seed);
  const nTest = Math.min(testCap, Math.round(table.rows.length * testFraction));
  const testRows = order.slice(0, nTest).map((i) => table.rows[i]);
  const trainRows = order.slice(nTest, nTest + trainCap).map((i) => table.rows[i]);
  const features = table.header.filter((_, j) => j !== t);
  const trainCsv = writeCsv([...features, entry.target], trainRows.map((r) => [...r.filter((_, j) => j !== t), r[t]]));
  const testCsv = writeCsv(features, testRows.map((r) => r.filter((_, j) => j !== t)));
  const taskJson = JSON.stringify({ target: entry.target, type: entry.task, metric: entry.metric, positive: entry.positive });
  return { entry, trainCsv, testCsv, taskJson, labels: testRows.map((r) => r[t]) };
}
