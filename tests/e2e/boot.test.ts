// The app as a user gets it: built, served on 127.0.0.1 with isolation headers, opened in headless
// Chromium with WebGPU (SwiftShader here). The page must boot, find an adapter from a worker through
// comlink, run a real WGSL kernel there and show that it matches the TypeScript reference.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveDistStatic } from '../../src/cli/browser-session.ts';
import { launchChromium, useServedApp } from './browser.ts';

const artifacts = resolve(import.meta.dirname, '../../test-results');

describe('the app boots in a real browser', () => {
  const app = useServedApp();

  it('is crossOriginIsolated, finds WebGPU in a worker and runs a kernel that matches the reference', async () => {
    const page = await app.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(app.url);

        expect(await page.locator('h1').textContent()).toContain('WMRL');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await page.getAttribute('[data-testid=check-isolation]', 'data-state')).toBe('ok');

    await page.waitForSelector('[data-testid=check-kernel]:not([data-state=pending])', { timeout: 120_000 });
    const webgpu = await page.locator('[data-testid=check-webgpu]').textContent();
    expect(webgpu).toMatch(/WebGPU: (?!none)/);
    expect(await page.getAttribute('[data-testid=check-worker]', 'data-state')).toBe('ok');
    expect(await page.getAttribute('[data-testid=check-kernel]', 'data-state')).toBe('ok');
    const maxError = Number(await page.getAttribute('[data-testid=kernel-result]', 'data-max-error'));
    expect(maxError).toBeLessThan(1e-3);

    // The committed models and the figures their pipeline measured.
    const models = page.locator('[data-testid=models-panel]');
    await models.locator('text=Spearman').waitFor({ timeout: 30_000 });
    expect(await models.textContent()).toMatch(/policy\.ckpt \d+\.\d MB/);
    expect(await models.textContent()).toMatch(/held-out task cards.*run.*AUC 0\.\d\d/s);

    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: resolve(artifacts, 'boot.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says "none: CPU fallback" instead of going blank when the browser has no WebGPU', async () => {
    const plain = await launchChromium({ webgpu: false });
    const page = await plain.newPage();
    await page.goto(app.url);
    await page.waitForSelector('[data-testid=check-webgpu]:not([data-state=pending])', { timeout: 60_000 });
    const text = await page.locator('[data-testid=check-webgpu]').textContent();
    expect(text).toContain('none: CPU fallback');
    expect(await page.getAttribute('[data-testid=check-kernel]', 'data-state')).toBe('warn');
    await plain.close();
  });

  it('explains what is missing when the page is served without the isolation headers and cannot add them', async () => {
    // A plain static server, as a careless host would be: no COOP/COEP. Such a host is normally
    // rescued by the app's service worker (tests/e2e/static-host.test.ts); here service workers are
    // blocked, as in a browser that has none, so the page must say what it lacks.
    const served = await serveDistStatic();
    try {
      const context = await app.browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      await page.goto(served.url);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
      const row = page.locator('[data-testid=check-isolation]');
      expect(await row.getAttribute('data-state')).toBe('warn');
      expect(await row.textContent()).toMatch(/crossOriginIsolated: no.*Cross-Origin-Embedder-Policy/s);
      expect(await page.locator('h1').textContent()).toContain('WMRL');
      await context.close();
    } finally {
      await served.close();
    }
  });
});
