// The --quick pipeline on the 'tiny' network: corpus -> tokenizer -> SFT -> (sampling, no sandbox)
// -> world-model data from reference programs -> world model -> export, in Node; the exported world
// model loads in onnxruntime-web and matches the reference forward of the saved weights.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../../src/model/checkpoint.ts';
import { worldModelScores } from '../../../src/model/losses.ts';
import { WorldModelRunner } from '../../../src/engine/onnx/world-model-runner.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { checkManifest, type ModelsManifest } from '../../../src/pipeline/manifest.ts';
import { STAGES, quickSettings, runPipeline } from '../../../src/pipeline/run-pipeline.ts';
import type { WmExample } from '../../../src/pipeline/wm-data.ts';
import { wmSequence } from '../../../src/pipeline/world-model.ts';
import { nodeFileLoader } from '../../../src/tasks/node-file-loader.ts';
import { TaskRegistry } from '../../../src/tasks/task-registry.ts';

const root = resolve(import.meta.dirname, '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'wmrl-quick-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('quick models pipeline (tiny)', () => {
  it('runs every stage in Node and exports a world model that matches the reference forward', async () => {
    const workDir = join(tmp, 'work');
    const outDir = join(tmp, 'out');
    const settings = quickSettings(11);
    const lines: string[] = [];
    const figures = await runPipeline(
      { root, workDir, outDir, registry: new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks'))), settings, log: (l) => lines.push(l) },
      STAGES,
    );
    expect(Object.keys(figures.stageSeconds as object)).toEqual([...STAGES]);
    // the world model learned from reference programs of the chosen training tasks only
    const examples = JSON.parse(readFileSync(join(workDir, 'wm-data.json'), 'utf8')) as WmExample[];
    expect(examples.length).toBeGreaterThan(100);
    expect(new Set(examples.map((e) => e.taskId))).toEqual(new Set(settings.tasks));
    for (const e of examples) expect(e.y).toBeGreaterThanOrEqual(0), expect(e.y).toBeLessThanOrEqual(1);
    expect(examples.some((e) => e.y > 0.8) && examples.some((e) => e.y < 0.2)).toBe(true);

    // manifest consistent with the files
    expect(checkManifest(outDir)).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as ModelsManifest;
    expect(manifest.files.map((f) => f.name).sort()).toEqual(['policy.ckpt', 'tokenizer.json', 'world-model.onnx']);
    const policy = loadCheckpoint(new Uint8Array(readFileSync(join(outDir, 'policy.ckpt'))));
    const tokenizer = Tokenizer.fromJSON(JSON.parse(readFileSync(join(outDir, 'tokenizer.json'), 'utf8')));
    expect(policy.tokenizer?.toJSON()).toEqual(tokenizer.toJSON());
    expect(manifest.tokenizer).toEqual({ vocabSize: tokenizer.vocabSize });
    expect(policy.model.config.vocabSize).toBe(tokenizer.vocabSize);

    // exported world model (onnxruntime-web, wasm) = reference forward of the trained weights
    const wm = loadCheckpoint(new Uint8Array(readFileSync(join(workDir, 'wm.ckpt')))).model;
    const onnx = new Uint8Array(readFileSync(join(outDir, 'world-model.onnx')));
    const runner = await WorldModelRunner.create(onnx, tokenizer, wm.config, { prefer: 'wasm' });
    const some = examples.filter((_, i) => i % 25 === 0).slice(0, 6);
    const got = await runner.score(some.map((e) => ({ card: e.card, program: e.program })));
    await runner.release();
    const want = worldModelScores(wm, makeSequenceBatch(some.map((e) => wmSequence(tokenizer, e, wm.config.contextLength))));
    for (let i = 0; i < some.length; i++) expect(Math.abs(got.scores[i] - want[i])).toBeLessThan(1e-4);
    // the world model is not the SFT model: training moved the weights
    const sft = loadCheckpoint(new Uint8Array(readFileSync(join(workDir, 'sft.ckpt')))).model;
    expect(sft.params.some((v, i) => v !== wm.params[i])).toBe(true);

    // A policy-only build exports with another folder's world model (same tokenizer), and refuses a foreign one.
    const ctx = (out: string, from: string) => ({ root, workDir, outDir: out, registry: new TaskRegistry(nodeFileLoader(resolve(root, 'public/tasks'))), settings, log: () => undefined, worldModelFrom: from });
    const borrowed = join(tmp, 'borrowed');
    await runPipeline(ctx(borrowed, outDir), ['export']);
    expect(checkManifest(borrowed)).toEqual([]);
    expect(readFileSync(join(borrowed, 'world-model.onnx'))).toEqual(readFileSync(join(outDir, 'world-model.onnx')));
    const foreign = join(tmp, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'tokenizer.json'), readFileSync(resolve(root, 'public/models/tokenizer.json')));
    await expect(runPipeline(ctx(join(tmp, 'refused'), foreign), ['export'])).rejects.toThrow(/another tokenizer/);

    // Comparing world-model settings: the bce loss, validation only; the final world model stays as it was.
    const before = readFileSync(join(workDir, 'wm.ckpt'));
    const bce = { ...settings, wm: { ...settings.wm, loss: 'bce' as const } };
    await runPipeline({ ...ctx(outDir, outDir), settings: bce, worldModelFrom: undefined, validateOnly: 'bce' }, ['wm']);
    const v = JSON.parse(readFileSync(join(workDir, 'wm-validation-bce.json'), 'utf8')) as { settings: { loss: string }; validation: { examples: number } };
    expect(v.settings.loss).toBe('bce');
    expect(v.validation.examples).toBeGreaterThan(0);
    expect(readFileSync(join(workDir, 'wm.ckpt'))).toEqual(before);
    // the full stage of the same settings, seed and data takes that validation instead of rerunning it
    const later: string[] = [];
    await runPipeline({ ...ctx(outDir, outDir), settings: bce, worldModelFrom: undefined, log: (l) => later.push(l) }, ['wm']);
    expect(later.some((l) => l.startsWith('wm validation (stored)'))).toBe(true);
  }, 90_000);
});
