// The world-model worker: holds one onnxruntime-web session of the frozen world model and scores
// batches of (card, program) pairs, on WebGPU where the machine has it, else on the wasm EP.
import * as Comlink from 'comlink';
import { Tokenizer } from '../model/tokenizer.ts';
import { WorldModelRunner } from '../engine/onnx/world-model-runner.ts';
import type { WorldModelApi, WorldModelInfo, WorldModelLoadRequest, WorldModelScores } from './world-model-api.ts';

let runner: WorldModelRunner | null = null;

async function bytesOf(model: Uint8Array | string): Promise<Uint8Array> {
  if (typeof model !== 'string') return model;
  const response = await fetch(model);
  if (!response.ok) throw new Error(`world model: fetching ${model} failed (${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}

const api: WorldModelApi = {
  async load(request: WorldModelLoadRequest): Promise<WorldModelInfo> {
    if (runner) await runner.release();
    runner = null;
    runner = await WorldModelRunner.create(await bytesOf(request.model), Tokenizer.fromJSON(request.tokenizer), request, {
      prefer: request.prefer,
      wasmPaths: request.wasmPaths,
    });
    return { backend: runner.backend, reason: runner.reason };
  },

  async score(pairs): Promise<WorldModelScores> {
    if (!runner) throw new Error('world model: load() a model first');
    const r = await runner.score(pairs);
    return { scores: Array.from(r.scores), backend: runner.backend, truncated: r.truncated, forwards: r.forwards, ms: r.ms };
  },

  async release(): Promise<void> {
    if (runner) await runner.release();
    runner = null;
  },
};

Comlink.expose(api);
