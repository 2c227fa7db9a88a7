// The committed public/models: the manifest matches the files' sizes and hashes, lists every file,
// and its configuration and tokenizer agree with the checkpoint and the world model.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../../src/model/checkpoint.ts';
import { checkManifest, type ModelsManifest } from '../../../src/pipeline/manifest.ts';
import { parseLadderReading } from '../../../src/pipeline/ladder-reading.ts';

const dir = resolve(import.meta.dirname, '../../../public/models');

describe('committed models', () => {
  it('manifest matches the committed files (bytes, sha256, nothing unlisted)', () => {
    expect(checkManifest(dir)).toEqual([]);
    const manifest = JSON.parse(readFileSync(resolve(dir, 'manifest.json'), 'utf8')) as ModelsManifest;
    expect(manifest.files.map((f) => f.name).sort()).toEqual(['family-type-lookup.json', 'heldout-samples.jsonl', 'ladder-reading.json', 'policy.ckpt', 'tokenizer.json', 'world-model.onnx']);
    // the world model's reading onto the authors' ladder parses (the Playground reads it)
    expect(parseLadderReading(readFileSync(resolve(dir, 'ladder-reading.json'), 'utf8'), 'ladder-reading.json').reading.bins.length).toBeGreaterThan(1);
    // small enough for git
    expect(manifest.files.reduce((a, f) => a + f.bytes, 0)).toBeLessThan(20e6);
  });

  it('checkpoint loads, and its configuration and tokenizer are the manifest\'s', () => {
    const manifest = JSON.parse(readFileSync(resolve(dir, 'manifest.json'), 'utf8')) as ModelsManifest & { config: unknown; tokenizer: { vocabSize: number } };
    const ckpt = loadCheckpoint(new Uint8Array(readFileSync(resolve(dir, 'policy.ckpt'))));
    expect(ckpt.model.config).toEqual(manifest.config);
    expect(ckpt.tokenizer?.vocabSize).toBe(manifest.tokenizer.vocabSize);
    expect(ckpt.tokenizer?.toJSON()).toEqual(JSON.parse(readFileSync(resolve(dir, 'tokenizer.json'), 'utf8')));
  });
});
