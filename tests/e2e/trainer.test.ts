// The training loop in real Chromium with the real components: the policy worker (CPU engine: the
// SwiftShader adapter is software, so 'auto' passes it over), the world-model worker (wasm EP), the
// Pyodide sandbox pool and the grader on the page. A tiny random model: its programs fail in the
// sandbox and score 0, which is what a plumbing test needs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, serveDist, type Served } from './browser.ts';
import { presetConfig } from '../../src/training/presets.ts';
import { COST_COMPONENTS } from '../../src/training/cost.ts';
import type { Base64Check, TinyRunResult } from '../../src/harness/app-e2e-entry.ts';

describe('trainer in Chromium (app-harness.html)', () => {
  let served: Served;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    served = await serveDist();
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${served.url}app-harness.html`);
    await page.waitForSelector('#status[data-state=loaded]');
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('saves checkpoints with the browser\'s own base64 encoder, which writes and reads what the reference does', async () => {
    const check: Base64Check = await page.evaluate((lengths) => window.appHarness.base64Check(lengths), [0, 1, 2, 3, 1023, 1024, 1025, 100_003]);
    expect(check).toEqual({ encoder: 'native', agree: Array(8).fill(true), badIsNull: true });
  });

  it('runs 2 steps with B = 2, n = 2, rho = 0.5: StepRecords, real executions in the pool, positive costs', async () => {
    const config = presetConfig('wmrl', {
      name: 'e2e', seed: 3, steps: 2, groupsPerStep: 2, groupSize: 2, rho: 0.5,
      sampling: { maxNewTokens: 24, temperature: 1, topK: 0 },
    });
    const t0 = performance.now();
    const result: TinyRunResult = await page.evaluate((request) => window.appHarness.runTiny(request), { config, poolSize: 2, modelSeed: 5, contextLength: 192 });
    const seconds = (performance.now() - t0) / 1000;
    console.log(`trainer e2e: ${seconds.toFixed(1)} s; policy ${result.policy.backend}; world model ${result.worldModel.backend}; ` +
      `step costs ${result.records.map((r) => JSON.stringify(r.cost.busyMs)).join(' ')}`);

    expect(result.crossOriginIsolated).toBe(true);
    expect(result.policy.kind).toBe('cpu');
    expect(result.worldModel.backend).toBe('wasm');
    expect(result.records.map((r) => r.step)).toEqual([0, 1]);
    // rho = 0.5 with B = 2: one anchor group per step (accumulator: round(0.5 * 2t)).
    expect(result.records.map((r) => r.anchorsSoFar)).toEqual([1, 2]);
    for (const r of result.records) {
      expect(r.groups).toHaveLength(2);
      expect(r.anchorGroups).toBe(1);
      expect(r.executions).toBe(2);
      expect(r.worldModelCalled).toBe(true);
      for (const g of r.groups) {
        expect(g.wmScores).toHaveLength(2);
        for (const s of g.wmScores ?? []) expect(s).toBeGreaterThan(0);
        expect(g.realScores !== null).toBe(g.anchor);
        if (g.anchor) {
          expect(g.statuses).toHaveLength(2);
          // a random model's programs do not run: the grader gives 0
          expect(g.realScores).toEqual(g.statuses?.map((s) => (s === 'ok' ? expect.any(Number) : 0)));
        }
      }
      // every component this run uses is charged, the fresh interpreters' start-up included; the
      // verifier belongs to wmrl-static only
      for (const c of COST_COMPONENTS) {
        if (c === 'verifier') expect(r.cost.busyMs[c], c).toBe(0);
        else expect(r.cost.busyMs[c], c).toBeGreaterThan(0);
      }
      expect(r.cost.totalBusyMs).toBeCloseTo(COST_COMPONENTS.reduce((a, c) => a + r.cost.busyMs[c], 0), 6);
      expect(r.cost.counts.executions).toBe(2);
      expect(r.update.optimizerStep).toBe(r.step + 1);
    }
    // The pool really ran them: 4 training jobs (and 2 evaluation jobs, below), with busy time.
    const poolBusy = result.pool.workers.reduce((a, w) => a + w.busyMs, 0);
    const charged = result.records.reduce((a, r) => a + r.cost.busyMs.sandbox, 0);
    expect(poolBusy).toBeGreaterThan(0);
    expect(charged).toBeGreaterThan(0);
    expect(result.resumedStep).toBe(2);
    // stop() during step 0 lets that step finish and rests; start() continues at step 1
    expect(result.stoppedAt).toBe(1);
    expect(result.stateAfterStop).toBe('idle');
    // held-out avg@2 on one task, through the real pool and grader
    const ev = result.evaluation;
    expect(ev.tasks).toHaveLength(1);
    expect(ev.tasks[0].scores).toHaveLength(2);
    expect(ev.avgAtK).toBeCloseTo(ev.tasks[0].scores.reduce((a, b) => a + b, 0) / 2, 12);
    expect(ev.cost.busyMs.sandbox).toBeGreaterThan(0);
    expect(result.pool.settled).toBe(6);
    expect(pageErrors).toEqual([]);
  });
});
