// Runs one of the project's command-line tools (src/cli/*.ts) the way `npm run` does, through tsx,
// from the repository root, and hands back what a user would see.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

export function runCli(script: string, args: readonly string[], opts: { timeoutMs?: number } = {}): CliRun {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), script, ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: opts.timeoutMs });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, seconds: (performance.now() - t0) / 1000 };
}
