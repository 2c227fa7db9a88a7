// build-models runs its stages in a work folder, each reading what an earlier one wrote there. A stage
// run alone where its inputs were never made, or a --world-model-from folder that is not a usable
// models folder, is one line naming the file, exit 2, never a stack.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../../run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'wmrl-build-models-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stackLine = /^\s+at .+[:(]/m;
const build = (...args: string[]) => runCli('src/cli/build-models.ts', args);

/** A work folder as the sft stage leaves it, made from the committed models (their tokenizer and policy). */
function workAfterSft(name: string): string {
  const work = join(dir, name);
  mkdirSync(work, { recursive: true });
  copyFileSync(join(REPO_ROOT, 'public/models/tokenizer.json'), join(work, 'tokenizer.json'));
  copyFileSync(join(REPO_ROOT, 'public/models/policy.ckpt'), join(work, 'sft.ckpt'));
  return work;
}

describe('build-models refuses a stage whose inputs are not there', () => {
  it('a stage run alone in an empty work folder names the file and the stage that writes it', { timeout: 60_000 }, () => {
    const out = join(dir, 'out-empty');
    const r = build('--stage', 'wm', '--work', join(dir, 'empty'), '--out', out);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^build-models: .*empty\/tokenizer\.json is missing: stage tokenizer writes it, so run the stages from tokenizer on/);
    expect(r.stderr).not.toMatch(stackLine);
    expect(existsSync(out)).toBe(false);
  });

  it('--world-model-from a folder without a world model', { timeout: 60_000 }, () => {
    const from = join(dir, 'no-models');
    mkdirSync(from, { recursive: true });
    const r = build('--stage', 'export', '--work', workAfterSft('work-a'), '--out', join(dir, 'out-a'), '--world-model-from', from);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^build-models: export: --world-model-from .*no-models holds no tokenizer\.json/);
    expect(r.stderr).not.toMatch(stackLine);
  });

  it('--world-model-from a models folder with another tokenizer', { timeout: 60_000 }, () => {
    const from = join(dir, 'other-tokenizer');
    mkdirSync(from, { recursive: true });
    const tokenizer = JSON.parse(readFileSync(join(REPO_ROOT, 'public/models/tokenizer.json'), 'utf8')) as { merges: unknown[] };
    writeFileSync(join(from, 'tokenizer.json'), JSON.stringify({ ...tokenizer, merges: tokenizer.merges.slice(0, -1) }));
    copyFileSync(join(REPO_ROOT, 'public/models/world-model.onnx'), join(from, 'world-model.onnx'));
    const r = build('--stage', 'export', '--work', workAfterSft('work-b'), '--out', join(dir, 'out-b'), '--world-model-from', from);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^build-models: export: .*other-tokenizer has another tokenizer/);
    expect(r.stderr).not.toMatch(stackLine);
  });
});
