// The exported graphs in real Chromium: wasm EP (threaded, crossOriginIsolated), WebGPU EP sharing a
// device the page owns (onnxruntime-web/webgpu, gpu-buffer outputs, Tensor.fromGpuBuffer inputs), and
// the world-model worker over comlink, each against the TypeScript reference computed here in Node.
// The page module (src/harness/onnx-browser-checks.ts) is built on the fly into a temporary folder and
// served with the isolation headers, so the app's own build is not involved.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, serveBundledModule, type Served } from './browser.ts';
import { namedConfig } from '../../src/model/config.ts';
import { createModel } from '../../src/model/init.ts';
import { worldModelScores } from '../../src/model/losses.ts';
import { makeSequenceBatch } from '../../src/model/sequence-batch.ts';
import { Tokenizer } from '../../src/model/tokenizer.ts';
import { forward, lmLogits } from '../../src/model/transformer.ts';
import { exportPolicyLogits, exportWorldModel } from '../../src/model/onnx/export.ts';
import { mulberry32 } from '../../src/primitives/random.ts';

const root = resolve(import.meta.dirname, '../..');
const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

describe('ONNX graphs in Chromium', () => {
  let served: Served;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    served = await serveBundledModule({
      entry: 'src/harness/onnx-browser-checks.ts',
      fileName: 'checks',
      mounts: { '/vendor/ort/': resolve(root, 'node_modules/onnxruntime-web/dist') },
    });
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error') console.error('[page]', m.text()); });
    await page.goto(served.url);
  });

  /** Calls an export of the page module; a string, so that the test runner does not rewrite import(). */
  const call = <R>(fn: string, arg: unknown): Promise<R> => page.evaluate(`import('/checks.js').then((m) => m.${fn}(${JSON.stringify(arg)}))`) as Promise<R>;
  type Checks = typeof import('../../src/harness/onnx-browser-checks.ts');

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const model = createModel(namedConfig('tiny'), mulberry32(41));
  for (const v of model.layout.views) for (let i = v.offset; i < v.offset + v.size; i++) model.params[i] += 0.2 * Math.sin(i * 1.7);
  const [B, T] = [2, 9];
  const tokens = Array.from({ length: B * T }, (_, i) => (i * 7 + 3) % model.config.vocabSize);
  const cache = forward(model, Int32Array.from(tokens), B, T);
  const wantLogits = lmLogits(model, cache.hidden, Array.from({ length: B * T }, (_, i) => i)).logits;
  const logitsRequest = { model: Array.from(exportPolicyLogits(model)), ints: { tokens: [tokens, [B, T]] as [number[], number[]] }, outputs: ['logits'] };

  it('policy logits on the wasm EP, threaded under crossOriginIsolated, match the reference', async () => {
    const run = await call<Awaited<ReturnType<Checks['runOnWasm']>>>('runOnWasm', logitsRequest);
    expect(run.crossOriginIsolated).toBe(true);
    expect(run.threads).toBeGreaterThan(1);
    expect(maxAbsDiff(run.outputs.logits, wantLogits)).toBeLessThan(1e-4);
  });

  it('policy logits on the WebGPU EP sharing the page\'s device (Tensor.fromGpuBuffer inputs, gpu-buffer outputs) match the reference', async () => {
    const run = await call<Awaited<ReturnType<Checks['runOnWebgpu']>>>('runOnWebgpu', { ...logitsRequest, gpuInputs: true });
    expect(run.gpuInputs).toBe(true);
    expect(run.locations.logits).toBe('gpu-buffer');
    expect(run.copiedWithOurDevice).toBe(true);
    expect(maxAbsDiff(run.outputs.logits, wantLogits)).toBeLessThan(1e-3);
  });

  it('world model: the worker (auto: wasm over a software adapter) and the WebGPU runner match the reference scores', async () => {
    const tokenizer = new Tokenizer([]);
    const config = namedConfig('tiny', { vocabSize: tokenizer.vocabSize });
    const wm = createModel(config, mulberry32(42));
    const w = wm.layout.byName.get('score.w')!;
    for (let i = 0; i < w.size; i++) wm.params[w.offset + i] = Math.cos(i);
    const pairs = [{ card: 'clf', program: 'fit()' }, { card: 'reg r=3', program: 'x' }, { card: 'a', program: 'bb' }];
    const specs = pairs.map((p) => tokenizer.encodeSequence(p.card, p.program));
    const want = worldModelScores(wm, makeSequenceBatch(specs));
    const base = { model: Array.from(exportWorldModel(wm)), tokenizer: tokenizer.toJSON(), contextLength: config.contextLength, nHeads: config.nHeads, pairs };
    const auto = await call<Awaited<ReturnType<Checks['scoreInWorker']>>>('scoreInWorker', { ...base, prefer: 'auto' });
    // this browser's only adapter is SwiftShader (CPU emulation): 'auto' must pass it over for wasm and say why
    expect(auto.backend).toBe('wasm');
    expect(auto.reason).toMatch(/software emulation/);
    expect(auto.forwards).toBe(1);
    expect(maxAbsDiff(auto.scores, want)).toBeLessThan(1e-5);
    // the runner's WebGPU path, in the page (its onnxruntime-web/webgpu instance is already loaded there)
    const gpu = await call<Awaited<ReturnType<Checks['scoreInPage']>>>('scoreInPage', { ...base, prefer: 'webgpu' });
    expect(gpu.backend).toBe('webgpu');
    expect(gpu.reason).toMatch(/WebGPU adapter/);
    expect(maxAbsDiff(gpu.scores, want)).toBeLessThan(1e-4);
  });
});
