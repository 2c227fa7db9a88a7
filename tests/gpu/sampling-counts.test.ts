// The decoder's structural targets (issue 45), counted on the GPU API as bench/gpu-sampling-calls.ts
// counts them: on 'small', a token step is at most 16 dispatches in one compute pass, at most one
// submission, and at most 16 bytes read back per sequence; warm calls make no bind group.
import { beforeAll, describe, expect, it } from 'vitest';
import { countSamplingSteps } from '../../bench/gpu-sampling-calls.ts';
import { testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

describe('sampling: GPU-API calls per token step', () => {
  it("'small': 10 dispatches (2 a layer, the head, the sampler), one pass, 1/16 submit, 9 bytes a sequence", async () => {
    const c = await countSamplingSteps(device, 'small', { batch: 2, prompt: 8, newTokens: 16 });
    expect(c.prompt_lengths).toEqual([8, 6]);
    expect(c.dispatches_per_token_step).toBe(10);
    expect(c.dispatches_per_token_step).toBeLessThanOrEqual(16);
    expect(c.compute_passes_per_token_step).toBeLessThanOrEqual(1 / 16);
    expect(c.submits_per_token_step).toBeLessThanOrEqual(1 / 16);
    // 8 bytes of token and log-prob, and the 16-byte state read every 16 steps
    expect(c.readback_bytes_per_sequence_per_token_step).toBe(9);
    expect(c.bind_groups_made_warm_call).toBe(0);
  }, 120_000);
});
