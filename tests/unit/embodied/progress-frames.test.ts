// What the page's robot worker does with the committed models, checked in Node: the progress model's
// input of a rollout is the 8 frames frameIndices picks, the ONNX runner it scores them with agrees
// with the reference forward, and the policy's frame encoding is rebuilt from its checkpoint's meta.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EgocentricFrameTokens } from '../../../src/embodied/egocentric-frame-tokens.ts';
import { FrameTokenizer } from '../../../src/embodied/frame-tokens.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { policyFrameTokensOf } from '../../../src/embodied/policy-frame-tokens.ts';
import { clampProgress, progressFrameSequences } from '../../../src/embodied/progress-frames.ts';
import { renderScene } from '../../../src/embodied/renderer.ts';
import { demonstrate } from '../../../src/embodied/rollout.ts';
import { frameIndices } from '../../../src/embodied/shaping.ts';
import { HELDOUT_TASKS, TRAIN_TASKS } from '../../../src/embodied/tasks.ts';
import { WorldModelRunner } from '../../../src/engine/onnx/world-model-runner.ts';
import { loadCheckpoint } from '../../../src/model/checkpoint.ts';
import { worldModelScores } from '../../../src/model/losses.ts';
import { exportWorldModel } from '../../../src/model/onnx/export.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';

const results = join(import.meta.dirname, '../../../results');

describe('progress frames', () => {
  const progress = loadCheckpoint(readFileSync(join(results, 'robot-progress/progress-model.ckpt')));
  const tokenizer = FrameTokenizer.fromJSON(progress.meta.frameTokenizer);
  const task = HELDOUT_TASKS[1];
  const episode = demonstrate(task, initialScene(task, 'heldout', 2), 0.2, 5);

  it('are the 8 frames frameIndices picks, encoded as the progress model was trained', () => {
    const seqs = progressFrameSequences(tokenizer, task, episode.states);
    expect(seqs).toEqual(frameIndices(episode.states.length).map((i) => tokenizer.encode(task.instruction, renderScene(episode.states[i])).tokens));
  });

  it('score the same on the ONNX runner (the worker\'s) as on the reference forward', async () => {
    const seqs = progressFrameSequences(tokenizer, task, episode.states);
    const runner = await WorldModelRunner.create(exportWorldModel(progress.model, 'initializers'), new Tokenizer([]), progress.model.config, { prefer: 'wasm', numThreads: 1 });
    try {
      const { scores } = await runner.scoreSequences(seqs);
      const reference = worldModelScores(progress.model, makeSequenceBatch(seqs.map((tokens) => ({ tokens, programStart: 0 }))));
      for (let i = 0; i < 8; i++) expect(Math.abs(scores[i] - reference[i]), `frame ${i}`).toBeLessThan(1e-4);
    } finally {
      await runner.release();
    }
  }, 120_000);

  it('clamp into [0, 1] and refuse NaN', () => {
    expect([clampProgress(-0.1), clampProgress(0.4), clampProgress(1.2)]).toEqual([0, 0.4, 1]);
    expect(() => clampProgress(Number.NaN)).toThrow(/NaN/);
  });
});

describe('the policy\'s frame encoding from its checkpoint', () => {
  it('is the committed policy\'s egocentric encoding with octants, its vocabulary the model\'s', () => {
    const { model, meta } = loadCheckpoint(readFileSync(join(results, 'robot-bc/policy.ckpt')));
    const frames = policyFrameTokensOf(meta);
    expect(frames).toBeInstanceOf(EgocentricFrameTokens);
    expect((frames as EgocentricFrameTokens).octants).toBe(true);
    expect((frames as EgocentricFrameTokens).lead).toBe(meta.lead ?? 'none');
    expect((policyFrameTokensOf({ ...meta, lead: 'centre' }) as EgocentricFrameTokens).lead).toBe('centre');
    expect(() => policyFrameTokensOf({ ...meta, lead: 'colour' })).toThrow(/unknown cell lead "colour"/);
    expect(() => policyFrameTokensOf({ ...meta, plainPatch: true })).toThrow(/"plainPatch", the old name of lead "patch"/);
    expect(frames.vocabSize).toBe(model.config.vocabSize);
    const task = TRAIN_TASKS[0];
    expect(frames.encode(task.instruction, renderScene(initialScene(task, 'train', 0))).tokens.length).toBeLessThanOrEqual(model.config.contextLength);
  });

  it('refuses a checkpoint of another kind or an unknown encoding', () => {
    const { meta } = loadCheckpoint(readFileSync(join(results, 'robot-bc/policy.ckpt')));
    expect(() => policyFrameTokensOf({ ...meta, kind: 'robot-progress' })).toThrow(/not a robot policy checkpoint \(kind "robot-progress"/);
    expect(() => policyFrameTokensOf({ ...meta, encoding: 'pixels' })).toThrow(/unknown frame encoding "pixels"/);
  });
});
