// The runners' source record, read from real git checkouts made here: a clean one, one with a tracked
// file changed (dirty; an untracked file or a change under results/ is not), a folder outside any
// checkout and a git that is not installed (commit null, with the reason, and no failure); and the
// provenance a runner adds to a run's result, read from this repository; and the hash of the code a
// run runs, which an edit of src/ changes and one of docs or results does not.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGitState, readRunSource, runCodeHash } from '../../../src/cli/run-source.ts';
import { pythonLibraryHash } from '../../../src/sandbox-pyodide/node-runner.ts';
import { REPO_ROOT } from '../../run-cli.ts';
import { tempFolders } from '../../temp-folders.ts';

const tmp = tempFolders('wmrl-run-source-');

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=test', '-c', 'user.email=test@example.org', ...args], { encoding: 'utf8' }).trim();

function checkout(): string {
  const dir = tmp();
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'code.ts'), 'export const x = 1;\n');
  mkdirSync(join(dir, 'results'));
  writeFileSync(join(dir, 'results', 'run.json'), '{}\n');
  git(dir, 'add', 'code.ts', 'results/run.json');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

describe('readGitState', () => {
  it('a clean checkout: its HEAD, not dirty; an untracked file and a change under results/ keep it clean', () => {
    const dir = checkout();
    const head = git(dir, 'rev-parse', 'HEAD');
    expect(readGitState(dir)).toEqual({ commit: head, dirty: false, gitError: null });
    writeFileSync(join(dir, 'notes.txt'), 'untracked\n');
    writeFileSync(join(dir, 'results', 'run.json'), '{"rewritten":true}\n');
    expect(readGitState(dir)).toEqual({ commit: head, dirty: false, gitError: null });
  });

  it('a tracked file changed, staged or not: dirty', () => {
    const dir = checkout();
    writeFileSync(join(dir, 'code.ts'), 'export const x = 2;\n');
    expect(readGitState(dir)).toMatchObject({ dirty: true, gitError: null });
    git(dir, 'add', 'code.ts');
    expect(readGitState(dir)).toMatchObject({ dirty: true, gitError: null });
    git(dir, 'commit', '-q', '-m', 'second');
    expect(readGitState(dir)).toEqual({ commit: git(dir, 'rev-parse', 'HEAD'), dirty: false, gitError: null });
  });

  it('not a checkout, a checkout without commits, no git: null with the reason, no throw', () => {
    expect(readGitState(tmp())).toEqual({ commit: null, dirty: null, gitError: expect.stringMatching(/^git: fatal: not a git repository/) });
    const empty = tmp();
    git(empty, 'init', '-q');
    expect(readGitState(empty)).toEqual({ commit: null, dirty: null, gitError: expect.stringMatching(/^git: fatal: /) });
    expect(readGitState(checkout(), 'wmrl-no-such-git')).toEqual({ commit: null, dirty: null, gitError: 'git: wmrl-no-such-git is not installed' });
  });
});

describe('readRunSource', () => {
  it('reads this checkout\'s HEAD and the toolkit hash leaderboards record', async () => {
    const source = await readRunSource();
    expect(source.commit).toBe(git(REPO_ROOT, 'rev-parse', 'HEAD'));
    expect(typeof source.dirty).toBe('boolean');
    expect(source.gitError).toBeNull();
    expect(source.toolkitHash).toBe(pythonLibraryHash());
  });
});

describe('runCodeHash', () => {
  it('changes with the bytes of src/ and the package files, committed or not; not with docs, tests or results', () => {
    const dir = tmp();
    for (const [f, text] of [['src/a.ts', 'export const a = 1;\n'], ['package.json', '{}\n'], ['docs/x.md', '# x\n'], ['results/r.json', '{}\n'], ['tests/t.ts', '\n']]) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), text);
    }
    const first = runCodeHash(dir);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(join(dir, 'docs/x.md'), '# y\n');
    writeFileSync(join(dir, 'results/r.json'), '{"more":1}\n');
    writeFileSync(join(dir, 'tests/t.ts'), 'changed\n');
    expect(runCodeHash(dir)).toBe(first);
    writeFileSync(join(dir, 'src/a.ts'), 'export const a = 2;\n');
    const edited = runCodeHash(dir);
    expect(edited).not.toBe(first);
    writeFileSync(join(dir, 'src/b.ts'), '\n');
    expect(runCodeHash(dir)).not.toBe(edited);
    rmSync(join(dir, 'src/b.ts'));
    writeFileSync(join(dir, 'package.json'), '{"x":1}\n');
    expect(runCodeHash(dir)).not.toBe(edited);
  });
});
