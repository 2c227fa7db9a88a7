// A robot policy checkpoint (written by src/cli/robot-bc.ts) read back: the model and the frame
// encoding it was trained with (policy-frame-tokens.ts reads it from the meta), so a loop that
// samples from it builds exactly the prompts it learned from.

import { loadCheckpoint } from '../model/checkpoint.ts';
import type { Model } from '../model/init.ts';
import type { PolicyFrameTokens } from './policy-model.ts';
import { policyFrameTokensOf } from './policy-frame-tokens.ts';

export interface RobotPolicyCheckpoint {
  model: Model;
  frames: PolicyFrameTokens;
}

export function readRobotPolicy(bytes: Uint8Array | ArrayBuffer): RobotPolicyCheckpoint {
  const { model, meta } = loadCheckpoint(bytes);
  const frames = policyFrameTokensOf(meta);
  if (frames.vocabSize !== model.config.vocabSize) throw new Error(`robot policy checkpoint: its frame encoding has ${frames.vocabSize} tokens, the model ${model.config.vocabSize}`);
  return { model, frames };
}
