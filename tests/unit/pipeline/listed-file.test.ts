// addListedFile: a file written into a models folder after its build (wm-eval --write-reading) is
// listed in the manifest so every reader checks it; writing it again replaces its entry.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { addListedFile, checkManifest, describeFile, writeManifest, type ModelsManifest } from '../../../src/pipeline/manifest.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('lists a new file, replaces its entry when rewritten, and keeps the rest of the manifest', () => {
  dir = mkdtempSync(join(tmpdir(), 'listed-'));
  writeFileSync(join(dir, 'a.bin'), 'aaa');
  writeManifest(dir, [describeFile(dir, 'a.bin', 'a')], { config: { contextLength: 8 }, seed: 3 });
  addListedFile(dir, 'r.json', new TextEncoder().encode('{"v":1}'), 'reading');
  addListedFile(dir, 'r.json', new TextEncoder().encode('{"v":22}'), 'reading');
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ModelsManifest;
  expect(m.files.map((f) => [f.name, f.bytes])).toEqual([['a.bin', 3], ['r.json', 8]]);
  expect(m.seed).toBe(3);
  expect(m.config).toEqual({ contextLength: 8 });
  expect(checkManifest(dir)).toEqual([]);
});
