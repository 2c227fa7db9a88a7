// Shared harness for the browser layers: serve the built app (dist/), or one page module bundled on
// the fly, on 127.0.0.1 with the same isolation headers as production, and drive Debian's Chromium
// with WebGPU on SwiftShader.
// The server lives in the test process, so it stops when the tests stop.
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { build } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ISOLATION_HEADERS } from '../../src/app/static-host.ts';
import { CHROMIUM, ensureFreshDist, launchChromium, serveDist as serveBuilt } from '../../src/cli/browser-session.ts';

export { CHROMIUM, ensureFreshDist, launchChromium };

export interface Served {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves dist/ (built first when stale or built without the test harness page: src/cli/browser-session.ts)
 * on an ephemeral 127.0.0.1 port.
 * `root` serves another checkout's build as it is (a benchmark's baseline), without the check.
 */
export async function serveDist(root?: string): Promise<Served> {
  if (root === undefined) ensureFreshDist({ harness: true });
  return serveBuilt(root);
}

const MIME: Record<string, string> = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

/**
 * Bundles one page module (a vite library build: ES module, module workers bundled with it) into a
 * temporary folder beside an empty index.html, and serves that folder on an ephemeral 127.0.0.1 port
 * with the isolation headers, so a test can drive the module without the app's own build. The page
 * imports it as `/<fileName>.js`. `mounts` serves further folders under URL prefixes (e.g.
 * `{ '/vendor/ort/': <onnxruntime-web's dist> }`). close() stops the server and deletes the folder.
 */
export async function serveBundledModule(opts: { entry: string; fileName: string; mounts?: Record<string, string> }): Promise<Served> {
  const root = resolve(import.meta.dirname, '../..');
  const out = mkdtempSync(join(tmpdir(), `wmrl-${opts.fileName}-e2e-`));
  try {
    await build({
      root,
      configFile: false,
      logLevel: 'warn',
      worker: { format: 'es' },
      build: {
        outDir: out,
        emptyOutDir: true,
        target: 'es2022',
        minify: false,
        lib: { entry: resolve(root, opts.entry), formats: ['es'], fileName: opts.fileName },
      },
    });
  } catch (e) {
    rmSync(out, { recursive: true, force: true });
    throw e;
  }
  writeFileSync(join(out, 'index.html'), `<!doctype html><meta charset="utf-8"><title>${opts.fileName}</title>`);
  const mounts = Object.entries(opts.mounts ?? {});
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const mount = mounts.find(([prefix]) => path.startsWith(prefix));
    const dir = mount ? mount[1] : out;
    const file = join(dir, normalize(mount ? path.slice(mount[0].length) : path === '/' ? '/index.html' : path));
    if (!file.startsWith(dir + sep) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      ...ISOLATION_HEADERS,
    });
    res.end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('module server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      rmSync(out, { recursive: true, force: true });
    },
  };
}

export interface ServedApp {
  /** Base URL of the served dist/ (ends with '/'). */
  readonly url: string;
  readonly browser: Browser;
}

/**
 * For the tests of one describe block: serves dist/ and launches Chromium before them, stops both
 * after them. Read `url` and `browser` inside the tests (they exist once beforeAll has run).
 */
export function useServedApp(opts: { webgpu?: boolean } = {}): ServedApp {
  let served: Served | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    served = await serveDist();
    browser = await launchChromium(opts);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });
  const ready = <T>(x: T | undefined, what: string): T => {
    if (x === undefined) throw new Error(`useServedApp: ${what} is read before beforeAll ran`);
    return x;
  };
  return {
    get url() {
      return ready(served, 'url').url;
    },
    get browser() {
      return ready(browser, 'browser');
    },
  };
}

/** A new page on `hash` of the served app (e.g. '#/train'), with the page errors it throws collected. */
export async function openView(app: ServedApp, hash: string, viewport?: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
  const page = await app.browser.newPage(viewport ? { viewport } : {});
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${app.url}${hash}`);
  return { page, errors };
}

/** The text of a CodeMirror editor (one `.cm-line` per line; programs here are short enough to be all drawn). */
export async function editorText(page: Page, testid: string): Promise<string> {
  // CodeMirror loads in its own chunk, after the view (a text area stands in until then).
  await page.waitForSelector(`[data-testid="${testid}"] .cm-content`, { timeout: 30_000 });
  return (await page.locator(`[data-testid="${testid}"] .cm-line`).allTextContents()).join('\n');
}

/** Replaces a CodeMirror editor's text, as a paste would. */
export async function setEditorText(page: Page, testid: string, text: string): Promise<void> {
  await page.waitForSelector(`[data-testid="${testid}"] .cm-content`, { timeout: 30_000 });
  await page.fill(`[data-testid="${testid}"] .cm-content`, text);
}
