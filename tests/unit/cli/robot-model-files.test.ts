// The robot experiment reads two model files named on its command line: one that is missing, cut
// short, or not the kind of checkpoint the flag asks for is refused in one line that names it (exit 2,
// no stack), before the output folder is made.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../../run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'wmrl-robot-model-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const POLICY = join(REPO_ROOT, 'results/robot-bc/policy-other-instructions-52000-steps.ckpt');
const PROGRESS = join(REPO_ROOT, 'results/robot-progress/progress-model.ckpt');
const truncated = join(dir, 'truncated.ckpt');
writeFileSync(truncated, readFileSync(POLICY).subarray(0, 100_000));
const text = join(dir, 'text.ckpt');
writeFileSync(text, 'not a checkpoint\n');

const stackLine = /^\s+at .+[:(]/m;

describe('experiment --domain robot refuses a model file it cannot read', () => {
  const cases = [
    { name: 'a missing policy', flags: ['--policy', join(dir, 'no-such.ckpt')], says: /^experiment: the policy checkpoint .*no-such\.ckpt does not exist$/m },
    { name: 'a truncated policy', flags: ['--policy', truncated], says: /^experiment: the policy checkpoint .*truncated\.ckpt cannot be read: .*truncated/m },
    { name: 'a policy that is not a checkpoint', flags: ['--policy', text], says: /^experiment: the policy checkpoint .*text\.ckpt cannot be read: /m },
    { name: 'the progress model given as the policy', flags: ['--policy', PROGRESS], says: /^experiment: the policy checkpoint .*progress-model\.ckpt cannot be read: /m },
    { name: 'the policy given as the progress model', flags: ['--progress-model', POLICY], says: /^experiment: the progress model .*policy-other-instructions-52000-steps\.ckpt cannot be read: .*robot-progress/m },
  ];
  for (const [i, c] of cases.entries()) {
    it(`${c.name}: named in one line, exit 2, nothing made`, { timeout: 60_000 }, () => {
      const out = join(dir, `out-${i}`);
      const r = runCli('src/cli/experiment.ts', ['--domain', 'robot', ...c.flags, '--presets', 'robot-sft', '--seeds', '1', '--steps', '1', '--out', out]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(c.says);
      expect(r.stderr).not.toMatch(stackLine);
      expect(existsSync(out)).toBe(false);
    });
  }
});
