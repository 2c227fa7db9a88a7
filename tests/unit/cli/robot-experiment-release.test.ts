// The robot experiment holds the progress model's ORT session from the moment it is loaded: whatever
// fails after that (here the output folder cannot be made) still releases it, so nothing is left to
// process exit.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseRobotOptions, runRobotExperiment } from '../../../src/cli/robot-experiment.ts';
import { REPO_ROOT } from '../../run-cli.ts';

const released = vi.hoisted(() => ({ loads: 0, releases: 0 }));
vi.mock('../../../src/embodied/progress-scorer.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/embodied/progress-scorer.ts')>();
  return {
    ...real,
    loadProgressModel: async (...args: Parameters<typeof real.loadProgressModel>) => {
      const model = await real.loadProgressModel(...args);
      released.loads++;
      return { ...model, release: async () => { released.releases++; await model.release(); } };
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'wmrl-robot-release-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runRobotExperiment', () => {
  it('releases the progress model when what follows its loading throws', { timeout: 60_000 }, async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    // the output folder would sit under a plain file: making it fails after both models are read
    const o = parseRobotOptions(['--presets', 'robot-sft', '--seeds', '1', '--steps', '1', '--out', join(file, 'out')], REPO_ROOT);
    if (o === 'help') throw new Error('unexpected help');
    await expect(runRobotExperiment(o, () => {})).rejects.toThrow(/ENOTDIR|not a directory/);
    expect(released).toEqual({ loads: 1, releases: 1 });
  });
});
