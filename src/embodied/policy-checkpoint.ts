// A robot policy checkpoint (written by src/cli/robot-bc.ts) read back: the model and the frame
// encoding it was trained with (frame tokenizer, encoding, octants in the checkpoint's meta), so a
// loop that samples from it builds exactly the prompts it learned from.

import { loadCheckpoint } from '../model/checkpoint.ts';
import type { Model } from '../model/init.ts';
import { EgocentricFrameTokens } from './egocentric-frame-tokens.ts';
import { FrameTokenizer } from './frame-tokens.ts';
import type { PolicyFrameTokens } from './policy-model.ts';
import { SparseFrameTokens } from './sparse-frame-tokens.ts';

export interface RobotPolicyCheckpoint {
  model: Model;
  frames: PolicyFrameTokens;
}

export function readRobotPolicy(bytes: Uint8Array | ArrayBuffer): RobotPolicyCheckpoint {
  const { model, meta } = loadCheckpoint(bytes);
  if (meta.kind !== 'robot-bc-policy') throw new Error(`not a robot policy checkpoint (its kind is ${JSON.stringify(meta.kind)}, expected "robot-bc-policy")`);
  const base = FrameTokenizer.fromJSON(meta.frameTokenizer);
  const frames: PolicyFrameTokens = meta.encoding === 'egocentric' ? new EgocentricFrameTokens(base, meta.octants === true)
    : meta.encoding === 'sparse' ? new SparseFrameTokens(base)
    : meta.encoding === 'dense' ? base
    : (() => { throw new Error(`robot policy checkpoint: unknown frame encoding ${JSON.stringify(meta.encoding)}`); })();
  if (frames.vocabSize !== model.config.vocabSize) throw new Error(`robot policy checkpoint: its frame encoding has ${frames.vocabSize} tokens, the model ${model.config.vocabSize}`);
  return { model, frames };
}
