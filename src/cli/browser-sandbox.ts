// A reusable Node -> headless-Chromium batch executor for UNTRUSTED programs (sampled from a model
// or written by a user): serves the built app (dist/) on 127.0.0.1, opens the sandbox harness page
// and runs jobs through the hardened Pyodide worker pool there. Node never executes the programs.
import type { Browser } from 'playwright-core';
import type { PoolOptions } from '../sandbox-pyodide/pool.ts';
import type { SandboxJob, SandboxResult } from '../sandbox-pyodide/protocol.ts';
import { ensureFreshDist, launchChromium, serveDist } from './browser-session.ts';


export interface BrowserSandbox {
  /** Runs the jobs (in parallel across the pool's workers); results in job order. */
  runMany(jobs: readonly SandboxJob[]): Promise<SandboxResult[]>;
  close(): Promise<void>;
}

export async function openBrowserSandbox(pool: PoolOptions = { size: 1 }): Promise<BrowserSandbox> {
  ensureFreshDist();
  const server = await serveDist();
  let browser: Browser | null = null;
  try {
    browser = await launchChromium({ webgpu: false });
    const page = await browser.newPage();
    await page.goto(`${server.url}sandbox.html`);
    await page.waitForSelector('#status[data-state=loaded]');
    await page.evaluate((o) => window.sandbox.start(o), pool);
    const b = browser;
    return {
      // Chunks keep each page.evaluate round trip (and its serialized payload) small.
      async runMany(jobs) {
        const out: SandboxResult[] = [];
        for (let i = 0; i < jobs.length; i += 16) out.push(...(await page.evaluate((js) => window.sandbox.runMany(js), jobs.slice(i, i + 16))));
        return out;
      },
      async close() {
        await b.close();
        await server.close();
      },
    };
  } catch (e) {
    if (browser) await browser.close();
    await server.close();
    throw e;
  }
}
