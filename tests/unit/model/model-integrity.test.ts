// Model integrity: each model file is checked against its manifest (size, sha256) before use, by the
// page (crypto.subtle, loadCommittedModels) and by the CLIs (node:crypto, readVerifiedModels), with
// one message per fault naming the file and what to do. A small synthetic models folder stands in
// for public/models, so the test does not depend on the committed models being rebuilt meanwhile.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { loadCommittedModels, loadLadderReading } from '../../../src/app/models.ts';
import { fitLadderReading, ladderReadingJSON } from '../../../src/pipeline/ladder-reading.ts';
import { readVerifiedModels } from '../../../src/cli/model-files.ts';
import { sha256Hex as nodeSha256Hex } from '../../../src/pipeline/manifest.ts';
import {
  ModelIntegrityError,
  modelFileProblem,
  parseModelsManifest,
  subtleSha256Hex,
  verifyModelFile,
  type ModelsManifestFile,
} from '../../../src/model/model-integrity.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';

const REMEDY = 'rebuild with npm run build:models or restore it with git checkout';

function randomBytes(n: number, seed: number): Uint8Array {
  const rng = mulberry32(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(rng() * 256));
}

/** A models folder: three files and a manifest that describes them. */
function modelFiles(): Record<string, Uint8Array> {
  return {
    'policy.ckpt': randomBytes(3000, 1),
    'world-model.onnx': randomBytes(4000, 2),
    'tokenizer.json': new TextEncoder().encode(JSON.stringify({ format: 'wmrl-bpe', merges: [] })),
  };
}

function manifestFor(files: Record<string, Uint8Array>): string {
  const entries = Object.entries(files).map(([name, b]) => ({ name, bytes: b.length, sha256: nodeSha256Hex(b), role: name }));
  const config = { contextLength: 64, dModel: 16, nLayers: 1, nHeads: 2, mlpRatio: 4, layerNormEps: 1e-5, vocabSize: 40 };
  return JSON.stringify({ format: 'wmrl-models', version: 1, files: entries, config }, null, 2) + '\n';
}

describe('the pure checks', () => {
  const bytes = randomBytes(100, 3);
  const entry: ModelsManifestFile = { name: 'world-model.onnx', bytes: 100, sha256: nodeSha256Hex(bytes), role: 'wm' };

  it('accepts matching bytes and names every kind of mismatch', () => {
    expect(modelFileProblem('public/models/world-model.onnx', bytes, entry, nodeSha256Hex(bytes))).toBeNull();
    expect(modelFileProblem('public/models/world-model.onnx', bytes.subarray(0, 90), entry, undefined)).toBe(
      `public/models/world-model.onnx: 90 bytes, manifest says 100; the file is truncated or replaced — ${REMEDY}`,
    );
    expect(modelFileProblem('public/models/world-model.onnx', new Uint8Array(101), entry, undefined)).toBe(
      `public/models/world-model.onnx: 101 bytes, manifest says 100; the file is replaced or has bytes appended — ${REMEDY}`,
    );
    const tampered = bytes.slice();
    tampered[50] ^= 1;
    expect(modelFileProblem('public/models/world-model.onnx', tampered, entry, nodeSha256Hex(tampered))).toBe(
      `public/models/world-model.onnx: sha256 ${nodeSha256Hex(tampered).slice(0, 16)}…, manifest says ${entry.sha256.slice(0, 16)}…; the file is corrupted or replaced — ${REMEDY}`,
    );
  });

  it('any single flipped bit is refused, with the page hash and the CLI hash alike', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 99 }), fc.nat({ max: 7 }), fc.boolean(), async (at, bit, subtle) => {
        const tampered = bytes.slice();
        tampered[at] ^= 1 << bit;
        const sha = subtle ? subtleSha256Hex : nodeSha256Hex;
        await expect(verifyModelFile('m/world-model.onnx', tampered, entry, sha)).rejects.toThrow(ModelIntegrityError);
        await expect(verifyModelFile('m/world-model.onnx', bytes, entry, sha)).resolves.toBeUndefined();
      }),
      { numRuns: 40 },
    );
  });

  it('the two sha256 implementations agree', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (b) => {
        expect(await subtleSha256Hex(b)).toBe(nodeSha256Hex(b));
      }),
      { numRuns: 30 },
    );
  });

  it('a truncated or malformed manifest is named, not parsed half-way', () => {
    const text = manifestFor(modelFiles());
    expect(() => parseModelsManifest(text.slice(0, 120), 'public/models/manifest.json')).toThrow(
      /^public\/models\/manifest\.json: not valid JSON \(.*\), so the manifest is truncated or corrupted; rebuild with npm run build:models or restore it with git checkout$/,
    );
    expect(() => parseModelsManifest('', 'public/models/manifest.json')).toThrow(`public/models/manifest.json: the manifest is empty; ${REMEDY}`);
    const parsed = JSON.parse(text) as { files: { sha256: string; bytes: unknown }[]; config?: unknown };
    parsed.files[1].sha256 = 'abc';
    expect(() => parseModelsManifest(JSON.stringify(parsed), 'm/manifest.json')).toThrow(
      `m/manifest.json: files[1].sha256 (world-model.onnx) is not a 64-digit lower-case hex sha256; ${REMEDY}`,
    );
    parsed.files[1].sha256 = nodeSha256Hex(new Uint8Array(1));
    parsed.files[0].bytes = '3000';
    expect(() => parseModelsManifest(JSON.stringify(parsed), 'm/manifest.json')).toThrow('m/manifest.json: files[0].bytes (policy.ckpt) is not a byte count');
    parsed.files[0].bytes = 3000;
    delete parsed.config;
    expect(() => parseModelsManifest(JSON.stringify(parsed), 'm/manifest.json')).toThrow('m/manifest.json: the manifest has no "config" object');
    expect(() => parseModelsManifest('[1, 2]', 'm/manifest.json')).toThrow('m/manifest.json: the manifest is not a JSON object');
  });
});

describe('a models folder on disk (the CLIs)', () => {
  let dir: string;
  let files: Record<string, Uint8Array>;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'models-'));
    files = modelFiles();
    for (const [name, b] of Object.entries(files)) writeFileSync(join(dir, name), b);
    writeFileSync(join(dir, 'manifest.json'), manifestFor(files));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const fault = async (): Promise<string> => {
    try {
      await readVerifiedModels(dir, join(dir, '..'));
    } catch (e) {
      expect(e).toBeInstanceOf(ModelIntegrityError);
      return (e as Error).message;
    }
    throw new Error('expected the models to be refused');
  };
  const shown = (name: string): string => `${dir.split('/').pop()}/${name}`;

  it('an intact folder gives the checked bytes', async () => {
    const v = await readVerifiedModels(dir);
    expect(Buffer.from(v.files['world-model.onnx']).equals(Buffer.from(files['world-model.onnx']))).toBe(true);
    expect(v.manifest.config.nHeads).toBe(2);
  });

  it('one tampered byte', async () => {
    const b = files['policy.ckpt'].slice();
    b[1234] ^= 0xff;
    writeFileSync(join(dir, 'policy.ckpt'), b);
    expect(await fault()).toMatch(new RegExp(`^${shown('policy.ckpt')}: sha256 [0-9a-f]{16}…, manifest says ${nodeSha256Hex(files['policy.ckpt']).slice(0, 16)}…; the file is corrupted or replaced — ${REMEDY}$`));
  });

  it('a truncated file', async () => {
    writeFileSync(join(dir, 'world-model.onnx'), files['world-model.onnx'].subarray(0, 3900));
    expect(await fault()).toBe(`${shown('world-model.onnx')}: 3900 bytes, manifest says 4000; the file is truncated or replaced — ${REMEDY}`);
  });

  it('a truncated manifest', async () => {
    writeFileSync(join(dir, 'manifest.json'), readFileSync(join(dir, 'manifest.json')).subarray(0, 200));
    expect(await fault()).toMatch(new RegExp(`^${shown('manifest.json')}: not valid JSON .*truncated or corrupted; ${REMEDY}$`));
  });

  it('a manifest with no entry for a model file', async () => {
    const { ['tokenizer.json']: _dropped, ...rest } = files;
    writeFileSync(join(dir, 'manifest.json'), manifestFor(rest));
    expect(await fault()).toBe(`${shown('manifest.json')} lists no tokenizer.json, so it cannot be checked; ${REMEDY}`);
  });

  it('a missing file', async () => {
    rmSync(join(dir, 'world-model.onnx'));
    expect(await fault()).toBe(`${shown('world-model.onnx')}: missing; ${REMEDY}`);
  });
});

describe('loadCommittedModels (the page), with fetch served from memory', () => {
  let served: Map<string, Uint8Array>;
  beforeEach(() => {
    served = new Map(Object.entries(modelFiles()));
    served.set('manifest.json', new TextEncoder().encode(manifestFor(Object.fromEntries(served))));
    vi.stubGlobal('self', { location: { href: 'http://127.0.0.1:4173/' } });
    vi.stubGlobal('fetch', async (url: URL) => {
      const b = served.get(url.pathname.replace('/models/', ''));
      return b ? new Response(b.slice()) : new Response('not found', { status: 404 });
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('hands over checked bytes, not URLs', async () => {
    const m = await loadCommittedModels();
    expect(m.worldModel).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(m.worldModel as Uint8Array).equals(Buffer.from(served.get('world-model.onnx') as Uint8Array))).toBe(true);
    expect(m.policyCheckpoint).toBeInstanceOf(ArrayBuffer);
    expect((m.policyCheckpoint as ArrayBuffer).byteLength).toBe(3000);
    expect(m.tokenizer).toEqual({ format: 'wmrl-bpe', merges: [] });
    expect(m.contextLength).toBe(64);
  });

  it('a tampered world model is refused, naming the file', async () => {
    const b = (served.get('world-model.onnx') as Uint8Array).slice();
    b[0] ^= 1;
    served.set('world-model.onnx', b);
    await expect(loadCommittedModels()).rejects.toThrow(/^public\/models\/world-model\.onnx: sha256 [0-9a-f]{16}…, manifest says [0-9a-f]{16}…; the file is corrupted or replaced/);
  });

  it('a truncated file, a truncated manifest, a missing file', async () => {
    served.set('policy.ckpt', (served.get('policy.ckpt') as Uint8Array).subarray(0, 10));
    await expect(loadCommittedModels()).rejects.toThrow(`public/models/policy.ckpt: 10 bytes, manifest says 3000; the file is truncated or replaced — ${REMEDY}`);
    served.set('manifest.json', (served.get('manifest.json') as Uint8Array).subarray(0, 50));
    await expect(loadCommittedModels()).rejects.toThrow(/^public\/models\/manifest\.json: not valid JSON/);
    served = new Map([...served].filter(([k]) => k !== 'tokenizer.json'));
    served.set('manifest.json', new TextEncoder().encode(manifestFor(modelFiles())));
    await expect(loadCommittedModels('/models/', 'results/x/models')).rejects.toThrow(`results/x/models/tokenizer.json: HTTP 404; the file is missing — ${REMEDY}`);
  });

  it('the ladder reading: none listed is null, a listed one is checked and parsed, a tampered one is refused by name', async () => {
    expect(await loadLadderReading()).toBeNull();
    const rows = [0.1, 0.2, 0.8, 0.9].map((score, i) => ({ score, status: i < 2 ? ('runtime error' as const) : ('valid' as const), reward: i < 2 ? 0.1 : 0.9, compiles: true, blank: false }));
    const file = new TextEncoder().encode(JSON.stringify(ladderReadingJSON(fitLadderReading(rows, { bins: 2 }), 'four programs')));
    served.set('ladder-reading.json', file);
    served.set('manifest.json', new TextEncoder().encode(manifestFor({ ...modelFiles(), 'ladder-reading.json': file })));
    const r = await loadLadderReading();
    expect(r?.fittedOn).toBe('four programs');
    expect(r?.reading.read(0.95, { compiles: true, blank: false }).statuses[0]).toBe('valid');
    const bad = file.slice();
    bad[bad.length - 2] ^= 1;
    served.set('ladder-reading.json', bad);
    await expect(loadLadderReading()).rejects.toThrow(/^public\/models\/ladder-reading\.json: sha256 .* the file is corrupted or replaced/);
  });
});
