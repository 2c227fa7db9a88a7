// A host configured for SharedArrayBuffer only: it sends COOP, COEP and CORP itself, but not the
// sandbox worker's CSP. The page is isolated, so the app's service worker (which would add the CSP)
// never steps in. The worker must notice that its CSP is not in force and refuse to run programs,
// and the page must say why: no program of the escape corpus (tests/sandbox/escape-corpus.ts; among
// them one that reaches Function through the JS bridge and imports from a canary on 127.0.0.1) may
// get to run, and the canary must hear nothing.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISOLATION_HEADERS } from '../../src/app/static-host.ts';
import { serveDistStatic, type ServedDist } from '../../src/cli/browser-session.ts';
import { ensureFreshDist, launchChromium } from './browser.ts';
import { startCanary, type Canary } from './canary.ts';
import { corpusRefused } from '../sandbox/escape-corpus.ts';
import { builtWorkerScript } from '../sandbox/harness.ts';

describe('a host that sends the isolation headers but not the sandbox worker CSP', () => {
  let served: ServedDist;
  let browser: Browser;
  let canary: Canary;

  beforeAll(async () => {
    ensureFreshDist();
    canary = await startCanary();
    served = await serveDistStatic({ headers: ISOLATION_HEADERS });
    browser = await launchChromium({ webgpu: false });
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await canary?.close();
  });

  it('the page is isolated without the service worker, and the worker script comes without a CSP', async () => {
    const page = await browser.newPage();
    await page.goto(`${served.url}sandbox.html`);
    await page.waitForSelector('#status[data-state=loaded]');
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    const script = await page.request.get(new URL(builtWorkerScript(), served.url).href);
    expect(script.status()).toBe(200);
    expect(script.headers()['content-security-policy']).toBeUndefined();
    await page.close();
  });

  // The whole escape corpus (the bridge import among it), each program tried afresh: the
  // start-up check must refuse every one, and the canary must hear nothing.
  describe('the escape corpus on this host', () => {
    corpusRefused(async () => {
      const page = await browser.newPage();
      await page.goto(`${served.url}sandbox.html`);
      await page.waitForSelector('#status[data-state=loaded]');
      expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
      return {
        page,
        canary,
        close: () => page.close(),
      };
    });
  });

  it('the Playground shows the refusal instead of running the program', async () => {
    const page = await browser.newPage();
    await page.goto(`${served.url}#/playground`);
    await page.waitForSelector('[data-testid=task-card]', { timeout: 60_000 });
    await page.click('[data-testid=run-button]');
    const error = page.locator('[data-testid=run-error]');
    await error.waitFor({ timeout: 120_000 });
    const text = (await error.textContent()) ?? '';
    expect(text).toContain("Content-Security-Policy is not in force");
    expect(text).toContain('docs/architecture.md');
    expect(canary.hits).toEqual([]);
    await page.close();
  }, 180_000);
});
