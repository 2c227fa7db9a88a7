// Model integrity: every model file is checked against its models manifest (size, then sha256)
// before anything parses it. A truncated ONNX or a checkpoint with replaced weights would otherwise
// fail deep inside a parser naming no file, or, worse, load and train silently. Pure: the page
// (crypto.subtle) and the CLIs (node:crypto) pass their own sha256 and share these checks and messages.
import type { ModelConfig } from './config.ts';

/** One file of a models folder as its manifest lists it (the models pipeline writes the manifest). */
export interface ManifestFile {
  name: string;
  bytes: number;
  sha256: string;
  role: string;
}

/** The manifest format as the pipeline writes it. */
export interface WrittenManifest {
  format: 'wmrl-models';
  version: 1;
  files: ManifestFile[];
  [key: string]: unknown;
}

export type ModelsManifestFile = ManifestFile;

/** A manifest as read back: the written format, whose config the readers rely on. */
export type ModelsManifest = WrittenManifest & { config: ModelConfig };

/** The model files the app and the CLIs need from a models folder. */
export const REQUIRED_MODEL_FILES = ['policy.ckpt', 'world-model.onnx', 'tokenizer.json'] as const;

/** What a reader can do about a bad committed model file. */
export const MODEL_REMEDY = 'rebuild with npm run build:models or restore it with git checkout';

export class ModelIntegrityError extends Error {
  /** The file at fault, as the message names it (e.g. public/models/world-model.onnx). */
  readonly file: string;
  constructor(file: string, message: string) {
    super(message);
    this.name = 'ModelIntegrityError';
    this.file = file;
  }
}

export type Sha256Hex = (bytes: Uint8Array) => string | Promise<string>;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Parses and checks a models manifest; `path` names it in every message. Throws
 * ModelIntegrityError for invalid JSON (a truncated file) or a field that is missing or malformed.
 */
export function parseModelsManifest(text: string, path: string, remedy = MODEL_REMEDY): ModelsManifest {
  const parsed = parseManifestFiles(text, path, remedy) as WrittenManifest & { config?: unknown };
  const fail = (what: string): never => {
    throw new ModelIntegrityError(path, `${path}: ${what}; ${remedy}`);
  };
  const config = parsed.config;
  if (!isObject(config)) return fail('the manifest has no "config" object');
  for (const key of ['contextLength', 'nHeads', 'vocabSize'] as const) {
    if (typeof config[key] !== 'number' || !Number.isInteger(config[key]) || (config[key] as number) < 1) fail(`config.${key} is not a positive integer`);
  }
  return parsed as ModelsManifest;
}

/**
 * The format and the files list of a manifest, without the single model configuration that a
 * models folder of one policy and one world model carries (the robot's folder holds two models,
 * each with its own configuration inside its checkpoint). The same messages as parseModelsManifest.
 */
export function parseManifestFiles(text: string, path: string, remedy = MODEL_REMEDY): WrittenManifest {
  function fail(what: string): never {
    throw new ModelIntegrityError(path, `${path}: ${what}; ${remedy}`);
  }
  if (text.trim() === '') fail('the manifest is empty');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    fail(`not valid JSON (${e instanceof Error ? e.message : String(e)}), so the manifest is truncated or corrupted`);
  }
  if (!isObject(parsed)) return fail('the manifest is not a JSON object');
  if (parsed.format !== 'wmrl-models' || parsed.version !== 1) fail(`format ${JSON.stringify(parsed.format)} version ${JSON.stringify(parsed.version)} is not a wmrl-models v1 manifest`);
  if (!Array.isArray(parsed.files)) fail('the manifest has no "files" list');
  (parsed.files as unknown[]).forEach((f, i) => {
    const at = `files[${i}]`;
    if (!isObject(f)) return fail(`${at} is not an object`);
    if (typeof f.name !== 'string' || f.name === '' || f.name.includes('/')) fail(`${at}.name is not a plain file name`);
    if (typeof f.bytes !== 'number' || !Number.isInteger(f.bytes) || f.bytes < 0) fail(`${at}.bytes (${String(f.name)}) is not a byte count`);
    if (typeof f.sha256 !== 'string' || !SHA256_HEX.test(f.sha256)) fail(`${at}.sha256 (${String(f.name)}) is not a 64-digit lower-case hex sha256`);
  });
  return parsed as WrittenManifest;
}

/** The manifest's entry for `name`; throws naming the manifest when it lists no such file. */
export function manifestEntry(manifest: WrittenManifest, name: string, manifestPath: string, remedy = MODEL_REMEDY): ModelsManifestFile {
  const entry = manifest.files.find((f) => f.name === name);
  if (!entry) throw new ModelIntegrityError(manifestPath, `${manifestPath} lists no ${name}, so it cannot be checked; ${remedy}`);
  return entry;
}

/**
 * What is wrong with a model file's bytes against its manifest entry, or null when they match.
 * `sha256` is the hex digest of `bytes`, or undefined when the size already differs (no need to hash).
 */
export function modelFileProblem(path: string, bytes: Uint8Array, entry: ModelsManifestFile, sha256: string | undefined, remedy = MODEL_REMEDY): string | null {
  if (bytes.length !== entry.bytes) {
    const what = bytes.length < entry.bytes ? 'the file is truncated or replaced' : 'the file is replaced or has bytes appended';
    return `${path}: ${bytes.length} bytes, manifest says ${entry.bytes}; ${what} — ${remedy}`;
  }
  if (sha256 === undefined) throw new Error(`modelFileProblem(${path}): a file of the right size needs its sha256`);
  if (sha256.toLowerCase() !== entry.sha256) {
    return `${path}: sha256 ${sha256.slice(0, 16)}…, manifest says ${entry.sha256.slice(0, 16)}…; the file is corrupted or replaced — ${remedy}`;
  }
  return null;
}

/** Checks size, then sha256 (computed only when the size matches); throws ModelIntegrityError on a mismatch. */
export async function verifyModelFile(path: string, bytes: Uint8Array, entry: ModelsManifestFile, sha256: Sha256Hex, remedy = MODEL_REMEDY): Promise<void> {
  const digest = bytes.length === entry.bytes ? await sha256(bytes) : undefined;
  const problem = modelFileProblem(path, bytes, entry, digest, remedy);
  if (problem) throw new ModelIntegrityError(path, problem);
}

/** Lower-case hex of a digest. */
export function hexOf(digest: ArrayBuffer | Uint8Array): string {
  return Array.from(digest instanceof Uint8Array ? digest : new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** sha256 with WebCrypto: the page and workers (also present in Node 20, where the CLIs use node:crypto). */
export async function subtleSha256Hex(bytes: Uint8Array): Promise<string> {
  return hexOf(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}
