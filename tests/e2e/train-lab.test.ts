// The Train view as a lab: evaluation along a run, read against the SFT policy, and runs kept side by
// side. Tiny runs (B 1 x n 2, one step, two held-out tasks) so each test stays short.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openView, useServedApp } from './browser.ts';

describe('the Train view as a lab (#/train)', () => {
  const app = useServedApp({ webgpu: false });

  it('evaluates along a tiny run and plots it against the SFT policy, with the result beside the button', async () => {
    const { page, errors } = await openView(app, '#/train?steps=1&B=1&n=2&evalEvery=1&evalTasks=2');
    await page.click('.advanced summary');
    expect(await page.inputValue('[data-testid=eval-every]')).toBe('1');
    await page.click('[data-testid=start]');
    // The SFT policy is evaluated before step 1, then the run's policy after it.
    await page.waitForSelector('[data-testid=train-status][data-phase=done]', { timeout: 480_000 });
    await page.waitForSelector('[data-testid=evaluation-inline]:has-text("after step 1")', { timeout: 240_000 });
    expect(await page.locator('[data-testid=train-error]').count()).toBe(0);
    const inline = await page.locator('[data-testid=evaluation-inline]').textContent();
    // avg@2 after step 1 with its interval over the 2 tasks, and the SFT policy's beside it
    expect(inline).toMatch(/avg@2 \d+\.\d \[-?\d+\.\d, \d+\.\d\] after step 1 · SFT \d+\.\d \[-?\d+\.\d, \d+\.\d\]/);
    // the button stays usable between runs' steps and says what it will do
    expect(await page.locator('[data-testid=evaluate]').textContent()).toMatch(/avg@2, 2 tasks/);
    const chart = page.locator('[data-testid=evaluation-chart]');
    const legend = await chart.locator('.legend').textContent();
    expect(legend).toMatch(/SFT policy \(before step 1\)/);
    expect(legend).toMatch(/SFT 95% interval/);
    expect(legend).toMatch(/held-out avg@2 on 2 tasks/);
    // one error bar (three lines) per evaluation: step 0 and step 1
    expect(await chart.locator('g.errors line').count()).toBe(6);
    // the real reward's smoothed line is on the reward chart, apart from the world model's
    expect(await page.locator('figure .legend').first().textContent()).toMatch(/real score, mean of the last 5 steps/);
    expect(errors).toEqual([]);
    await page.close();
  }, 900_000);

  it('keeps two runs, overlays one on the other, and loads one back from its exported JSON (a broken file changes nothing)', { timeout: 900_000, tags: ['long'] }, async () => {
    const { page, errors } = await openView(app, '#/train?steps=1&B=1&n=2&seed=1');
    const stepDone = () => page.waitForSelector('[data-testid=train-status][data-steps="1"]', { timeout: 300_000 });
    await page.fill('[data-testid=run-name]', 'first');
    await page.click('[data-testid=step-once]');
    await stepDone();
    // "New run" keeps the run it closes
    await page.click('[data-testid=new-run]');
    await page.waitForSelector('[data-testid=store-message]:has-text("Kept “first” (1 step)")', { timeout: 60_000 });
    await page.fill('[data-testid=seed]', '2');
    await page.fill('[data-testid=run-name]', 'second');
    await page.click('[data-testid=step-once]');
    await stepDone();
    const secondNumbers = await page.locator('[data-testid=last-step]').textContent();

    // the first run over the second's charts
    await page.click('[data-testid=saved-runs] summary');
    expect(await page.locator('[data-testid=saved-run-label]').allTextContents()).toEqual(['first']);
    await page.check('[data-testid=overlay-run]');
    const rewardLegend = page.locator('figure .legend').first();
    await page.waitForFunction(() => document.querySelector('figure .legend')?.textContent?.includes('first: training reward'));
    expect(await rewardLegend.textContent()).toMatch(/training reward \(mean\)/);

    // exported, then loaded back
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-run]')]);
    const file = await download.path();
    const text = readFileSync(file, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ format: 'wmrl-run', version: 1, run: { label: 'second' } });
    // a broken and a foreign file are refused with their reason; the list stays as it was
    await page.setInputFiles('[data-testid=load-run]', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(text.slice(0, 5000)) });
    await page.waitForSelector('[data-testid=store-message]:has-text("Could not load broken.json: the file is not JSON")');
    expect(await page.locator('[data-testid=store-message]').textContent()).toMatch(/Nothing was changed\./);
    await page.setInputFiles('[data-testid=load-run]', { name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"config": {}, "records": []}') });
    await page.waitForSelector('[data-testid=store-message]:has-text("Could not load other.json: the file is JSON but not a run exported from this page")');
    expect(await page.locator('[data-testid=saved-run]').count()).toBe(1);
    await page.setInputFiles('[data-testid=load-run]', { name: 'second.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForSelector('[data-testid=store-message]:has-text("Loaded “second”")', { timeout: 60_000 });
    expect((await page.locator('[data-testid=saved-run-label]').allTextContents()).sort()).toEqual(['first', 'second']);
    // the loaded run resumes where the exported one was, with the same numbers
    const loaded = page.locator('[data-testid=saved-run]', { hasText: 'second' });
    await loaded.locator('[data-testid=resume-run]').click();
    await page.waitForSelector('[data-testid=store-message]:has-text("Resumed paper-wmrl, seed 2, at step 1")', { timeout: 120_000 });
    expect(await page.getAttribute('[data-testid=train-status]', 'data-steps')).toBe('1');
    expect(await page.locator('[data-testid=last-step]').textContent()).toBe(secondNumbers);
    expect(await page.inputValue('[data-testid=run-name]')).toBe('second');
    expect(errors).toEqual([]);
    await page.close();
  });
});
