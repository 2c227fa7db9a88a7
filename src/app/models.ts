// The committed models (public/models, built by the models pipeline): the manifest says which files
// exist, their sizes and hashes, and the configuration. The page fetches each file once, checks it
// against the manifest (size, sha256) and hands the checked bytes to the workers, so a truncated or
// replaced file is refused here with its name instead of failing, or training, further on.
import { appUrl } from '../primitives/app-root.ts';
import type { TokenizerJSON } from '../model/tokenizer.ts';
import { parseLadderReading, READING_FILE, type LadderReading } from '../pipeline/ladder-reading.ts';
import { LOOKUP_FILE } from '../pipeline/family-type-lookup.ts';
import {
  ModelIntegrityError,
  MODEL_REMEDY,
  REQUIRED_MODEL_FILES,
  manifestEntry,
  parseModelsManifest,
  subtleSha256Hex,
  verifyModelFile,
  type ModelsManifest,
} from '../model/model-integrity.ts';

export type { ModelsManifest as AppModelsManifest, ModelsManifestFile } from '../model/model-integrity.ts';

/** What the trainer needs to start the policy and the world model. */
export interface ModelSources {
  /** Policy checkpoint (with tokenizer): bytes or URL. */
  policyCheckpoint: ArrayBuffer | string;
  /** World-model ONNX: bytes or URL. */
  worldModel: Uint8Array | string;
  tokenizer: TokenizerJSON;
  contextLength: number;
  nHeads: number;
  /** Where these came from, for the UI. */
  label: string;
  /** The family x task-type lookup (family-type-lookup.json), checked against the manifest, where the folder lists one; its text and path, parsed where it is used. */
  familyTypeLookup?: { text: string; path: string };
}

/** Fetches one file of the models folder; `path` names it in messages. */
async function fetchBytes(url: URL, path: string): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new ModelIntegrityError(path, `${path}: could not be fetched (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!res.ok) throw new ModelIntegrityError(path, `${path}: HTTP ${res.status}; the file is missing — ${MODEL_REMEDY}`);
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * Reads <base>/manifest.json and every model file it lists as required, each checked against the
 * manifest before use; `name` is how messages name the folder (public/models, or a --models folder).
 */
export async function loadCommittedModels(base = appUrl('models/'), name = 'public/models'): Promise<ModelSources> {
  const root = new URL(base, self.location.href);
  const manifestPath = `${name}/manifest.json`;
  const res = await fetch(new URL('manifest.json', root));
  if (!res.ok) throw new Error(`no models at ${root.pathname} (manifest.json: HTTP ${res.status}); build them with the models pipeline (npm run build:models)`);
  const manifest: ModelsManifest = parseModelsManifest(await res.text(), manifestPath);
  const bytes = await Promise.all(
    REQUIRED_MODEL_FILES.map(async (file) => {
      const entry = manifestEntry(manifest, file, manifestPath);
      const path = `${name}/${file}`;
      const b = await fetchBytes(new URL(file, root), path);
      await verifyModelFile(path, b, entry, subtleSha256Hex);
      return b;
    }),
  );
  const [policy, worldModel, tokenizer] = bytes;
  // optional: a models build not followed by `wm-eval --write-lookup` has none, and only paper-wmrl-lookup needs it
  let familyTypeLookup: ModelSources['familyTypeLookup'];
  if (manifest.files.some((f) => f.name === LOOKUP_FILE)) {
    const path = `${name}/${LOOKUP_FILE}`;
    const b = await fetchBytes(new URL(LOOKUP_FILE, root), path);
    await verifyModelFile(path, b, manifestEntry(manifest, LOOKUP_FILE, manifestPath), subtleSha256Hex);
    familyTypeLookup = { text: new TextDecoder().decode(b), path };
  }
  let tokenizerJson: TokenizerJSON;
  try {
    tokenizerJson = JSON.parse(new TextDecoder().decode(tokenizer)) as TokenizerJSON;
  } catch (e) {
    // Matches its manifest entry yet is not JSON: the manifest was rebuilt from a broken file.
    throw new ModelIntegrityError(`${name}/tokenizer.json`, `${name}/tokenizer.json: not valid JSON (${e instanceof Error ? e.message : String(e)}); ${MODEL_REMEDY}`);
  }
  return {
    policyCheckpoint: policy.buffer.slice(policy.byteOffset, policy.byteOffset + policy.byteLength) as ArrayBuffer,
    worldModel,
    tokenizer: tokenizerJson,
    contextLength: manifest.config.contextLength,
    nHeads: manifest.config.nHeads,
    label: `${name} (${manifest.files.map((f) => `${f.name} ${f.sha256.slice(0, 8)}`).join(', ')})`,
    ...(familyTypeLookup ? { familyTypeLookup } : {}),
  };
}

/**
 * The committed world model's reading onto the authors' status ladder (ladder-reading.json, written by
 * `npm run wm-eval -- --write-reading`), checked against the manifest like a model file; null when the
 * folder lists none (a models build that was not followed by wm-eval).
 */
export async function loadLadderReading(base = appUrl('models/'), name = 'public/models'): Promise<{ reading: LadderReading; fittedOn: string } | null> {
  const root = new URL(base, self.location.href);
  const manifestPath = `${name}/manifest.json`;
  const res = await fetch(new URL('manifest.json', root));
  if (!res.ok) throw new Error(`no models at ${root.pathname} (manifest.json: HTTP ${res.status})`);
  const manifest = parseModelsManifest(await res.text(), manifestPath);
  if (!manifest.files.some((f) => f.name === READING_FILE)) return null;
  const path = `${name}/${READING_FILE}`;
  const bytes = await fetchBytes(new URL(READING_FILE, root), path);
  await verifyModelFile(path, bytes, manifestEntry(manifest, READING_FILE, manifestPath), subtleSha256Hex);
  return parseLadderReading(new TextDecoder().decode(bytes), path);
}
