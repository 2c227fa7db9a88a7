// robot-bc reads a checkpoint under --diagnose and --from. Bad input: a missing file, a tampered or cut
// short checkpoint, a checkpoint that is not a policy, training flags beside --diagnose. Each is one line
// naming the problem, exit 2, before any work.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../../run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'wmrl-robot-bc-diagnose-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const diagnose = (...args: string[]) => runCli('src/cli/robot-bc.ts', ['--diagnose', ...args]);

describe('robot-bc --diagnose refuses bad input', () => {
  it('a missing checkpoint', { timeout: 60_000 }, () => {
    const r = diagnose(join(dir, 'none.ckpt'));
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^robot-bc --diagnose: checkpoint not found: .*none\.ckpt$/);
  });

  it('a tampered checkpoint, named', { timeout: 60_000 }, () => {
    const bytes = readFileSync(join(REPO_ROOT, 'results/robot-bc/policy.ckpt'));
    bytes[bytes.length - 10] ^= 0xff;
    const file = join(dir, 'tampered.ckpt');
    writeFileSync(file, bytes);
    const r = diagnose(file);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${file}: checkpoint: weights are corrupted`);
  });

  it('a checkpoint that is not a behaviour-cloning policy', { timeout: 60_000 }, () => {
    const r = diagnose('public/models/robot/progress-model.ckpt');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/progress-model\.ckpt: not a robot policy checkpoint/);
  });

  it('training flags beside it', { timeout: 60_000 }, () => {
    const r = diagnose('results/robot-bc/policy.ckpt', '--steps', '100');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('takes only --out and --threads, not --steps');
  });

  it('a thread count that is not a positive integer', { timeout: 60_000 }, () => {
    const r = diagnose('results/robot-bc/policy.ckpt', '--threads', 'two');
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('robot-bc --diagnose: --threads must be a positive integer, got "two"');
  });
});

describe('robot-bc --from refuses bad input before training', () => {
  const stackLine = /^\s+at .+[:(]/m;
  const train = (from: string, out: string) => runCli('src/cli/robot-bc.ts', ['--from', from, '--steps', '1', '--out', out]);

  it('a checkpoint cut short, named', { timeout: 60_000 }, () => {
    const file = join(dir, 'short.ckpt');
    writeFileSync(file, readFileSync(join(REPO_ROOT, 'results/robot-bc/policy.ckpt')).subarray(0, 50_000));
    const out = join(dir, 'from-short');
    const r = train(file, out);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^robot-bc: .*short\.ckpt: checkpoint: truncated/);
    expect(r.stderr).not.toMatch(stackLine);
    expect(existsSync(out)).toBe(false);
  });

  it('a checkpoint that is not a behaviour-cloning policy', { timeout: 60_000 }, () => {
    const r = train('public/models/robot/progress-model.ckpt', join(dir, 'from-progress'));
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('robot-bc: public/models/robot/progress-model.ckpt is not a robot behaviour-cloning policy checkpoint');
  });
});
