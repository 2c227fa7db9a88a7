import { describe, expect, it } from 'vitest';
import { EgocentricFrameTokens } from '../../../src/embodied/egocentric-frame-tokens.ts';
import { FrameTokenizer, actionToken } from '../../../src/embodied/frame-tokens.ts';
import { ACTIONS } from '../../../src/embodied/kinematics.ts';
import { behaviourCloningExamples } from '../../../src/embodied/policy-data.ts';
import { modelPolicy, policyPrompt, policySequence } from '../../../src/embodied/policy-model.ts';
import { renderScene } from '../../../src/embodied/renderer.ts';
import { ALL_TASKS, TRAIN_TASKS } from '../../../src/embodied/tasks.ts';
import { CpuEngine } from '../../../src/engine/cpu/cpu-engine.ts';
import { namedConfig } from '../../../src/model/config.ts';
import { createModel } from '../../../src/model/init.ts';
import { makeSequenceBatch } from '../../../src/model/sequence-batch.ts';
import { trainSteps } from '../../../src/pipeline/train-steps.ts';
import { SPECIAL_TOKENS } from '../../../src/model/tokenizer.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';

// Two tasks, one noisy demonstration each, every third scene: two dozen scenes of different prompt lengths.
const examples = behaviourCloningExamples(TRAIN_TASKS.slice(0, 2), 'train', 1, [0.3]).filter((_, i) => i % 3 === 0);
const frames = new EgocentricFrameTokens(FrameTokenizer.build(ALL_TASKS.map((t) => t.instruction), examples.map((e) => renderScene(e.state))));

describe('the policy model', () => {
  it('trains on the prompt followed by the action, with the loss on the action alone', () => {
    const e = examples[3];
    const s = policySequence(frames, e);
    const prompt = policyPrompt(frames, e.task, e.state);
    expect(prompt).toEqual([...frames.encode(e.task.instruction, renderScene(e.state)).tokens, SPECIAL_TOKENS.sep]);
    expect(s.tokens.slice(0, s.programStart)).toEqual(prompt);
    expect(s.tokens.slice(s.programStart)).toEqual([actionToken(e.action)]);
    const mask = makeSequenceBatch([s]).lossMask;
    expect(Array.from(mask).map((m, t) => (m ? t : -1)).filter((t) => t >= 0)).toEqual([s.tokens.length - 1]);
  });

  it('acts out at rollout what it learned in training: the decoder reads the action training taught, at every scene', async () => {
    const seqs = examples.map((e) => policySequence(frames, e));
    expect(new Set(seqs.map((s) => s.tokens.length)).size).toBeGreaterThan(1);
    const config = namedConfig('mini', { vocabSize: frames.vocabSize, contextLength: 8 * Math.ceil(Math.max(...seqs.map((s) => s.tokens.length)) / 8) });
    const engine = CpuEngine.fromModel(createModel(config, mulberry32(1)));
    try {
      await trainSteps(engine, seqs, () => ({ kind: 'sft' }), { steps: 200, batchSize: 8, peakLr: 3e-3, warmup: 10, weightDecay: 0.01, maxGradNorm: 1 }, mulberry32(2), () => {});
      // The training forward: the log-probability of each of the six actions after each prompt.
      const candidates = examples.flatMap((e) => ACTIONS.map((action) => policySequence(frames, { ...e, action })));
      const batch = makeSequenceBatch(candidates);
      const logProbs = await engine.logProbs(batch);
      const learned = examples.map((_, i) => {
        const lp = ACTIONS.map((_, a) => logProbs[(i * ACTIONS.length + a) * batch.T + candidates[i * ACTIONS.length + a].programStart]);
        return ACTIONS[lp.indexOf(Math.max(...lp))];
      });
      // It fitted the demonstrations (the run is seeded, so this is a fixed outcome, not a tolerance).
      expect(learned).toEqual(examples.map((e) => e.action));
      // The rollout path: one batched engine call for all scenes, mixed prompt lengths, greedy.
      const acted = await modelPolicy(engine, frames, { temperature: 0, seed: 1 })(examples.map((e, t) => ({ task: e.task, state: e.state, t })));
      expect(acted).toEqual(learned);
    } finally {
      await engine.dispose();
    }
  }, 60_000);
});
