// npm run experiment -- ... --report-only: the tables of an experiment run in pieces, rewritten from
// the run files on disk without running anything (no build, no browser), with the plan's command.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../../run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'wmrl-report-only-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The main table's command (docs/results.md) over the committed first runs of results/main-v3.
const plan = ['--presets', 'paper-grpo-all-real,paper-wmrl', '--seeds', '3,4,5', '--steps', '20', '--B', '8', '--n', '4', '--eval-k', '8', '--eval-every', '5', '--run-timeout-min', '400'];

/** The plan's nine run files (SFT and both rows at seeds 3 to 5): a report rewrites a folder only from the grid that names all of it. */
const planFiles = (src: string) => /^(sft|paper-grpo-all-real|paper-wmrl)-seed[345]\.json$/.test(src.split('/').pop()!) || !src.endsWith('.json');

describe('experiment --report-only', { timeout: 120_000 }, () => {
  it('rewrites summary.md and summary.json from the runs on disk, runs nothing, and records the plan\'s command', () => {
    const out = join(dir, 'main-v3');
    cpSync(join(REPO_ROOT, 'results/main-v3/runs'), join(out, 'runs'), { recursive: true, filter: planFiles });
    const r = runCli('src/cli/experiment.ts', [...plan, '--out', out, '--report-only']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/starting workers|building the app/);
    expect(r.stdout).toMatch(/report only, from the 9 run file\(s\) found of the \d+ this grid names; nothing runs/);
    expect(r.stdout).not.toMatch(/to run|remain/);
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toMatch(/^Command: `npm run experiment -- --presets paper-grpo-all-real,paper-wmrl .*--run-timeout-min 400 --out .*`$/m);
    expect(md).not.toMatch(/--report-only/);
    expect(md).toMatch(/## The main table, decided by its plan/);
    expect(md).toMatch(/\| A1 \| paper-grpo-all-real \/ paper-wmrl > 1/);
    // the primary pair's own picture beside the summary, which links it
    expect(md).toContain('](curve-primary.svg)');
    const pair = readFileSync(join(out, 'curve-primary.svg'), 'utf8');
    expect([...pair.matchAll(/<polyline data-preset="([^"]+)"/g)].map((m) => m[1])).toEqual(['paper-grpo-all-real', 'paper-wmrl']);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { mainTable: { id: string; verdict: string | null }[] };
    expect(summary.mainTable.find((t) => t.id === 'primary')).toBeDefined();
  });

  it('names a run file cut off mid-write, in one line, and writes no tables from a partial set', () => {
    const out = join(dir, 'cut');
    cpSync(join(REPO_ROOT, 'results/main-v3/runs'), join(out, 'runs'), { recursive: true, filter: planFiles });
    writeFileSync(join(out, 'runs', 'paper-wmrl-seed4.json'), '{"format":"wmrl-experiment-run","records":[');
    const r = runCli('src/cli/experiment.ts', [...plan, '--out', out, '--report-only']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^experiment: .*runs\/paper-wmrl-seed4\.json is not a readable run file \(.*\); move it aside and the run is done again$/);
    expect(existsSync(join(out, 'summary.md'))).toBe(false);
  });

  it('reads a rerun folder against its twins (--rerun-of) instead of deciding the plan on it: the committed compute reruns', () => {
    const out = join(dir, 'alone');
    cpSync(join(REPO_ROOT, 'results/main-v3-compute/runs'), join(out, 'runs'), { recursive: true });
    const alonePlan = [...plan.map((x) => (x === '3,4,5' ? '3,4,5,6,7' : x)), '--no-sft'];
    const r = runCli('src/cli/experiment.ts', [...alonePlan, '--out', out, '--rerun-of', join(REPO_ROOT, 'results/main-v3'), '--report-only']);
    expect(r.status, r.stderr).toBe(0);
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toContain('## Reruns of results/main-v3, alone on the machine');
    expect(md).toContain('Same as their twins: yes, all 10.');
    expect(md).not.toMatch(/## The main table, decided by its plan/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { mainTable?: unknown; rerunOf: { of: string; compute: { alone: { seeds: number[] } } } };
    expect(summary.mainTable).toBeUndefined();
    expect(summary.rerunOf.of).toBe('results/main-v3');
    expect(summary.rerunOf.compute.alone.seeds).toEqual([3, 4, 5, 6, 7]);
    // the committed summary is what this command writes
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'results/main-v3-compute/summary.json'), 'utf8')).rerunOf).toEqual(summary.rerunOf);
  });

  it('refuses --rerun-of a folder that is not an experiment\'s output', () => {
    const r = runCli('src/cli/experiment.ts', [...plan, '--out', join(dir, 'other'), '--rerun-of', join(dir, 'nowhere'), '--report-only']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--rerun-of .*nowhere: no runs\/ folder there/);
  });

  it('refuses --force with --report-only', () => {
    const r = runCli('src/cli/experiment.ts', [...plan, '--out', join(dir, 'other'), '--report-only', '--force']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--report-only runs nothing/);
  });
});
