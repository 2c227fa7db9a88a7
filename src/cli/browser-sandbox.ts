// A reusable Node -> headless-Chromium batch executor for UNTRUSTED programs (sampled from a model
// or written by a user): serves the built app (dist/) on 127.0.0.1, opens the sandbox harness page
// and runs jobs through the hardened Pyodide worker pool there. Node never executes the programs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import type { PoolOptions } from '../sandbox-pyodide/pool.ts';
import type { SandboxJob, SandboxResult } from '../sandbox-pyodide/protocol.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface BrowserSandbox {
  /** Runs the jobs (in parallel across the pool's workers); results in job order. */
  runMany(jobs: readonly SandboxJob[]): Promise<SandboxResult[]>;
  close(): Promise<void>;
}

/** Builds dist/ when it has no sandbox page (the sandbox runs only from the built app). */
function ensureBuilt(): void {
  if (existsSync(resolve(root, 'dist/sandbox.html'))) return;
  const r = spawnSync(process.execPath, [resolve(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('vite build failed');
}

export async function openBrowserSandbox(pool: PoolOptions = { size: 1 }): Promise<BrowserSandbox> {
  ensureBuilt();
  const server: PreviewServer = await preview({ root, configFile: resolve(root, 'vite.config.ts'), logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') {
    await server.close();
    throw new Error('preview server has no TCP address');
  }
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${address.port}/sandbox.html`);
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
