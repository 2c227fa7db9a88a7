// The robot domain's models as the page gets them (public/models/robot): the committed copies equal
// their sources in results/, fit the page's budget and are listed in the manifest; RobotModelFiles
// (the page's loader) hands out checked bytes and refuses a tampered, truncated or missing file with
// a message naming it. fetch is served from the committed folder, in memory.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RobotModelFiles } from '../../../src/app/robot-models.ts';
import { ROBOT_CHECKPOINT_BUDGET_BYTES, ROBOT_MODELS_REMEDY, ROBOT_MODEL_FILES } from '../../../src/embodied/robot-model-files.ts';
import { loadCheckpoint } from '../../../src/model/checkpoint.ts';
import { checkManifest, type ModelsManifest } from '../../../src/pipeline/manifest.ts';

const root = resolve(import.meta.dirname, '../../..');
const dir = resolve(root, 'public/models/robot');
const read = (name: string) => new Uint8Array(readFileSync(resolve(dir, name)));

describe('public/models/robot (committed)', () => {
  it('lists every file with its size and hash, and nothing else', () => {
    expect(checkManifest(dir)).toEqual([]);
    const manifest = JSON.parse(readFileSync(resolve(dir, 'manifest.json'), 'utf8')) as ModelsManifest;
    expect(manifest.files.map((f) => f.name).sort()).toEqual(Object.values(ROBOT_MODEL_FILES).map((f) => f.name).sort());
  });

  it('holds exactly the files of results/ (npm run build:robot-models copies them)', () => {
    for (const f of Object.values(ROBOT_MODEL_FILES)) {
      expect(Buffer.from(read(f.name)).equals(readFileSync(resolve(root, f.from))), `${f.name} is a copy of ${f.from}`).toBe(true);
    }
  });

  it('each checkpoint fits the page\'s budget and is the kind its role says', () => {
    for (const f of [ROBOT_MODEL_FILES.policy, ROBOT_MODEL_FILES.progress]) expect(read(f.name).length).toBeLessThanOrEqual(ROBOT_CHECKPOINT_BUDGET_BYTES);
    expect(loadCheckpoint(read(ROBOT_MODEL_FILES.policy.name)).meta.kind).toBe('robot-bc-policy');
    expect(loadCheckpoint(read(ROBOT_MODEL_FILES.progress.name)).meta.kind).toBe('robot-progress');
  });
});

describe('RobotModelFiles (the page), fetch served from the committed folder', () => {
  let served: Map<string, Uint8Array>;
  beforeEach(() => {
    served = new Map(['manifest.json', ...Object.values(ROBOT_MODEL_FILES).map((f) => f.name)].map((n) => [n, read(n)]));
    vi.stubGlobal('self', { location: { href: 'http://127.0.0.1:4173/' } });
    vi.stubGlobal('fetch', async (url: URL) => {
      const b = served.get(url.pathname.replace('/models/robot/', ''));
      return b ? new Response(b.slice()) : new Response('not found', { status: 404 });
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('hands out the checked bytes and reports', async () => {
    const files = await RobotModelFiles.open();
    expect(Buffer.from(await files.bytes('policy')).equals(Buffer.from(read('policy.ckpt')))).toBe(true);
    expect(await files.json('progressReport')).toEqual(JSON.parse(readFileSync(resolve(root, ROBOT_MODEL_FILES.progressReport.from), 'utf8')));
  });

  it('refuses a tampered checkpoint of the right size, naming it', async () => {
    const b = read('progress-model.ckpt');
    b[b.length - 1] ^= 1;
    served.set('progress-model.ckpt', b);
    const files = await RobotModelFiles.open();
    await expect(files.bytes('progress')).rejects.toThrow(/^public\/models\/robot\/progress-model\.ckpt: sha256 [0-9a-f]{16}…, manifest says [0-9a-f]{16}…; the file is corrupted or replaced/);
    await expect(files.bytes('policy')).resolves.toBeInstanceOf(Uint8Array);
  });

  it('a truncated file, a missing file, a missing manifest', async () => {
    served.set('policy.ckpt', read('policy.ckpt').subarray(0, 100));
    const files = await RobotModelFiles.open();
    await expect(files.bytes('policy')).rejects.toThrow(`public/models/robot/policy.ckpt: 100 bytes, manifest says ${read('policy.ckpt').length}; the file is truncated or replaced — ${ROBOT_MODELS_REMEDY}`);
    served.delete('policy-report.json');
    await expect(files.json('policyReport')).rejects.toThrow(`public/models/robot/policy-report.json: HTTP 404; the file is missing — ${ROBOT_MODELS_REMEDY}`);
    served.delete('manifest.json');
    await expect(RobotModelFiles.open()).rejects.toThrow(`public/models/robot/manifest.json: HTTP 404; the robot models are missing — ${ROBOT_MODELS_REMEDY}`);
  });
});
