// Long operations show what they are doing and the time left: the start-up (models, workers,
// sandbox), each phase of a step, and the evaluation, as bars under the Train view's status.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useServedApp } from './browser.ts';

/**
 * Records every progress item the page shows (its key, and its text once it gives a time left),
 * from before the page's first script: the start-up begins as the view opens.
 */
async function watchProgress(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { seen: Record<string, string[]> };
    w.seen = {};
    const look = () => {
      for (const li of document.querySelectorAll('[data-testid=train-progress-item]')) {
        const key = li.getAttribute('data-key') ?? '';
        (w.seen[key] ??= []).push((li.textContent ?? '').replace(/\s+/g, ' ').trim());
      }
    };
    new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: Record<string, string[]> }).seen);

describe('progress of long operations (#/train)', () => {
  const app = useServedApp({ webgpu: false });

  it('shows the start-up, each phase of a step and the evaluation, with the time left once known', { timeout: 900_000, tags: ['long'] }, async () => {
    const page = await app.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await watchProgress(page);
    const t0 = Date.now();
    await page.goto(`${app.url}#/train?preset=wmrl&B=2&n=2&rho=0.5`);
    // Models, workers and sandbox start as the view opens, before any click, and finish on their own.
    await page.waitForFunction(() => {
      const s = (window as unknown as { seen: Record<string, string[]> }).seen;
      return 'start.sandbox' in s && 'start.policy' in s && document.querySelectorAll('[data-testid=train-progress-item]').length === 0;
    }, undefined, { timeout: 240_000 });
    expect(await page.getAttribute('[data-testid=train-status]', 'data-steps')).toBe('0');
    const ready = (Date.now() - t0) / 1000;
    const tClick = Date.now();
    await page.click('[data-testid=step-once]');
    await page.waitForSelector('[data-testid=train-status][data-steps="1"]', { timeout: 240_000 });
    // A figure to quote (the machine is shared: no bound is asserted on it).
    console.log(`first step: ready ${ready.toFixed(1)} s after opening #/train with nothing clicked; the step ${((Date.now() - tClick) / 1000).toFixed(1)} s after the click`);
    let s = await seen(page);
    for (const key of ['start.models', 'start.policy', 'start.world-model', 'start.sandbox', 'step.sampling', 'step.world-model', 'step.executions', 'step.update']) {
      expect(Object.keys(s), key).toContain(key);
    }
    expect(s['step.sampling'].join(' ')).toMatch(/Step 1: the policy writes 4 programs/);
    expect(s['step.executions'].join(' ')).toMatch(/running programs for real in the sandbox \(\d\/2\)/);
    // No bar is left once the step is done.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=train-progress-item]').length === 0);

    // The second step knows how long the first one's phases took: each bar says the time left.
    await page.click('[data-testid=step-once]');
    await page.waitForSelector('[data-testid=train-status][data-steps="2"]', { timeout: 240_000 });
    s = await seen(page);
    expect(s['step.sampling'].some((t) => /Step 2: .*about [\d.]+ (s|min)/.test(t))).toBe(true);

    await page.click('[data-testid=evaluate]');
    await page.waitForSelector('[data-testid=evaluation]', { timeout: 300_000 });
    // it says which policy it measured
    expect(await page.locator('[data-testid=evaluation-of]').textContent()).toMatch(/the policy after 2 steps of wmrl\s+\(models: public\/models/);
    s = await seen(page);
    expect(s['eval.sampling']?.join(' ')).toMatch(/Evaluation: the policy writes \d+ programs/);
    expect(s['eval.executions']?.join(' ')).toMatch(/Evaluation: running programs for real in the sandbox \(\d+\/\d+\)/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
