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
});
