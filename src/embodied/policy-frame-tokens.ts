// The frame encoding a robot policy checkpoint was trained with, rebuilt from its meta (written by
// src/cli/robot-bc.ts: kind, frameTokenizer, encoding, octants, lead), so a rollout in the page reads frames
// exactly as training did.

import { EgocentricFrameTokens, type CellLead } from './egocentric-frame-tokens.ts';
import { FrameTokenizer } from './frame-tokens.ts';
import type { PolicyFrameTokens } from './policy-model.ts';
import { SparseFrameTokens } from './sparse-frame-tokens.ts';

export function policyFrameTokensOf(meta: Record<string, unknown>): PolicyFrameTokens {
  if (meta.kind !== 'robot-bc-policy') throw new Error(`not a robot policy checkpoint (kind ${JSON.stringify(meta.kind)}, expected "robot-bc-policy")`);
  const base = FrameTokenizer.fromJSON(meta.frameTokenizer);
  switch (meta.encoding) {
    case 'dense':
      return base;
    case 'sparse':
      return new SparseFrameTokens(base);
    case 'egocentric':
      // `plainPatch` was this meta's name for lead 'patch' for one commit; read silently as 'none' it would feed
      // such a checkpoint frames it was not trained on.
      if ('plainPatch' in meta) throw new Error('robot policy checkpoint: its meta has "plainPatch", the old name of lead "patch"; rewrite it as lead');
      return new EgocentricFrameTokens(base, meta.octants === true, (meta.lead ?? 'none') as CellLead);
    default:
      throw new Error(`robot policy checkpoint: unknown frame encoding ${JSON.stringify(meta.encoding)}`);
  }
}
