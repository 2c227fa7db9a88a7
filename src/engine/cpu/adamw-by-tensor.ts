// AdamW over the flat parameter array, tensor by tensor, so that weight decay applies only where the
// layout says (matrices and embeddings, not biases or LayerNorm): the reference adamwStep on each view.

import type { AdamWConfig } from '../../model/ops/reference-ops.ts';
import { adamwStep } from '../../model/ops/reference-ops.ts';
import type { ParameterLayout } from '../../model/parameter-layout.ts';

export function adamwByTensor(
  layout: ParameterLayout,
  params: Float32Array,
  grads: Float32Array,
  m: Float32Array,
  v: Float32Array,
  step: number,
  cfg: AdamWConfig,
): void {
  for (const view of layout.views) {
    const range = (a: Float32Array): Float32Array => a.subarray(view.offset, view.offset + view.size);
    adamwStep(range(params), range(grads), range(m), range(v), step, view.decay ? cfg : { ...cfg, weightDecay: 0 });
  }
}
