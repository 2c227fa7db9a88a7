// npm run compare -- --same on committed run files: a rerun that differs only in its timings is the
// same; a changed behaviour is named; --within lets the second folder hold more runs (a rerun of
// part of a grid checked against the grid), without it a run left over is a difference.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../../run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'wmrl-compare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const committed = (name: string) => join(REPO_ROOT, 'results/main-v2/runs', name);

function folder(name: string, files: Record<string, unknown>): string {
  const out = join(dir, name);
  mkdirSync(join(out, 'runs'), { recursive: true });
  for (const [f, v] of Object.entries(files)) writeFileSync(join(out, 'runs', f), JSON.stringify(v));
  return out;
}

const wmrl = JSON.parse(readFileSync(committed('wmrl-seed1.json'), 'utf8')) as { wallMs: number; startedAt: string; records: { meanReward: number; wallMs: number }[] };
const sft = JSON.parse(readFileSync(committed('sft-seed1.json'), 'utf8')) as unknown;

function same(...args: string[]) {
  return runCli('src/cli/compare.ts', ['--same', ...args]);
}

describe('npm run compare -- --same', () => {
  const grid = folder('grid', { 'wmrl-seed1.json': wmrl, 'sft-seed1.json': sft });
  const slower = { ...wmrl, wallMs: wmrl.wallMs * 2, startedAt: '2030-01-01T00:00:00.000Z', records: wmrl.records.map((r) => ({ ...r, wallMs: r.wallMs * 2 })) };
  const rerun = folder('rerun', { 'wmrl-seed1.json': slower });

  it('a rerun of part of the grid that only took longer is the same with --within', () => {
    const r = same(rerun, grid, '--within');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^same: 1 run file\(s\) did the same .*timings aside \(1 more in .*grid, not compared\)/);
  });

  it('without --within the run the rerun lacks is a difference', () => {
    const r = same(rerun, grid);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/sft-seed1\.json: only in .*grid/);
  });

  it('a changed behaviour is named, --within or not', () => {
    const changed = folder('changed', { 'wmrl-seed1.json': { ...slower, records: slower.records.map((r, i) => (i === 3 ? { ...r, meanReward: r.meanReward + 0.125 } : r)) } });
    const r = same(changed, grid, '--within');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('wmrl-seed1.json: records[3].meanReward:');
  });

  it('two copies of the same folder are the same', () => {
    const copy = join(dir, 'copy');
    mkdirSync(join(copy, 'runs'), { recursive: true });
    for (const f of ['wmrl-seed1.json', 'sft-seed1.json']) copyFileSync(join(grid, 'runs', f), join(copy, 'runs', f));
    expect(same(copy, grid).status).toBe(0);
  });
});

describe('npm run compare: each run\'s provenance', () => {
  const commitA = 'a1'.repeat(20);
  const commitB = 'b2'.repeat(20);
  const provenance = (commit: string, dirty: boolean) => ({ commit, dirty, gitError: null, toolkitHash: 'c3'.repeat(32), startedAt: '2026-02-01T10:00:00.000Z', finishedAt: '2026-02-01T10:30:00.000Z' });
  const clean = folder('prov-clean', { 'wmrl-seed1.json': { ...wmrl, provenance: provenance(commitA, false) } });
  const dirty = folder('prov-dirty', { 'wmrl-seed1.json': { ...wmrl, provenance: provenance(commitB, true) } });
  const old = folder('prov-old', { 'wmrl-seed1.json': wmrl });

  it('the seed-by-seed comparison lists each run\'s commit, state, toolkit, start and end, and warns of a dirty tree and different commits', () => {
    const r = runCli('src/cli/compare.ts', [`${clean}:wmrl`, `${dirty}:wmrl`]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('prov-clean:wmrl seed 1: commit a1a1a1a, clean; toolkit c3c3c3c3c3c3; started 2026-02-01T10:00:00.000Z, finished 2026-02-01T10:30:00.000Z');
    expect(r.stdout).toContain('prov-dirty:wmrl seed 1: commit b2b2b2b, DIRTY (uncommitted changes);');
    expect(r.stdout).toMatch(/^WARNING: 1 of 2 run\(s\) started from a dirty tree/m);
    expect(r.stdout).toMatch(/^WARNING: the runs come from 2 different commits: a1a1a1a, b2b2b2b$/m);
  });

  it('--same lists them too; a run file older than provenance says so', () => {
    const r = same(clean, old);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^same: 1 run file/);
    expect(r.stdout).toMatch(/prov-old\/runs\/wmrl-seed1\.json: no provenance \(the run file predates it\)$/m);
    expect(r.stdout).toMatch(/^WARNING: 1 of 2 run\(s\) have no known commit/m);
  });

  it('a provenance the runners do not write is named, not read as none', () => {
    const bad = folder('prov-bad', { 'wmrl-seed1.json': { ...wmrl, provenance: { commit: 7 } } });
    const r = same(bad, old);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^compare: .*prov-bad\/runs\/wmrl-seed1\.json: its provenance is not one the runners write/);
  });
});

// Exit 1 means "different" to a script that checks --same: input that cannot be compared exits 2.
describe('npm run compare on input it cannot compare', () => {
  const good = folder('good', { 'wmrl-seed1.json': wmrl });
  const broken = folder('broken', { 'wmrl-seed1.json': wmrl });
  writeFileSync(join(broken, 'runs', 'sft-seed1.json'), '{"format": "cut short');
  const stackLine = /^\s+at .+[:(]/m;

  it('--same: a run file that does not parse is named, exit 2 (not 1, "different")', () => {
    const r = same(broken, good);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^compare: .*broken\/runs\/sft-seed1\.json is not a readable run file \(.*\); runs\/ holds only run files/m);
    expect(r.stderr).not.toMatch(stackLine);
  });
  it('seed by seed: the same file is named, exit 2', () => {
    const r = runCli('src/cli/compare.ts', [`${broken}:wmrl`, `${good}:wmrl`]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/sft-seed1\.json is not a readable run file/);
  });
  it('a folder without runs/, a side without a preset, a preset without runs, an unknown metric: exit 2', () => {
    for (const args of [['--same', join(dir, 'no-such'), good], [good, `${good}:wmrl`], [`${good}:sft`, `${good}:wmrl`], ['--metric', 'speed', `${good}:wmrl`, `${good}:wmrl`]]) {
      const r = runCli('src/cli/compare.ts', args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^compare: /);
    }
  });
});
