// The committed models (public/models, built by the models pipeline): the manifest says which files
// exist, their sizes and hashes, and the configuration. The app loads them by URL from here.
import type { ModelConfig } from '../model/config';
import type { TokenizerJSON } from '../model/tokenizer';

export interface ModelsManifestFile {
  name: string;
  bytes: number;
  sha256: string;
  role: string;
}

export interface AppModelsManifest {
  format: 'wmrl-models';
  version: 1;
  files: ModelsManifestFile[];
  config: ModelConfig;
  [key: string]: unknown;
}

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
}

const REQUIRED = ['policy.ckpt', 'world-model.onnx', 'tokenizer.json'] as const;

/** Reads /models/manifest.json and returns the sources; a clear error when the models are not built. */
export async function loadCommittedModels(base = '/models/', name = 'public/models'): Promise<ModelSources> {
  const root = new URL(base, self.location.href);
  const res = await fetch(new URL('manifest.json', root));
  if (!res.ok) throw new Error(`no models at ${root.pathname} (manifest.json: HTTP ${res.status}); build them with the models pipeline (src/cli/build-models.ts)`);
  const manifest = (await res.json()) as AppModelsManifest;
  if (manifest.format !== 'wmrl-models' || manifest.version !== 1) throw new Error(`models manifest: format ${String(manifest.format)} v${String(manifest.version)} is not supported`);
  for (const name of REQUIRED) if (!manifest.files.some((f) => f.name === name)) throw new Error(`models manifest lists no ${name}`);
  const tokRes = await fetch(new URL('tokenizer.json', root));
  if (!tokRes.ok) throw new Error(`models: tokenizer.json: HTTP ${tokRes.status}`);
  return {
    policyCheckpoint: new URL('policy.ckpt', root).href,
    worldModel: new URL('world-model.onnx', root).href,
    tokenizer: (await tokRes.json()) as TokenizerJSON,
    contextLength: manifest.config.contextLength,
    nHeads: manifest.config.nHeads,
    label: `${name} (${manifest.files.map((f) => `${f.name} ${f.sha256.slice(0, 8)}`).join(', ')})`,
  };
}
