// The build served as a plain static host serves it (GitHub Pages and the like): under a sub-path,
// with no isolation or CSP headers. The page must install its service worker, reload once, come
// back cross-origin isolated, give the sandbox worker its CSP, train, and hold against the whole
// escape corpus (tests/sandbox/escape-corpus.ts) as the project's own server does.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDistStatic, type ServedDist } from '../../src/cli/browser-session.ts';
import { SANDBOX_WORKER_CSP } from '../../src/sandbox-pyodide/worker-csp.ts';
import { ensureFreshDist, launchChromium } from './browser.ts';
import { startCanary } from './canary.ts';
import { corpusHolds } from '../sandbox/escape-corpus.ts';
import { builtWorkerScript } from '../sandbox/harness.ts';

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

    const csp = await page.evaluate(async (url) => (await fetch(url)).headers.get('content-security-policy'), builtWorkerScript());
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

  // The escape corpus, through the service worker: it adds the worker's CSP, so everything that holds
  // on the project's own server must hold here.
  describe('the escape corpus on this host', () => {
    corpusHolds(async () => {
      const canary = await startCanary();
      const page = await browser.newPage();
      // index.html installs the service worker; sandbox.html, in its scope, is then served through it
      await page.goto(served.url);
      expect(await isolated(page, 90_000)).toBe(true);
      await page.goto(`${served.url}sandbox.html`);
      await page.waitForSelector('#status[data-state=loaded]');
      expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${served.url}isolation-sw.js`);
      return {
        page,
        canary,
        async close() {
          await page.close();
          await canary.close();
        },
      };
    });
  });
});
