// The CLIs' side of model integrity: reads a models folder from disk and checks every required file
// against the folder's manifest (size, sha256 with node:crypto) through the checks the page uses.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  ModelIntegrityError,
  MODEL_REMEDY,
  REQUIRED_MODEL_FILES,
  manifestEntry,
  parseModelsManifest,
  verifyModelFile,
  type ModelsManifest,
} from '../model/model-integrity.ts';
import { sha256Hex } from '../pipeline/manifest.ts';

export interface VerifiedModels {
  manifest: ModelsManifest;
  /** The checked bytes of each required file, by name. */
  files: Record<(typeof REQUIRED_MODEL_FILES)[number], Uint8Array>;
}

function readOrExplain(path: string, shown: string, remedy: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ModelIntegrityError(shown, `${shown}: ${code === 'ENOENT' ? 'missing' : `unreadable (${(e as Error).message})`}; ${remedy}`);
  }
}

/**
 * Reads `dir`/manifest.json and the required model files, each checked against the manifest.
 * Messages name files relative to `base` (the project root, so "public/models/world-model.onnx")
 * and end with `remedy`, what to do about it.
 */
export async function readVerifiedModels(dir: string, base = process.cwd(), remedy = MODEL_REMEDY): Promise<VerifiedModels> {
  const shown = (name: string): string => relative(base, join(dir, name)) || name;
  const manifestPath = shown('manifest.json');
  const manifest = parseModelsManifest(readOrExplain(join(dir, 'manifest.json'), manifestPath, remedy).toString('utf8'), manifestPath, remedy);
  const files = {} as VerifiedModels['files'];
  for (const name of REQUIRED_MODEL_FILES) {
    const entry = manifestEntry(manifest, name, manifestPath, remedy);
    const bytes = readOrExplain(join(dir, name), shown(name), remedy);
    await verifyModelFile(shown(name), bytes, entry, sha256Hex, remedy);
    files[name] = bytes;
  }
  return { manifest, files };
}

/**
 * Checks a file of the models folder that is not a model (heldout-samples.jsonl) against its
 * manifest entry, where it is read: a manifest's sha256 that nothing checks guards nothing.
 * A file the manifest does not list is left alone.
 */
export async function verifyListedFile(dir: string, name: string, manifest: ModelsManifest, base = process.cwd(), remedy = MODEL_REMEDY): Promise<void> {
  const entry = manifest.files.find((f) => f.name === name);
  if (!entry) return;
  const shown = relative(base, join(dir, name)) || name;
  await verifyModelFile(shown, readOrExplain(join(dir, name), shown, remedy), entry, sha256Hex, remedy);
}
