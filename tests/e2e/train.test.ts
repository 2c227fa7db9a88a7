// The Train view as a user meets it. Without built models it must say what is missing instead of
// going blank; with them it runs a real step (policy worker, world-model worker, sandbox pool).
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, serveDist, type Served } from './browser';

const artifacts = resolve(import.meta.dirname, '../../test-results');

describe('the Train view (#/train)', () => {
  let served: Served;
  let browser: Browser;
  beforeAll(async () => {
    served = await serveDist();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('says the models are missing, and keeps the page usable, when /models/ has none', async () => {
    const page = await browser.newPage();
    await page.route('**/models/manifest.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.goto(`${served.url}#/train`);
    await page.click('[data-testid=step-once]');
    const err = page.locator('[data-testid=train-error]');
    await err.waitFor({ timeout: 60_000 });
    expect(await err.textContent()).toMatch(/no models at \/models\/.*HTTP 404/);
    expect(await page.getAttribute('[data-testid=train-status]', 'data-phase')).toBe('idle');
    expect(await page.isEnabled('[data-testid=start]')).toBe(true);
    await page.close();
  });
});
