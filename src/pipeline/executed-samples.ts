// Executed policy samples as a JSON-lines file: one line per sampled program with its real outcome.
// The world model's validation populations are stored this way (npm run wm-eval reads them), so a
// model can be re-scored on the same programs without sampling or running anything again.

import { readFileSync, writeFileSync } from 'node:fs';
import type { GradedRun } from './graded-runs.ts';

export interface ExecutedSample {
  taskId: string;
  card: string;
  index: number;
  temperature: number;
  program: string;
  stopped: boolean;
  status: GradedRun['status'];
  /** true score in [0, 1] (leaderboard percentile, 0 on failure) */
  y: number;
  value?: number;
  error?: string;
  seconds: number;
}

export function toExecutedSample(r: { taskId: string; card: string; index: number; temperature: number; program: string; stopped: boolean; run?: GradedRun }): ExecutedSample {
  if (!r.run) throw new Error(`sample ${r.taskId}#${r.index} was not executed`);
  const { status, y, value, error, seconds } = r.run;
  return { taskId: r.taskId, card: r.card, index: r.index, temperature: r.temperature, program: r.program, stopped: r.stopped, status, y, ...(value !== undefined ? { value } : {}), ...(error ? { error } : {}), seconds };
}

export function writeExecutedSamples(path: string, samples: readonly ExecutedSample[]): void {
  writeFileSync(path, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
}

export function readExecutedSamples(path: string): ExecutedSample[] {
  const text = readFileSync(path, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((line, i) => {
      let s: ExecutedSample;
      try {
        s = JSON.parse(line) as ExecutedSample;
      } catch {
        throw new Error(`${path}: line ${i + 1} is not JSON`);
      }
      if (typeof s.taskId !== 'string' || typeof s.program !== 'string' || typeof s.y !== 'number' || typeof s.status !== 'string') throw new Error(`${path}: line ${i + 1} lacks taskId, program, status or y`);
      return s;
    });
}
