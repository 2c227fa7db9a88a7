// npm run predict in all three modes, on the committed models, and with bad input: an unknown task,
// a missing program file, broken JSONL lines (answered on their own, exit 1 at the end), a tampered
// model file (refused, naming the file).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { referencePrograms } from '../../../src/sandbox-pyodide/reference-programs.ts';
import { REPO_ROOT, runCli } from '../../run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'wmrl-predict-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function predict(...args: string[]): { code: number | null; out: string; err: string } {
  const r = runCli('src/cli/predict.ts', args);
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const ridge = referencePrograms('regression', 'rmse').find((p) => p.family === 'ridge')!.source;
const programFile = join(dir, 'ridge.py');
writeFileSync(programFile, ridge);

describe('npm run predict', () => {
  it('--task scores a program file with the committed world model, in (0, 1)', { timeout: 60_000 }, () => {
    const r = predict('--task', 'vega_cars', '--program', programFile, '--json');
    expect(r.code, r.err).toBe(0);
    const o = JSON.parse(r.out) as { task: string; score: number; backend: string };
    expect(o.task).toBe('vega_cars');
    expect(o.score).toBeGreaterThan(0);
    expect(o.score).toBeLessThan(1);
    expect(o.backend).toBe('wasm');
  });

  it('--csv builds the card from the user CSV', { timeout: 60_000 }, () => {
    const r = predict('--csv', 'data/datasets/train/vega_cars.csv', '--target', 'Miles_per_Gallon', '--metric', 'rmse', '--program', programFile, '--json');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).task).toMatch(/^custom_/);
  });

  it('--batch answers every line in input order; bad lines get their own error and exit 1 at the end', { timeout: 60_000 }, () => {
    const batch = join(dir, 'batch.jsonl');
    const lines = [
      JSON.stringify({ task: 'vega_cars', program: ridge }),
      '{not json',
      JSON.stringify({ task: 'no_such_task', program: ridge }),
      JSON.stringify({ task: 'sklearn_wine' }),
      JSON.stringify({ task: 'sklearn_diabetes', program: ridge }),
    ];
    writeFileSync(batch, lines.join('\n') + '\n');
    const r = predict('--batch', batch);
    expect(r.code).toBe(1);
    const out = r.out.trim().split('\n').map((l) => JSON.parse(l) as { line: number; task?: string; score?: number; error?: string });
    expect(out.map((o) => o.line)).toEqual([1, 2, 3, 4, 5]);
    expect(out[0].task).toBe('vega_cars');
    expect(out[4].task).toBe('sklearn_diabetes');
    expect(out[1].error).toBe('not JSON');
    expect(out[2].error).toMatch(/unknown task "no_such_task"/);
    expect(out[3].error).toMatch(/"task" and "program"/);
    // the same program on the same task scores the same alone and in a batch
    const alone = JSON.parse(predict('--task', 'vega_cars', '--program', programFile, '--json').out).score;
    expect(out[0].score).toBeCloseTo(alone, 5);
  });

  it('--verifier: a program that passes keeps its score; one that cannot run scores 0 with the reason', { timeout: 90_000 }, () => {
    const batch = join(dir, 'verifier.jsonl');
    const foreign = ridge.replace(/Ridge\(([^)]*)\)/, 'Ridge($1, n_trees=3)');
    expect(foreign).not.toBe(ridge);
    writeFileSync(batch, [ridge, foreign, ridge.replace('(', '((')].map((program) => JSON.stringify({ task: 'vega_cars', program })).join('\n') + '\n');
    const r = predict('--batch', batch, '--verifier');
    expect(r.code, r.err).toBe(0);
    type Out = { score: number; worldModelScore: number; verifier: { ok: boolean; reason?: string } };
    const [ok, keyword, syntax] = r.out.trim().split('\n').map((l) => JSON.parse(l) as Out);
    expect(ok.verifier.ok).toBe(true);
    expect(ok.score).toBe(ok.worldModelScore);
    expect(ok.score).toBeGreaterThan(0);
    expect([keyword.score, syntax.score]).toEqual([0, 0]);
    expect(keyword.worldModelScore).toBeGreaterThan(0);
    expect(keyword.verifier.reason).toMatch(/takes no keyword 'n_trees'/);
    expect(syntax.verifier.reason).toMatch(/does not compile/);
  });

  it('bad input: unknown task, missing program file, no mode (exit 2, one line)', { timeout: 60_000 }, () => {
    const a = predict('--task', 'nope', '--program', programFile);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/unknown task "nope"/);
    const b = predict('--task', 'vega_cars', '--program', join(dir, 'missing.py'));
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/program file not found/);
    expect(predict('--program', programFile).code).toBe(2);
  });

  it('a tampered world-model file is refused with a message naming it', { timeout: 60_000 }, () => {
    const models = join(dir, 'models');
    mkdirSync(models);
    for (const f of ['manifest.json', 'policy.ckpt', 'world-model.onnx', 'tokenizer.json']) copyFileSync(join(REPO_ROOT, 'public/models', f), join(models, f));
    const onnx = readFileSync(join(models, 'world-model.onnx'));
    onnx[onnx.length - 100] ^= 0xff;
    writeFileSync(join(models, 'world-model.onnx'), onnx);
    const r = predict('--task', 'vega_cars', '--program', programFile, '--models', models);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/world-model\.onnx/);
    expect(r.err).toMatch(/sha256|hash/i);
  });
});
