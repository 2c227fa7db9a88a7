// The experiment CLI end to end in --quick mode: real Chromium, the real app path (createTrainer,
// workers, sandbox pool, grader), two presets x one seed plus the SFT evaluation, then checks that
// the per-run JSON, the CSV and the Markdown summary agree with each other, and that a second
// invocation resumes (skips every finished run); a run killed mid-way goes on from its last saved step.
// Uses the committed models when public/models has them, else the tiny random model (plumbing only).
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseCsvRecords } from '../../src/tasks/csv.ts';
import type { RunResult } from '../../src/experiments/run-result.ts';
import { isRunProvenance } from '../../src/experiments/provenance.ts';
import { behaviourDifferences } from '../../src/experiments/run-behaviour.ts';
import { pythonLibraryHash } from '../../src/sandbox-pyodide/node-runner.ts';
import { COST_COMPONENTS } from '../../src/training/cost.ts';
import { runCli, type CliRun } from '../run-cli.ts';

const root = resolve(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'wmrl-experiment-e2e-'));
const models = existsSync(resolve(root, 'public/models/manifest.json')) ? 'committed' : 'tiny';

function cli(args: string[]): CliRun {
  // A guard against a hang, not a speed test: generous, since a busy machine slows the browser runs several times.
  return runCli('src/cli/experiment.ts', args, { timeoutMs: 900_000 });
}

describe('npm run experiment -- --quick', () => {
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('runs SFT + 2 presets x 1 seed in Chromium and writes consistent JSON, CSV and Markdown; a rerun resumes', { timeout: 2_000_000 }, () => {
    const first = cli(['--quick', '--eval-every', '1', '--models', models, '--out', out]);
    console.log(`experiment --quick (${models} models): ${first.seconds.toFixed(1)} s\n${first.stdout.split('\n').slice(-8).join('\n')}`);
    expect(first.stderr).not.toMatch(/Error/);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/step 2\/2 mean reward/);
    // which runs remain, and an estimate once a run of the same kind has finished
    expect(first.stdout).toContain('3 run(s) remain: sft seed 1, grpo-all-real seed 1, wmrl seed 1');
    expect(first.stdout).toMatch(/1 run\(s\) remain, about \d+ (s|min) left: wmrl seed 1/);
    expect(first.stdout).toContain('no runs remain');

    const files = readdirSync(join(out, 'runs')).sort();
    expect(files).toEqual(['grpo-all-real-seed1.json', 'sft-seed1.json', 'wmrl-seed1.json']);
    const runs = files.map((f) => JSON.parse(readFileSync(join(out, 'runs', f), 'utf8')) as RunResult);
    const byPreset = new Map(runs.map((r) => [r.preset, r]));
    for (const r of runs) {
      expect(r.status).toBe('ok');
      // the runner's provenance: this checkout's commit, the toolkit hash, its clock around the run
      expect(isRunProvenance(r.provenance), JSON.stringify(r.provenance)).toBe(true);
      expect(r.provenance?.toolkitHash).toBe(pythonLibraryHash());
      expect(r.environment?.crossOriginIsolated).toBe(true);
      expect(r.evaluation?.k).toBe(1);
      expect(r.evaluation?.tasks).toHaveLength(2);
      // the same held-out tasks for every run
      expect(r.evaluation?.tasks.map((t) => t.taskId)).toEqual(runs[0].evaluation?.tasks.map((t) => t.taskId));
    }
    const sft = byPreset.get('sft');
    expect(sft?.records).toHaveLength(0);
    expect(sft?.training).toBeNull();
    for (const id of ['grpo-all-real', 'wmrl']) {
      const r = byPreset.get(id);
      expect(r?.records.map((s) => s.step)).toEqual([0, 1]);
      const t = r?.training;
      expect(t).toBeTruthy();
      if (!r || !t) continue;
      // the run's training cost is the sum of its steps' costs
      for (const c of COST_COMPONENTS) expect(t.busyMs[c]).toBeCloseTo(r.records.reduce((a, s) => a + s.cost.busyMs[c], 0), 6);
      expect(t.counts.executions).toBe(r.records.reduce((a, s) => a + s.executions, 0));
      // program texts are trimmed by default, their lengths kept
      for (const s of r.records) for (const g of s.groups) {
        expect(g.programs).toBeUndefined();
        expect(g.programChars).toHaveLength(2);
      }
    }
    // --eval-every 1: each trained run is also evaluated after step 1, with the training cost so far;
    // its last point is the final evaluation. The SFT run has no curve.
    expect(sft?.curve).toBeUndefined();
    for (const id of ['grpo-all-real', 'wmrl']) {
      const r = byPreset.get(id)!;
      expect(r.curve?.map((c) => c.step)).toEqual([1, 2]);
      expect(r.curve?.[0].trainingBusyMs).toBe(r.records[0].cumulativeCost.totalBusyMs);
      expect(r.curve?.[0].evaluation.tasks.map((t) => t.taskId)).toEqual(r.evaluation?.tasks.map((t) => t.taskId));
      expect(r.curve?.[1].avgAtK).toBe(r.evaluation?.avgAtK);
      expect(r.curve?.[1].trainingBusyMs).toBe(r.training?.totalBusyMs);
    }
    expect(first.stdout).toMatch(/after step 1, held-out avg@k x100 = /);

    // all-real GRPO executes every program (2 steps x B 2 x n 2) and never calls the world model
    expect(byPreset.get('grpo-all-real')?.training?.counts.executions).toBe(8);
    expect(byPreset.get('grpo-all-real')?.training?.counts.worldModelForwards).toBe(0);
    expect(byPreset.get('wmrl')?.training?.counts.executions).toBeLessThan(8);
    expect(byPreset.get('wmrl')?.training?.counts.worldModelForwards).toBeGreaterThan(0);

    // CSV: one row per run, numbers equal to the JSON's
    const rows = parseCsvRecords(readFileSync(join(out, 'runs.csv'), 'utf8'));
    const header = rows[0];
    expect(rows).toHaveLength(4);
    for (const row of rows.slice(1)) {
      const r = byPreset.get(row[header.indexOf('preset')]);
      expect(r).toBeTruthy();
      expect(Number(row[header.indexOf('heldOut')])).toBeCloseTo(100 * (r?.evaluation?.avgAtK ?? NaN), 9);
      if (r?.training) expect(Number(row[header.indexOf('busyTotal')])).toBeCloseTo(r.training.totalBusyMs / 1000, 9);
    }

    // Markdown: the rows, the held-out values and claim 1's ratio as measured
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    for (const r of runs) expect(md).toContain(`| ${r.preset} | 1 | ${(100 * (r.evaluation?.avgAtK ?? NaN)).toFixed(2)} (n=1) |`);
    const ratio = (byPreset.get('grpo-all-real')?.training?.totalBusyMs ?? NaN) / (byPreset.get('wmrl')?.training?.totalBusyMs ?? NaN);
    expect(md).toContain(`grpo-all-real / wmrl (total busy s), per seed: seed 1: ${ratio.toFixed(2)}`);
    expect(md).toContain('Student-t');
    expect(md).toMatch(new RegExp(`^Source: commit ${runs[0].provenance?.commit?.slice(0, 7)} \\(3 runs\\)`, 'm'));
    expect(md).toMatch(/## Held-out score along training[\s\S]*\| wmrl \| 0 \| 1 \| 0 \(n=1\) \|[\s\S]*\| wmrl \| 1 \| 1 \|/);
    expect(readFileSync(join(out, 'curve.svg'), 'utf8')).toMatch(/<polyline data-preset="wmrl" points="[\d.]+,[\d.]+ [\d.]+,[\d.]+ [\d.]+,[\d.]+"/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { claim1BusyRatio: { perSeed: number[] } };
    expect(summary.claim1BusyRatio.perSeed[0]).toBeCloseTo(ratio, 9);

    // a second invocation finds every run done and only rewrites the tables
    const again = cli(['--quick', '--eval-every', '1', '--models', models, '--out', out]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('3 runs planned, 0 to run');
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toBe(md);
    // --curve-presets narrows --eval-every: grpo-all-real would now be a run without a curve, which is
    // another request than the one on disk
    const narrowed = cli(['--quick', '--eval-every', '1', '--curve-presets', 'wmrl', '--models', models, '--out', out]);
    expect(narrowed.status).toBe(2);
    expect(narrowed.stderr).toMatch(/grpo-all-real-seed1\.json holds a run with a different configuration/);
    expect(cli(['--quick', '--eval-every', '1', '--curve-presets', 'wmrl-static']).stderr).toMatch(/--curve-presets: "wmrl-static" is not among --presets/);
    // the runs were judged under the sandbox's work rule now, and the folder keeps it
    for (const r of runs) expect(r.request.workRule).toBe(2);
    const otherRule = cli(['--quick', '--eval-every', '1', '--models', models, '--out', out, '--work-rule', '1']);
    expect(otherRule.status).toBe(2);
    expect(otherRule.stderr).toMatch(/--work-rule 1: the runs in .* ran under rule 2; use another --out/);
    expect(cli(['--quick', '--work-rule', '3']).stderr).toMatch(/--work-rule must be 1 or 2, got "3"/);

    // an interrupted invocation (the last run's file missing): the rerun runs only it, and estimates
    // its time from the runs already on disk
    const wmrl = readFileSync(join(out, 'runs', 'wmrl-seed1.json'));
    rmSync(join(out, 'runs', 'wmrl-seed1.json'));
    const resumed = cli(['--quick', '--eval-every', '1', '--models', models, '--out', out]);
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toContain('3 runs planned, 1 to run');
    expect(resumed.stdout).toMatch(/1 run\(s\) remain, about \d+ (s|min) left: wmrl seed 1/);
    const rerun = JSON.parse(readFileSync(join(out, 'runs', 'wmrl-seed1.json'), 'utf8')) as RunResult;
    // same seed, same request: the same training and evaluation
    expect(rerun.evaluation?.avgAtK).toBe((JSON.parse(wmrl.toString()) as RunResult).evaluation?.avgAtK);
  });

  it('a run killed between a step and its evaluation goes on from there and ends with the uninterrupted run\'s file, timings aside', { timeout: 2_400_000 }, async () => {
    // paper-wmrl: the method's most state between steps (calibrator, anchor weight, anchor rule); the
    // trainer's token budget, so that programs run and rewards differ (with --quick's 48 none finishes)
    const args = (dir: string) => ['--quick', '--no-sft', '--presets', 'paper-wmrl', '--steps', '4', '--eval-every', '2', '--max-new-tokens', '256', '--models', models, '--out', dir];
    const whole = join(out, 'whole');
    const a = cli(args(whole));
    expect(a.status, a.stderr).toBe(0);
    expect(readdirSync(join(whole, 'runs'))).toEqual(['paper-wmrl-seed1.json']);
    const uninterrupted = JSON.parse(readFileSync(join(whole, 'runs', 'paper-wmrl-seed1.json'), 'utf8')) as RunResult;
    expect(uninterrupted.provenance?.segments).toBeUndefined();
    if (models === 'committed') expect(uninterrupted.records.some((r) => r.meanReward > 0), 'no step had a reward: the comparison below would be empty').toBe(true);

    // killed (SIGKILL, no chance to tidy up) once the step-2 evaluation has begun: its state after step 2 is on disk
    const split = join(out, 'split');
    // tsx runs the script in a child process: the runner gets a process group of its own, and the whole
    // group is killed (its Chromium then exits with the pipe it was driven through)
    const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/cli/experiment.ts', ...args(split)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let seen = '';
    let killed = false;
    await new Promise<void>((done) => {
      child.stdout.on('data', (d: Buffer) => {
        seen += d.toString();
        if (!killed && /evaluating after step 2\b/.test(seen)) {
          process.kill(-child.pid!, 'SIGKILL');
          killed = true;
        }
      });
      child.on('exit', () => done());
    });
    expect(killed, seen).toBe(true);
    const groupAlive = (): boolean => {
      try {
        process.kill(-child.pid!, 0); // signal 0 only asks whether the group has a process left
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 300 && groupAlive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(groupAlive()).toBe(false);
    const side = join(split, 'runs', 'paper-wmrl-seed1.unfinished');
    expect(existsSync(side)).toBe(true);
    expect(existsSync(join(split, 'runs', 'paper-wmrl-seed1.json'))).toBe(false);
    // The kill can land after the step-2 evaluation (seconds here) was saved too. The state saved before
    // that evaluation began is put back (the same checkpoint, no evaluation yet), so the resumed run has
    // the evaluation to make.
    const kept = JSON.parse(readFileSync(side, 'utf8')) as { step: number; runSoFar: { curve: { step: number }[] } };
    expect(kept.step).toBe(2);
    kept.runSoFar.curve = kept.runSoFar.curve.filter((p) => p.step !== 2);
    writeFileSync(side, JSON.stringify(kept));
    const saved = readFileSync(side);

    const b = cli(args(split));
    expect(b.status, b.stderr).toBe(0);
    expect(b.stdout).toMatch(/paper-wmrl seed 1: going on after step 2 of 4 \(.*paper-wmrl-seed1\.unfinished, segment 2\)/);
    // it made the step-2 evaluation it was killed in, then trained steps 3 and 4 only
    expect(b.stdout).toMatch(/evaluating after step 2\b/);
    expect(b.stdout).not.toMatch(/step [12]\/4 mean reward/);
    expect(b.stdout).toMatch(/step 4\/4 mean reward/);
    expect(readdirSync(join(split, 'runs'))).toEqual(['paper-wmrl-seed1.json']);
    const resumed = JSON.parse(readFileSync(join(split, 'runs', 'paper-wmrl-seed1.json'), 'utf8')) as RunResult;
    expect(behaviourDifferences(resumed, uninterrupted)).toEqual([]);
    expect(resumed.records.map((r) => r.step)).toEqual([0, 1, 2, 3]);
    expect(resumed.curve?.map((p) => p.step)).toEqual([2, 4]);
    const segments = resumed.provenance?.segments;
    expect(segments?.map((x) => [x.fromStep, x.toStep])).toEqual([[0, 2], [2, 4]]);
    expect(resumed.provenance?.startedAt).toBe(segments?.[0].startedAt);

    // a side file from other code is refused and kept, and the run is recorded as failed
    rmSync(join(split, 'runs', 'paper-wmrl-seed1.json'));
    const text = saved.toString();
    writeFileSync(side, text.replace(/"codeSha256":"[0-9a-f]{64}"/, `"codeSha256":"${'0'.repeat(64)}"`));
    const c = cli(args(split));
    expect(c.status).toBe(1);
    expect(c.stdout).toMatch(/paper-wmrl seed 1: failed \(.*paper-wmrl-seed1\.unfinished: it was run by other code .*code hash 000000000000; .*move it aside \(or rerun with --force/);
    expect(existsSync(side)).toBe(true);
    expect(existsSync(join(split, 'runs', 'paper-wmrl-seed1.failed.json'))).toBe(true);
  });

  it.runIf(models === 'committed')('--sft-only with --models DIR evaluates that folder\'s policy: a copy of the committed models scores exactly as they do', { timeout: 1_200_000 }, () => {
    const folder = join(out, 'models-copy');
    cpSync(resolve(root, 'public/models'), folder, { recursive: true });
    const out2 = join(out, 'sft-only');
    const r = cli(['--quick', '--sft-only', '--models', folder, '--out', out2]);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    expect(readdirSync(join(out2, 'runs'))).toEqual(['sft-seed1.json']);
    const run = JSON.parse(readFileSync(join(out2, 'runs', 'sft-seed1.json'), 'utf8')) as RunResult;
    expect(run.request.models).toMatch(/^folder:.*models-copy$/);
    expect(run.environment?.modelsLabel).toMatch(/models-copy \(policy\.ckpt [0-9a-f]{8}/);
    const committed = JSON.parse(readFileSync(join(out, 'runs', 'sft-seed1.json'), 'utf8')) as RunResult;
    expect(run.evaluation?.tasks.map((t) => t.scores)).toEqual(committed.evaluation?.tasks.map((t) => t.scores));
    expect(cli(['--sft-only', '--no-sft']).stderr).toMatch(/exclude each other/);

    // claim 4: that folder's SFT row joins the first folder's tables as sft-larger (no run needed)
    const joined = cli(['--quick', '--eval-every', '1', '--models', models, '--out', out, '--larger-sft', out2]);
    expect(joined.status).toBe(0);
    expect(joined.stdout).toContain('3 runs planned, 0 to run');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { presets: { preset: string; kind: string }[]; claims: { id: string; verdict: string; tests: { comparison: { perSeed: number[] } }[] }[] };
    expect(summary.presets.find((p) => p.preset === 'sft-larger')?.kind).toBe('sft');
    const claim4 = summary.claims.find((c) => c.id === '4')!;
    const wmrl = JSON.parse(readFileSync(join(out, 'runs', 'wmrl-seed1.json'), 'utf8')) as RunResult;
    expect(claim4.tests[0].comparison.perSeed[0]).toBeCloseTo(100 * ((wmrl.evaluation?.avgAtK ?? NaN) - (run.evaluation?.avgAtK ?? NaN)), 9);
    expect(claim4.verdict).toBe('undecided');
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(/\| sft-larger \| 1 \|/);
    // a folder evaluated another way is refused before anything runs, since this folder's SFT row is on disk
    const other = join(out, 'other-eval');
    mkdirSync(join(other, 'runs'), { recursive: true });
    writeFileSync(join(other, 'runs', 'sft-seed1.json'), JSON.stringify({ ...run, request: { ...run.request, evalK: run.request.evalK + 1 } }));
    const mismatch = cli(['--quick', '--eval-every', '1', '--models', models, '--out', out, '--larger-sft', other]);
    expect(mismatch.status).toBe(2);
    expect(mismatch.stderr).toMatch(/--larger-sft: not comparable: seed 1: .*other-eval was evaluated with \{"k":2/);
    expect(mismatch.stdout).not.toContain('runs planned');
    // a folder without SFT rows is refused with a message
    const none = cli(['--quick', '--eval-every', '1', '--models', models, '--out', out, '--larger-sft', join(out, 'runs')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/--larger-sft .*no runs\/sft-seed<seed>\.json for seeds 1/);
  });
});
