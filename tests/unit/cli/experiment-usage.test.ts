// npm run experiment: a --domain without its value is refused before anything runs (it used to fall
// through to the coding experiment, hours of runs).
import { describe, expect, it } from 'vitest';
import { runCli } from '../../run-cli.ts';

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
});
