// npm run sample, own-data-samples and experiment read the SFT policy from a models folder: a folder
// that is missing, or whose policy.ckpt differs from its manifest, is refused in one line that names
// the file, exit status 2, before any sampling, leaderboard, build or browser starts.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../../run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'wmrl-sampler-models-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the committed models folder with one byte of the policy flipped. */
function tamperedModels(): string {
  const models = join(dir, 'tampered');
  mkdirSync(models, { recursive: true });
  for (const f of ['manifest.json', 'policy.ckpt', 'world-model.onnx', 'tokenizer.json']) copyFileSync(join(REPO_ROOT, 'public/models', f), join(models, f));
  const ckpt = readFileSync(join(models, 'policy.ckpt'));
  ckpt[ckpt.length - 5] ^= 0xff;
  writeFileSync(join(models, 'policy.ckpt'), ckpt);
  return models;
}

const stackLine = /^\s+at .+[:(]/m;

describe('the tools that sample from a policy refuse a bad models folder', () => {
  const models = tamperedModels();
  const missing = join(dir, 'no-such-folder');
  const work = join(dir, 'work');
  const cases = [
    // `made`: what the tool writes first once it starts work (the outcome cache, the run folder)
    { tool: 'sample', file: 'sample-programs.ts', extra: ['--out', join(dir, 'out.jsonl'), '--work', work], made: work },
    { tool: 'own-data-samples', file: 'own-data-samples.ts', extra: ['--out', join(dir, 'own.jsonl'), '--work', work], made: work },
    { tool: 'experiment', file: 'experiment.ts', extra: ['--quick', '--out', join(dir, 'experiment')], made: join(dir, 'experiment') },
  ];
  for (const { tool, file, extra, made } of cases) {
    it(`${tool}: a tampered policy.ckpt is named, exit 2`, { timeout: 60_000 }, () => {
      const r = runCli(`src/cli/${file}`, ['--models', models, ...extra]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^${tool}: .*policy\\.ckpt`, 'm'));
      expect(r.stderr).not.toMatch(stackLine);
      // refused before any work: nothing was made
      expect(existsSync(made)).toBe(false);
    });
    it(`${tool}: a missing models folder is named, exit 2`, { timeout: 60_000 }, () => {
      const r = runCli(`src/cli/${file}`, ['--models', missing, ...extra]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^${tool}: .*no-such-folder`, 'm'));
      expect(r.stderr).not.toMatch(stackLine);
      expect(existsSync(made)).toBe(false);
    });
  }
});
