// Shared harness for the browser layers: serve the built app (dist/) on 127.0.0.1 with the same
// isolation headers as production, and drive Debian's Chromium with WebGPU on SwiftShader.
// The server lives in the test process, so it stops when the tests stop.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const BASE_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

// Without a GPU, Chromium offers WebGPU only on SwiftShader, and only with --enable-unsafe-webgpu.
const WEBGPU_ARGS = [
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
];

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Serves dist/ (run `vite build` first) on an ephemeral 127.0.0.1 port. */
export async function serveDist(): Promise<Served> {
  const root = resolve(import.meta.dirname, '../..');
  if (!existsSync(resolve(root, 'dist/index.html'))) {
    throw new Error('dist/ is missing: run `npm run build` before the browser tests (npm test does it)');
  }
  const server: PreviewServer = await preview({
    root,
    configFile: resolve(root, 'vite.config.ts'),
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => server.close(),
  };
}

/**
 * Launches headless Chromium, with WebGPU (SwiftShader where there is no GPU) unless `webgpu: false`,
 * which gives a browser whose adapter request returns null, as on a machine without WebGPU.
 */
export async function launchChromium(opts: { webgpu?: boolean; extraArgs?: string[] } = {}): Promise<Browser> {
  const { webgpu = true, extraArgs = [] } = opts;
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium (npm test does it as root)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: [...BASE_ARGS, ...(webgpu ? WEBGPU_ARGS : ['--disable-gpu']), ...extraArgs] });
}
