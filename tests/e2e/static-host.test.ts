// The build served as a plain static host serves it (GitHub Pages and the like): under a sub-path,
// with no isolation or CSP headers. The page must install its service worker, reload once, come
// back cross-origin isolated, give the sandbox worker its CSP, and train.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDistStatic, type ServedDist } from '../../src/cli/browser-session';
import { SANDBOX_WORKER_CSP } from '../../src/sandbox-pyodide/worker-csp';
import { ensureFreshDist, launchChromium } from './browser';
import { bridgeImportProgram, startCanary } from './canary';
import { job } from '../sandbox/harness';

async function isolated(page: Page, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    // the page reloads once on its way: an evaluation may meet a context that is going away
    const yes = await page.evaluate(() => globalThis.crossOriginIsolated).catch(() => false);
    if (yes) return true;
    await page.waitForTimeout(250);
  }
  return false;
}

describe('a static host without headers, under a sub-path', () => {
  let served: ServedDist;
  let browser: Browser;
  beforeAll(async () => {
    ensureFreshDist();
    served = await serveDistStatic({ basePath: '/wmrl/' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('the server sends no isolation headers and nothing outside the sub-path', async () => {
    expect(served.url).toMatch(/\/wmrl\/$/);
    const page = await browser.newPage();
    const first = await page.request.get(served.url);
    expect(first.status()).toBe(200);
    expect(first.headers()['cross-origin-embedder-policy']).toBeUndefined();
    expect((await page.request.get(new URL('/index.html', served.url).href)).status()).toBe(404);
    await page.close();
  });

  it('the page becomes isolated through its service worker, the sandbox worker gets its CSP, and a step trains', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${served.url}#/train`);
    expect(await isolated(page, 90_000), 'crossOriginIsolated after the one reload').toBe(true);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${served.url}isolation-sw.js`);
    expect(new URL(page.url()).hash).toBe('#/train');

    const script = readdirSync(resolve(import.meta.dirname, '../../dist/assets')).find((f) => /^sandbox-worker-.*\.js$/.test(f));
    expect(script).toBeDefined();
    const csp = await page.evaluate(async (url) => (await fetch(url)).headers.get('content-security-policy'), `assets/${script}`);
    expect(csp).toBe(SANDBOX_WORKER_CSP);

    await page.waitForSelector('[data-testid=groups]');
    await page.fill('[data-testid=groups]', '2');
    await page.fill('[data-testid=group-size]', '2');
    await page.click('.advanced summary');
    // at B = 2 the default rho executes no group on the first step; 0.5 executes one in the sandbox
    await page.fill('[data-testid=rho]', '0.5');
    await page.click('[data-testid=step-once]');
    await page.waitForSelector('[data-testid=train-status][data-steps="1"]', { timeout: 300_000 });
    expect(await page.locator('[data-testid=train-error]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  }, 420_000);

  it('the sandbox worker finds its CSP in force (the service worker added it) and a bridge import reaches no canary', async () => {
    const canary = await startCanary();
    const page = await browser.newPage();
    try {
      // index.html installs the service worker; sandbox.html, in its scope, is then served through it
      await page.goto(served.url);
      expect(await isolated(page, 90_000)).toBe(true);
      await page.goto(`${served.url}sandbox.html`);
      await page.waitForSelector('#status[data-state=loaded]');
      expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
      const r = await page.evaluate(async (j) => {
        await window.sandbox.start({ size: 1 });
        return window.sandbox.run(j);
      }, job(bridgeImportProgram(`${canary.url}/static-host-import.js`)));
      expect(r.status).toBe('error');
      expect(r.traceback ?? '').toMatch(/EvalError|unsafe-eval|Content Security Policy/i);
      await page.waitForTimeout(1000);
      expect(canary.hits).toEqual([]);
    } finally {
      await page.close();
      await canary.close();
    }
  }, 240_000);
});
