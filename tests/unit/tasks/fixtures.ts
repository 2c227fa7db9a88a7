// Small synthetic tables for task tests, built from a seeded generator so tests are reproducible.

import { writeCsv } from '../../../src/tasks/csv.ts';
import { TaskDataError } from '../../../src/tasks/task-errors.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';

export function syntheticCsv(opts: { rows: number; seed?: number; kind: 'binary' | 'multiclass' | 'regression' }): string {
  const rng = mulberry32(opts.seed ?? 7);
  const header = ['width', 'colour', 'weight', 'label'];
  const colours = ['red', 'green, dark', 'blue "navy"'];
  const rows: string[][] = [];
  for (let i = 0; i < opts.rows; i++) {
    const w = rng() * 10;
    const c = colours[Math.floor(rng() * 3)];
    const weight = rng() < 0.1 ? '' : (rng() * 5).toFixed(3);
    let y: string;
    if (opts.kind === 'binary') y = w + rng() * 4 > 8 ? 'yes' : 'no';
    else if (opts.kind === 'multiclass') y = ['cat', 'dog', 'eel'][Math.min(2, Math.floor(w / 3.4))];
    else y = (2 * w + rng()).toFixed(4);
    rows.push([w.toFixed(4), c, weight, y]);
  }
  return writeCsv(header, rows);
}

/** The TaskDataError `fn` throws; fails the test when it throws nothing or something else. */
export function taskErrorOf(fn: () => unknown): TaskDataError {
  try {
    fn();
  } catch (e) {
    if (e instanceof TaskDataError) return e;
    throw e;
  }
  throw new Error('expected a TaskDataError');
}
