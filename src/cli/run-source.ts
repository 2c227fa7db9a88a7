// The experiment runners' source record (src/experiments/provenance.ts), read in Node once per
// invocation: the checkout's git HEAD and whether it was dirty, and the sandbox toolkit's hash.
// Without git, or outside a checkout, the commit is null with the reason, and the runs go on.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesHash } from '../../scripts/source-stamp.mjs';
import type { RunSource } from '../experiments/provenance.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export type GitState = Pick<RunSource, 'commit' | 'dirty' | 'gitError'>;

/**
 * HEAD of the checkout holding `dir`, and whether it is dirty: a tracked file that differs from HEAD,
 * staged or not. Untracked files do not count (a new file no tracked one imports changes nothing),
 * nor does anything under results/, which the runners write themselves: a resumed experiment in a
 * committed results folder is not a change of code. `git` is the command to run (a test names one
 * that does not exist).
 */
export function readGitState(dir: string, git = 'git'): GitState {
  const run = (args: string[]) => execFileSync(git, ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  try {
    const commit = run(['rev-parse', '--verify', 'HEAD']);
    const changed = run(['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)results']);
    return { commit, dirty: changed !== '', gitError: null };
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    const why = err.code === 'ENOENT' ? `${git} is not installed` : (err.stderr ?? '').trim().split('\n')[0] || err.message.split('\n')[0];
    return { commit: null, dirty: null, gitError: `git: ${why}` };
  }
}

/** sha256 of the Python library the sandbox runs (the hash leaderboards and the outcome store record). */
export async function toolkitHash(): Promise<string> {
  // node-runner loads Pyodide's package: only when asked, not when a runner merely imports this file
  const { pythonLibraryHash } = await import('../sandbox-pyodide/node-runner.ts');
  return pythonLibraryHash();
}

/** What this checkout is, read once at the start of an experiment invocation. */
export async function readRunSource(dir = REPO_ROOT): Promise<RunSource> {
  return { ...readGitState(dir), toolkitHash: await toolkitHash() };
}

/** What a Node runner runs: the sources, and the dependency versions and compiler settings they run with. */
export const RUN_CODE_INPUTS = ['src', 'package.json', 'package-lock.json', 'tsconfig.json'] as const;

/**
 * sha256 of the code a runner runs (RUN_CODE_INPUTS, bytes as they are on disk, committed or not).
 * Unlike the commit, it is the same across commits that change only docs, tests or results, and it
 * tells two dirty trees apart: the resumable robot runner goes on with an unfinished run only when it
 * is unchanged.
 */
export function runCodeHash(dir = REPO_ROOT): string {
  return filesHash(dir, RUN_CODE_INPUTS).sha256;
}

/** What the experiment page runs besides RUN_CODE_INPUTS: the build's settings and scripts, the pages, the models and tasks it serves. */
export const PAGE_CODE_INPUTS = [...RUN_CODE_INPUTS, 'public', 'vite.config.ts', 'svelte.config.js', 'scripts/vendor-assets.mjs'] as const;

/**
 * runCodeHash for the coding runner, whose runs go on in the built app: PAGE_CODE_INPUTS and the
 * pages (*.html). Unlike dist's source stamp it leaves results/ out, which the runner itself writes.
 */
export function pageRunCodeHash(dir = REPO_ROOT): string {
  return filesHash(dir, PAGE_CODE_INPUTS, readdirSync(dir).sort().filter((name) => name.endsWith('.html'))).sha256;
}
