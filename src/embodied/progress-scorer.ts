// The frozen progress model as the robot loop calls it: scenes in (with the instruction of their
// task), one progress score in [0, 1] each out. The committed model (results/robot-progress, trained
// by src/cli/robot-progress.ts) reads [bos] instruction [sep] 144 frame-patch tokens; it runs as an
// exported ONNX world model on onnxruntime-web (wasm in Node, wasm or WebGPU in the page).

import { WorldModelRunner, type WorldModelRunnerOptions } from '../engine/onnx/world-model-runner.ts';
import { loadCheckpoint } from '../model/checkpoint.ts';
import { exportWorldModel } from '../model/onnx/export.ts';
import { Tokenizer } from '../model/tokenizer.ts';
import { FrameTokenizer } from './frame-tokens.ts';
import { clampProgress } from './progress-frames.ts';
import { renderScene } from './renderer.ts';
import type { SceneState } from './scene.ts';

export interface ProgressItem {
  instruction: string;
  state: SceneState;
}

/** Scores scenes in one call; the answer has one score in [0, 1] per item, in order. */
export type ProgressScorer = (items: readonly ProgressItem[]) => Promise<number[]>;

/** A scorer over anything that scores token sequences (the ONNX runner, or a reference forward in tests). */
export function progressScorer(frames: FrameTokenizer, score: (sequences: number[][]) => Promise<ArrayLike<number>>): ProgressScorer {
  return async (items) => {
    if (items.length === 0) return [];
    const got = await score(items.map(({ instruction, state }) => frames.encode(instruction, renderScene(state)).tokens));
    if (got.length !== items.length) throw new Error(`progress model: ${got.length} scores for ${items.length} frames`);
    return Array.from(got, clampProgress);
  };
}

/** The committed progress model from its checkpoint bytes, on an ONNX runner; release() frees it. */
export async function loadProgressModel(bytes: Uint8Array | ArrayBuffer, options: WorldModelRunnerOptions = {}): Promise<{ score: ProgressScorer; release: () => Promise<void> }> {
  const { runner, score } = await openProgressModel(bytes, options);
  return { score, release: () => runner.release() };
}

/** The same, with its runner, frame tokenizer and size, for a caller that also scores token sequences itself (the page's robot worker). */
export async function openProgressModel(bytes: Uint8Array | ArrayBuffer, options: WorldModelRunnerOptions = {}): Promise<{ score: ProgressScorer; runner: WorldModelRunner; frames: FrameTokenizer; numParameters: number }> {
  const { model, meta } = loadCheckpoint(bytes);
  if (meta.kind !== 'robot-progress') throw new Error(`not a robot progress model checkpoint (its kind is ${JSON.stringify(meta.kind)}, expected "robot-progress")`);
  const frames = FrameTokenizer.fromJSON(meta.frameTokenizer);
  if (frames.vocabSize !== model.config.vocabSize) throw new Error(`progress model: its frame tokenizer has ${frames.vocabSize} tokens, the model ${model.config.vocabSize}`);
  // The runner scores token sequences directly; its text tokenizer is never used for them.
  const runner = await WorldModelRunner.create(exportWorldModel(model, 'initializers'), new Tokenizer([]), model.config, options);
  return { score: progressScorer(frames, async (seqs) => (await runner.scoreSequences(seqs)).scores), runner, frames, numParameters: model.layout.numParameters };
}
