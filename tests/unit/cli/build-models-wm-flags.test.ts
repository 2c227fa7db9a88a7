// `npm run build:models` names a bad world-model objective flag before any stage runs: one line, exit 2 (a usage error).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../run-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'wmrl-wm-flags-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('build-models: the world-model loss flags', () => {
  it.each([
    [['--wm-loss', 'rank'], /--wm-loss must be mse, bce or pairwise, got rank/],
    [['--wm-pair-weight', '2'], /--wm-pair-weight weighs the pairwise term: it needs --wm-loss pairwise/],
    [['--wm-loss', 'pairwise', '--wm-pair-weight=-1'], /--wm-pair-weight must be a number >= 0, got -1/],
    [['--wm-rows-per-task', '1'], /--wm-rows-per-task must be a whole number from 2 to the batch size 16, got 1/],
  ])('%j is refused with a clear message, and nothing is written', (args, message) => {
    const work = join(tmp, `work-${args.join('_').replace(/[^a-z0-9_-]/gi, '')}`);
    const r = runCli('src/cli/build-models.ts', ['--stage', 'wm', '--work', work, ...args], { timeoutMs: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/^\s+at .+[:(]/m);
    expect(existsSync(work)).toBe(false);
  }, 90_000);
});
