// The committed world model (public/models: world-model.onnx, its tokenizer and manifest) and its
// held-out programs, as the GPU tests that score real programs read them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ModelConfig } from '../../src/model/config.ts';
import { Tokenizer } from '../../src/model/tokenizer.ts';
import type { WorldModelPair } from '../../src/engine/world-model-batches.ts';

const models = resolve(import.meta.dirname, '../../public/models');

export interface CommittedWorldModel {
  bytes: Uint8Array;
  tokenizer: Tokenizer;
  config: ModelConfig;
}

export function committedWorldModel(): CommittedWorldModel {
  const manifest = JSON.parse(readFileSync(resolve(models, 'manifest.json'), 'utf8')) as { config: ModelConfig };
  return {
    bytes: new Uint8Array(readFileSync(resolve(models, 'world-model.onnx'))),
    tokenizer: Tokenizer.fromJSON(JSON.parse(readFileSync(resolve(models, 'tokenizer.json'), 'utf8'))),
    config: manifest.config,
  };
}

/** Every `every`-th held-out sample (several tasks, lengths from short to long). */
export function heldoutPairs(every: number): WorldModelPair[] {
  return readFileSync(resolve(models, 'heldout-samples.jsonl'), 'utf8').trim().split('\n')
    .filter((_, i) => i % every === 0).map((line) => JSON.parse(line) as WorldModelPair);
}
