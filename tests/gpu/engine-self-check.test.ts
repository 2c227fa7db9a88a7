// The policy worker's self-check (src/engine/engine-self-check.ts): a WebGPU engine that computes what
// the reference model computes passes; one with wrong weights, or a decoder that picks other tokens,
// is named with its first disagreement (the worker then falls back to the CPU engine with that reason).

import { beforeAll, describe, expect, it } from 'vitest';
import { namedConfig } from '../../src/model/config.ts';
import { createModel, type Model } from '../../src/model/init.ts';
import { engineSelfCheck } from '../../src/engine/engine-self-check.ts';
import type { PolicyEngine } from '../../src/engine/policy-engine.ts';
import { GpuPolicyEngine } from '../../src/engine/webgpu/gpu-policy-engine.ts';
import { seededRandom } from '../unit/ops/random.ts';
import { testDevice } from './dawn.ts';

const config = namedConfig('mini');
let device: GPUDevice;
let model: Model;

beforeAll(async () => {
  device = (await testDevice()).device;
  model = createModel(config, seededRandom(7));
});

async function withEngine<T>(params: Float32Array, use: (engine: GpuPolicyEngine) => Promise<T>): Promise<T> {
  const engine = new GpuPolicyEngine(device, config, { maxBatch: 4, maxSeq: 32 }, params);
  try {
    return await use(engine);
  } finally {
    await engine.dispose();
  }
}

describe('engine self-check against the reference model', () => {
  it('passes an engine holding the same weights', async () => {
    expect(await withEngine(model.params, (engine) => engineSelfCheck(engine, model))).toBeNull();
  });

  it('names an engine whose forward differs (every weight off by up to 0.05)', async () => {
    const wrong = model.params.map((w, i) => w + 0.05 * Math.sin(i));
    const why = await withEngine(wrong, (engine) => engineSelfCheck(engine, model));
    expect(why).toMatch(/log-probs differ from the reference model's by up to/);
  });

  it('names an engine whose decoder picks other tokens though its forward is right', async () => {
    const why = await withEngine(model.params, (engine) => {
      const shifted: PolicyEngine = Object.assign(Object.create(engine) as GpuPolicyEngine, {
        sample: async (...args: Parameters<PolicyEngine['sample']>) =>
          (await engine.sample(...args)).map((s) => ({ ...s, tokens: s.tokens.map((t, k) => (k === 2 ? 4 + ((t - 3) % (config.vocabSize - 4)) : t)) })),
      });
      return engineSelfCheck(shifted, model);
    });
    expect(why).toMatch(/greedy decoding of prompt 0 picked token \d+ at position 2/);
  });
});
