// npm run wm-eval on the committed models and the stored executed samples: the validation table
// is computed from the files (one row per population), with the free verifier in front of it on
// request, and a broken samples file is named.
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'wmrl-wm-eval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function wmEval(...args: string[]): { code: number | null; out: string; err: string } {
  // A small fitting set and few resamples keep each run short; the figures are not what is tested.
  const r = runCli('src/cli/wm-eval.ts', ['--fit-programs', '60', '--resamples', '50', ...args]);
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('npm run wm-eval', () => {
  // The plain report (AUC, reliability) is checked in the baselines run below, which prints it too.
  it('prints the baselines beside the world model, fitted on training tasks, pooled and at the RL temperature', { timeout: 600_000 }, () => {
    const r = wmEval('--samples', 'data/wm-eval/policy-v1-heldout.jsonl', '--samples', 'public/models/heldout-samples.jsonl', '--json');
    expect(r.code, r.err).toBe(0);
    type Interval = { value: number; low: number; high: number };
    type Row = { name: string; auc: Interval; pairwise: Interval; statusAt1: Interval; statusAt2: Interval; ladderMae: Interval };
    const o = JSON.parse(r.out) as {
      fit: { programs: number; of: number; missing: number };
      baselines: { population: string; temperature: number | null; counts: { programs: number; failed: number }; rows: Row[] }[];
      reports: { samples: string; report: { programs: number; valid: number; failed: number; aucValidVsFailed: number; reliability: { n: number }[] } }[];
    };
    // one report per population: the first policy's 144 samples are 137 distinct (task, program) pairs
    expect(o.reports).toHaveLength(2);
    const rep = o.reports[0].report;
    expect(rep.programs).toBe(137);
    expect(rep.valid + rep.failed).toBe(137);
    expect(rep.aucValidVsFailed).toBeGreaterThanOrEqual(0);
    expect(rep.aucValidVsFailed).toBeLessThanOrEqual(1);
    expect(rep.reliability.reduce((a, b) => a + b.n, 0)).toBe(137);
    expect(o.fit.programs).toBe(60);
    // the build's 3,153 training programs, less the wall-clock-era outcomes the store holds back
    expect(o.fit.of + o.fit.missing).toBe(3153);
    // the first policy's file has one temperature; this policy's two, so it also gets its T 0.6 row
    expect(o.baselines.map((b) => b.temperature)).toEqual([null, null, 0.6]);
    expect(o.baselines[0].counts.programs).toBe(137);
    const names = o.baselines[0].rows.map((x) => x.name);
    for (const n of ['constant', 'compile()', 'static verifier', 'model-family lookup', 'family x task-type lookup', 'world model', 'world model behind `compile()`']) expect(names.some((x) => x.includes(n))).toBe(true);
    for (const b of o.baselines) {
      for (const row of b.rows) {
        expect(row.statusAt2.value).toBeGreaterThanOrEqual(row.statusAt1.value);
        expect(row.ladderMae.value).toBeGreaterThanOrEqual(0);
        if (Number.isFinite(row.auc.value)) expect(row.auc.low).toBeLessThanOrEqual(row.auc.high);
      }
      const constant = b.rows.find((x) => x.name.includes('constant'))!;
      if (b.counts.failed > 0) expect(constant.auc.value).toBe(0.5);
    }
  });

  it('--verifier: a program the free verifier rejects is predicted 0, and the rejections are counted', { timeout: 600_000 }, () => {
    const r = wmEval('--samples', 'data/wm-eval/policy-v1-heldout.jsonl', '--verifier', '--json');
    expect(r.code, r.err).toBe(0);
    type Rep = { programs: number; failed: number; valid: number; aucValidVsFailed: number };
    const o = JSON.parse(r.out) as { reports: { report: Rep; verified: { report: Rep; rejectedFailed: number; rejectedValid: number } }[] };
    const { report, verified } = o.reports[0];
    expect(verified.report.programs).toBe(report.programs);
    // the first policy's failures are mostly broken syntax and foreign keywords; nothing that ran is rejected
    expect(verified.rejectedFailed).toBeGreaterThan(report.failed / 2);
    expect(verified.rejectedFailed).toBeLessThanOrEqual(report.failed);
    expect(verified.rejectedValid).toBe(0);
    // zeroing rejected failures can only move them below the programs that run
    expect(verified.report.aucValidVsFailed).toBeGreaterThan(report.aucValidVsFailed);
  });

  it('names a broken samples file and a missing one (exit 2, one line)', { timeout: 300_000 }, () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"taskId":"vega_cars","program":"x","status":"ok","y":0.5}\n{broken\n');
    const r = wmEval('--samples', bad);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toMatch(/^wm-eval: .*bad\.jsonl: line 2 is not JSON$/);
    const m = wmEval('--samples', join(dir, 'missing.jsonl'));
    expect(m.code).toBe(2);
    expect(m.err).toMatch(/samples file not found/);
    // a training task's programs cannot be a population: the baselines are fitted on them
    const train = join(dir, 'train.jsonl');
    writeFileSync(train, '{"taskId":"vega_cars","card":"Regression. Metric: RMSE.","index":0,"temperature":0.6,"program":"x","stopped":true,"status":"ok","y":0.5,"seconds":1}\n');
    const t = wmEval('--samples', train);
    expect(t.code).toBe(2);
    expect(t.err).toMatch(/vega_cars is a training task/);
  });

  it('checks the models folder\'s heldout-samples.jsonl against its manifest sha256 before reading it', { timeout: 60_000 }, () => {
    const models = join(dir, 'models');
    cpSync('public/models', models, { recursive: true });
    appendFileSync(join(models, 'heldout-samples.jsonl'), '{"taskId":"vega_cars","program":"planted","status":"ok","y":1}\n');
    const r = wmEval('--models', models);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/heldout-samples\.jsonl: \d+ bytes, manifest says \d+; the file is replaced or has bytes appended/);
  });
});
