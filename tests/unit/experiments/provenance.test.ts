// A run's provenance read back: one line per run for npm run compare, the warnings when runs read
// together came from a dirty tree or from different commits, and summary.md's line on the commits,
// absent when no run file carries provenance (older folders rewrite unchanged).
import { describe, expect, it } from 'vitest';
import { formatProvenance, isRunProvenance, provenanceWarnings, sourceLine, type RunProvenance } from '../../../src/experiments/provenance.ts';
import { renderReport } from '../../../src/experiments/report.ts';
import { SFT_PRESET } from '../../../src/experiments/run-result.ts';
import { run } from './run-fixtures.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const at = (commit: string | null, dirty: boolean | null = commit === null ? null : false): RunProvenance => ({
  commit, dirty, gitError: commit === null ? 'git: fatal: not a git repository (or any of the parent directories): .git' : null,
  toolkitHash: '0123456789abcdef'.repeat(4), startedAt: '2026-02-01T10:00:00.000Z', finishedAt: '2026-02-01T10:30:00.000Z',
});

describe('run provenance', () => {
  it('one line per run: the short commit, dirty or clean, the toolkit, start and end; or why there is none', () => {
    expect(formatProvenance(at(A))).toBe('commit aaaaaaa, clean; toolkit 0123456789ab; started 2026-02-01T10:00:00.000Z, finished 2026-02-01T10:30:00.000Z');
    expect(formatProvenance(at(A, true))).toMatch(/^commit aaaaaaa, DIRTY \(uncommitted changes\); /);
    expect(formatProvenance(at(null))).toMatch(/^commit unknown \(git: fatal: not a git repository .*\); toolkit /);
    expect(formatProvenance(undefined)).toBe('no provenance (the run file predates it)');
  });

  it('warns of a dirty tree, of different commits, of runs without a known commit beside ones with, and of different toolkits', () => {
    expect(provenanceWarnings([at(A), at(A)])).toEqual([]);
    expect(provenanceWarnings([undefined, undefined])).toEqual([]);
    expect(provenanceWarnings([at(A), at(A, true)])).toEqual(['1 of 2 run(s) started from a dirty tree (uncommitted changes to tracked files): their commit does not name all of their code']);
    expect(provenanceWarnings([at(A), at(B)])).toEqual(['the runs come from 2 different commits: aaaaaaa, bbbbbbb']);
    expect(provenanceWarnings([at(A), undefined])).toEqual(['1 of 2 run(s) have no known commit (run files older than provenance), so they may come from other commits']);
    expect(provenanceWarnings([at(A), { ...at(A), toolkitHash: 'f'.repeat(64) }])).toEqual(['the runs used 2 different sandbox toolkits: 0123456789ab, ffffffffffff']);
  });

  it('summary.md\'s line names the commits and warns of a dirty tree; none when no run carries provenance', () => {
    expect(sourceLine([undefined, undefined])).toBeNull();
    expect(sourceLine([at(A), at(A)])).toBe('Source: commit aaaaaaa (2 runs), all from a clean tree.');
    expect(sourceLine([at(A), at(B), undefined])).toBe('Source: commits aaaaaaa (1 run), bbbbbbb (1 run), not recorded (1 older run file).');
    expect(sourceLine([at(null)])).toBe('Source: commit unknown (1 run: git: fatal: not a git repository (or any of the parent directories): .git).');
    expect(sourceLine([at(A), at(A, true)])).toBe('Source: commit aaaaaaa (2 runs). **Warning: 1 run started from a dirty tree (uncommitted changes to tracked files), so the commit does not name all of the code that ran.**');
  });

  it('the experiment report carries the line under its command only when its runs carry provenance', () => {
    const runs = [run(SFT_PRESET, 1, 0.1, null), run(SFT_PRESET, 2, 0.2, null)];
    const old = renderReport({ title: 't', runs, presets: [], command: 'npm run experiment -- --sft-only' });
    expect(old).not.toMatch(/Source:/);
    const stamped = renderReport({ title: 't', runs: runs.map((r, i) => ({ ...r, provenance: at(A, i === 1) })), presets: [], command: 'npm run experiment -- --sft-only' });
    expect(stamped).toContain('Command: `npm run experiment -- --sft-only`\n\nSource: commit aaaaaaa (2 runs). **Warning: 1 run started from a dirty tree');
    // the line is all that changes
    expect(stamped.replace(/^Source: .*\n\n/m, '')).toBe(old);
  });

  it('reads back only the shape a runner writes', () => {
    expect(isRunProvenance(at(A))).toBe(true);
    expect(isRunProvenance(at(null))).toBe(true);
    expect(isRunProvenance({ ...at(A), dirty: null })).toBe(false);
    expect(isRunProvenance({ ...at(null), gitError: null })).toBe(false);
    expect(isRunProvenance({ ...at(A), toolkitHash: undefined })).toBe(false);
    expect(isRunProvenance('abc')).toBe(false);
  });
});
