// npm run experiment: a --domain without its value is refused before anything runs (it used to fall
// through to the coding experiment, hours of runs).
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../../run-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'wmrl-experiment-usage-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('experiment usage', { timeout: 60_000 }, () => {
  it('refuses --domain without a value, last or followed by another flag', () => {
    for (const args of [['--domain'], ['--domain', '--quick']]) {
      const r = runCli('src/cli/experiment.ts', args);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/--domain needs a value: coding or robot/);
    }
  });

  it("refuses --B for a preset whose B is part of what it is (paper-grpo-matched), before anything runs", () => {
    const r = runCli('src/cli/experiment.ts', ['--presets', 'paper-wmrl,paper-grpo-matched', '--B', '8', '--report-only', '--out', 'results/nonexistent-usage-check']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/paper-grpo-matched sets its own B/);
  });

  it('refuses --plan controls-40 at any horizon but the planned one', () => {
    const r = runCli('src/cli/experiment.ts', ['--presets', 'paper-wmrl', '--plan', 'controls-40', '--steps', '20', '--eval-every', '5', '--report-only', '--out', 'results/nonexistent-usage-check']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/planned at --steps 40 --eval-every 5/);
  });

  it('refuses a --run-timeout-min that is not a positive number (it once fell back to 60 for text and took a negative one)', () => {
    for (const v of ['abc', '0', '-5']) {
      const r = runCli('src/cli/experiment.ts', ['--presets', 'paper-wmrl', `--run-timeout-min=${v}`, '--report-only', '--out', 'results/nonexistent-usage-check']);
      expect(r.status, v).toBe(2);
      expect(r.stderr, v).toContain(`--run-timeout-min must be a positive number of minutes, got "${v}"`);
    }
  });

  // A report is the folder's: rewriting it from a grid that names none or only some of its run files would
  // replace it, and the command recorded in it, with a smaller one.
  describe('--report-only rewrites a folder only from a grid that names every run file in it', () => {
    const folder = join(tmp, 'kl');
    cpSync(join(REPO_ROOT, 'results/sensitivity-kl0.04'), folder, { recursive: true });
    const grid = ['--presets', 'wmrl', '--steps', '8', '--B', '4', '--n', '4', '--temperature', '0.6', '--eval-k', '4', '--eval-tasks', 'all', '--kl-beta', '0.04', '--no-sft', '--out', folder, '--report-only'];
    const before = readFileSync(join(folder, 'summary.md'), 'utf8');

    it('refuses a folder without run files, and makes none', () => {
      const missing = join(tmp, 'no-such-experiment');
      const r = runCli('src/cli/experiment.ts', ['--presets', 'wmrl', '--report-only', '--out', missing]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^experiment: --report-only: .*no-such-experiment holds no run files .*nothing was written/m);
      expect(existsSync(missing)).toBe(false);
    });

    it('refuses a grid that leaves some out, names the command that made the report, and leaves the report as it was', () => {
      const r = runCli('src/cli/experiment.ts', [...grid, '--seeds', '1,2']);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('this grid leaves out 3 of the 5 run files');
      expect(r.stderr).toContain('its report was written by: npm run experiment -- --presets wmrl --seeds 1,2,3,4,5');
      expect(readFileSync(join(folder, 'summary.md'), 'utf8')).toBe(before);
    });

    it('the robot runner refuses the same way', () => {
      const pilot = join(tmp, 'pilot');
      cpSync(join(REPO_ROOT, 'results/robot-pilot-horizon'), pilot, { recursive: true });
      const pilotBefore = readFileSync(join(pilot, 'summary.md'), 'utf8');
      const r = runCli('src/cli/experiment.ts', ['--domain', 'robot', '--presets', 'robot-paper-grpo-sparse', '--seeds', '104', '--steps', '100', '--out', pilot, '--report-only']);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('this grid leaves out 1 of the 1 run files');
      expect(readFileSync(join(pilot, 'summary.md'), 'utf8')).toBe(pilotBefore);
    });

    it('rewrites it from the grid that made it', () => {
      const r = runCli('src/cli/experiment.ts', [...grid, '--seeds', '1,2,3,4,5']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('(5 ok, 0 failed)');
    });
  });
});
