// Stage 6: public/models/manifest.json describes every model file (name, bytes, sha256) with the
// configuration, the tokenizer's vocabulary, training settings and seeds, the measured figures and
// the time per stage, so the app can check what it loads and a reader can see how it was made.

import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ManifestFile, WrittenManifest as ModelsManifest } from '../model/model-integrity.ts';

export type { ManifestFile, ModelsManifest };

export const MANIFEST_NAME = 'manifest.json';

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function describeFile(dir: string, name: string, role: string): ManifestFile {
  const bytes = readFileSync(join(dir, name));
  return { name, bytes: bytes.length, sha256: sha256Hex(bytes), role };
}

export function writeManifest(dir: string, files: ManifestFile[], rest: Record<string, unknown>): ModelsManifest {
  const manifest: ModelsManifest = { format: 'wmrl-models', version: 1, files, ...rest };
  writeFileSync(join(dir, MANIFEST_NAME), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/** Writes `bytes` as `name` into the folder and lists it in its manifest (replacing an older entry of that name). */
export function addListedFile(dir: string, name: string, bytes: Uint8Array, role: string): ManifestFile {
  const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_NAME), 'utf8')) as ModelsManifest;
  writeFileSync(join(dir, name), bytes);
  const entry = describeFile(dir, name, role);
  const { format: _f, version: _v, files, ...rest } = manifest;
  writeManifest(dir, [...files.filter((f) => f.name !== name), entry], rest);
  return entry;
}

/** Problems found when checking the manifest against the folder (empty: consistent). */
export function checkManifest(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_NAME), 'utf8')) as ModelsManifest;
  const problems: string[] = [];
  for (const f of manifest.files) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(join(dir, f.name));
    } catch {
      problems.push(`${f.name}: missing`);
      continue;
    }
    if (bytes.length !== f.bytes) problems.push(`${f.name}: ${bytes.length} bytes, manifest says ${f.bytes}`);
    if (sha256Hex(bytes) !== f.sha256) problems.push(`${f.name}: sha256 differs from the manifest`);
  }
  const listed = new Set([MANIFEST_NAME, ...manifest.files.map((f) => f.name)]);
  for (const name of readdirSync(dir)) if (statSync(join(dir, name)).isFile() && !listed.has(name)) problems.push(`${name}: not in the manifest`);
  return problems;
}
