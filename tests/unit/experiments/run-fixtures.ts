// Run files for the experiment tests: a RunResult with a held-out score and a training cost sheet,
// the parts the tables and claims read.
import { SFT_PRESET, type RunResult } from '../../../src/experiments/run-result.ts';
import { presetConfig, type PresetId } from '../../../src/training/presets.ts';
import { emptyCost, type CostSheet } from '../../../src/training/cost.ts';
import type { EvaluationResult } from '../../../src/training/evaluate.ts';

export function evaluation(avg: number, medal = 0): EvaluationResult {
  return { k: 2, seed: 1, tasks: [{ taskId: 'a', scores: [avg, avg], statuses: ['ok', 'ok'], medals: [null, null], avg, anyMedal: medal > 0 }], avgAtK: avg, medalRate: medal, anyMedalRate: medal > 0 ? 1 : 0, validRunRate: 1, cost: emptyCost() };
}

export function cost(busy: { policySampling: number; worldModel: number; sandbox: number; policyUpdate: number }, wall: number, executions: number, forwards: number): CostSheet {
  const c = emptyCost();
  c.busyMs = { ...busy, sandboxStart: 0, verifier: 0 };
  c.totalBusyMs = busy.policySampling + busy.worldModel + busy.sandbox + busy.policyUpdate;
  c.wallMs = wall;
  c.counts.executions = executions;
  c.counts.worldModelForwards = forwards;
  return c;
}

export function run(preset: string, seed: number, avg: number, training: CostSheet | null, status: 'ok' | 'failed' = 'ok'): RunResult {
  // 'sft' and rows like 'sft-larger' are evaluations of a starting policy
  const kind = preset.startsWith(SFT_PRESET) ? 'sft' : 'train';
  const config = presetConfig((kind === 'sft' ? 'wmrl' : preset) as PresetId, { seed, steps: 3 });
  return {
    format: 'wmrl-experiment-run', version: 1, kind, preset, seed, status, error: status === 'ok' ? null : 'boom, "quoted"\nsecond line',
    request: { kind, preset, seed, config, evalK: 2, evalTaskIds: null, models: 'tiny', poolSize: 1, executionTimeoutMs: 1000, keepPrograms: false },
    environment: null, records: [], evaluation: status === 'ok' ? evaluation(avg) : null, training: status === 'ok' ? training : null,
    startupMs: 1000, wallMs: 5000, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:05.000Z',
  };
}
