// The WebGPU policy engine in real Chromium (WebGPU on SwiftShader where there is no GPU), inside a
// dedicated module worker: log-probs, SFT loss and gradients, and seeded sampling against the
// TypeScript reference computed here in Node. The page module (src/harness/gpu-engine-check.ts) is
// built on the fly into a temporary folder and served with the isolation headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, serveBundledModule, type Served } from './browser.ts';
import { namedConfig } from '../../src/model/config.ts';
import { createModel } from '../../src/model/init.ts';
import { sftLoss, tokenLogProbs } from '../../src/model/losses.ts';
import { sample } from '../../src/model/sampling.ts';
import { makeSequenceBatch } from '../../src/model/sequence-batch.ts';
import { mulberry32 } from '../../src/primitives/random.ts';
import type { EngineCheckRequest, EngineCheckResult } from '../../src/harness/gpu-engine-check-api.ts';

function relativeL2(got: ArrayLike<number>, want: ArrayLike<number>): number {
  expect(got.length).toBe(want.length);
  let d = 0;
  let n = 0;
  for (let i = 0; i < want.length; i++) {
    d += (got[i] - want[i]) ** 2;
    n += want[i] ** 2;
  }
  return Math.sqrt(d / n);
}

describe('GPU policy engine in Chromium (module worker)', () => {
  let served: Served;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    served = await serveBundledModule({ entry: 'src/harness/gpu-engine-check.ts', fileName: 'engine-check' });
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error') console.error('[page]', m.text()); });
    await page.goto(served.url);
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('log-probs, SFT gradients and seeded sampling match the reference', async () => {
    const config = namedConfig('tiny');
    const model = createModel(config, mulberry32(17));
    for (const v of model.layout.views) for (let i = v.offset; i < v.offset + v.size; i++) model.params[i] += 0.15 * Math.sin(i * 1.3);
    const sequences = [[1, 5, 9, 12, 3, 7, 7, 20, 31, 3], [1, 8, 2, 4, 4, 19]];
    const T = 10;
    const req: EngineCheckRequest = {
      config, params: Array.from(model.params), sequences, programStart: 2, T, prompt: [1, 6, 2], maxNewTokens: 10, seed: 5,
    };
    const run = await page.evaluate(`import('/engine-check.js').then((m) => m.runEngineInWorker(${JSON.stringify(req)}))`) as EngineCheckResult;
    expect(run.backend).toContain('webgpu');
    const batch = makeSequenceBatch(sequences.map((tokens) => ({ tokens, programStart: 2 })), T);
    expect(relativeL2(run.logProbs, tokenLogProbs(model, batch, 'all'))).toBeLessThan(1e-5);
    const ref = sftLoss(model, batch);
    expect(Math.abs(run.loss - ref.loss)).toBeLessThan(1e-5 * ref.loss);
    expect(relativeL2(run.grads, ref.grads!)).toBeLessThan(1e-4);
    const want = sample(model, req.prompt, { maxNewTokens: req.maxNewTokens, rng: mulberry32(req.seed), stopToken: -1 });
    expect(run.sampled).toEqual(want.tokens);
  });
});
