// A host configured for SharedArrayBuffer only: it sends COOP, COEP and CORP itself, but not the
// sandbox worker's CSP. The page is isolated, so the app's service worker (which would add the CSP)
// never steps in. The worker must notice that its CSP is not in force and refuse to run programs,
// and the page must say why: a program that reaches Function through the JS bridge and imports from
// a canary on 127.0.0.1 must never get to run, and the canary must hear nothing.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISOLATION_HEADERS } from '../../src/app/static-host';
import { serveDistStatic, type ServedDist } from '../../src/cli/browser-session';
import { SANDBOX_WORKER_CSP } from '../../src/sandbox-pyodide/worker-csp';
import { ensureFreshDist, launchChromium } from './browser';
import { bridgeImportProgram, startCanary, type Canary } from './canary';
import { job } from '../sandbox/harness';

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
    const script = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).find((n) => /sandbox-worker-[^/]*\.js$/.test(n)) ?? null);
    if (script) expect((await page.request.get(script)).headers()['content-security-policy']).toBeUndefined();
    await page.close();
  });

  it('the sandbox refuses to start, says what the host must send, and the bridge import never reaches the canary', async () => {
    const page = await browser.newPage();
    await page.goto(`${served.url}sandbox.html`);
    await page.waitForSelector('#status[data-state=loaded]');
    const outcome = await page.evaluate(async (j) => {
      try {
        // Two runs per worker, so that where the guard were missing the worker would outlive the job long enough to send the request.
        await window.sandbox.start({ size: 1, maxRunsPerWorker: 2 });
      } catch (e) {
        return { refused: e instanceof Error ? e.message : String(e) };
      }
      const r = await window.sandbox.run(j);
      return { ran: `${r.status}: ${r.stdout} ${r.traceback ?? ''}` };
    }, job(bridgeImportProgram(`${canary.url}/bridge-import.js`)));
    // where a program did run, give its request time to arrive before counting
    if ('ran' in outcome) await page.waitForTimeout(3000);
    expect(canary.hits, 'requests the canary received').toEqual([]);
    expect(outcome).toHaveProperty('refused');
    const refused = (outcome as { refused: string }).refused;
    expect(refused).toContain("Content-Security-Policy is not in force");
    expect(refused).toContain(SANDBOX_WORKER_CSP);
    await page.close();
  }, 120_000);

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
