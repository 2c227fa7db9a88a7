// The one way this project's command-line tools and browser tests reach the built app: make sure
// dist/ was built from the sources in this checkout (its source stamp), serve it on 127.0.0.1 with
// the production isolation headers (vite preview), and launch Debian's headless Chromium. A stale
// build would run old code under new names, so every caller rebuilds rather than guesses.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { preview } from 'vite';
import { staleDistReason } from '../../scripts/source-stamp.mjs';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const BASE_ARGS = ['--no-sandbox', '--headless', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'];

// Without a GPU, Chromium offers WebGPU only on SwiftShader, and only with --enable-unsafe-webgpu;
// the workers' 'auto' choice passes a software adapter over, so this is safe for every caller.
const WEBGPU_ARGS = ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-webgpu-adapter=swiftshader'];

/**
 * Builds dist/ unless it was built from these sources (or always, with `force`), then checks the
 * result: a tool or test must never run on a stale build. Returns why it built, or null.
 */
export function ensureFreshDist(opts: { root?: string; force?: boolean; harness?: boolean; log?: (line: string) => void } = {}): string | null {
  const root = opts.root ?? PROJECT_ROOT;
  const harness = opts.harness ?? false;
  const why = opts.force ? 'asked to rebuild' : staleDistReason(root, 'dist', { harness });
  if (!why) return null;
  (opts.log ?? console.error)(`${why}: building the app (vite build${harness ? ', with the test harness page' : ''}) ...`);
  const env = harness ? { ...process.env, WMRL_HARNESS: '1' } : process.env;
  const r = spawnSync(process.execPath, [resolve(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env });
  const still = r.status === 0 ? staleDistReason(root, 'dist', { harness }) : `vite build failed (exit ${r.status ?? r.signal})`;
  if (still) throw new Error(`dist/ cannot be used: ${still}`);
  return why;
}

export interface ServedDist {
  /** base URL, ends with '/' */
  url: string;
  close(): Promise<void>;
}

/** Serves `root`'s dist/ as it is on an ephemeral 127.0.0.1 port (call ensureFreshDist first). */
export async function serveDist(root = PROJECT_ROOT): Promise<ServedDist> {
  const server = await preview({ root, configFile: resolve(root, 'vite.config.ts'), logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') {
    await server.close();
    throw new Error('preview server has no TCP address');
  }
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}

const STATIC_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.map': 'application/json',
  '.zip': 'application/zip', '.txt': 'text/plain; charset=utf-8', '.jsonl': 'text/plain; charset=utf-8',
};

/** A request path decoded, or null when it is not valid percent-encoded UTF-8 (answered 400). */
export function decodeRequestPath(url: string): string | null {
  try {
    return decodeURIComponent(new URL(url, 'http://host').pathname);
  } catch {
    return null;
  }
}

/**
 * Serves `root`'s dist/ the way a plain static host does (GitHub Pages and the like): under
 * `basePath` (e.g. '/wmrl/'), with content types only, no isolation or CSP headers, 404 elsewhere.
 * `headers` are added to every response: a host configured for isolation but not for the sandbox
 * worker's CSP sends the isolation headers only. On 127.0.0.1, an ephemeral port unless `port` is given.
 */
export async function serveDistStatic(opts: { root?: string; basePath?: string; port?: number; headers?: Readonly<Record<string, string>> } = {}): Promise<ServedDist> {
  const dist = resolve(opts.root ?? PROJECT_ROOT, 'dist');
  const base = opts.basePath ?? '/';
  if (!base.startsWith('/') || !base.endsWith('/')) throw new Error(`base path ${base}: must start and end with '/'`);
  const server = createServer((req, res) => {
    const path = decodeRequestPath(req.url ?? '/');
    if (path === null) return void res.writeHead(400).end('bad request: the path is not valid percent-encoded UTF-8');
    if (!path.startsWith(base)) return void res.writeHead(404).end('not found');
    const rel = path.slice(base.length);
    const file = resolve(dist, normalize(rel === '' || rel.endsWith('/') ? `${rel}index.html` : rel));
    if (!file.startsWith(dist + sep) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end('not found');
    res.writeHead(200, { ...opts.headers, 'Content-Type': STATIC_TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', ok);
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('static server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}${base}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/**
 * Headless Chromium, with WebGPU (SwiftShader where there is no GPU) unless `webgpu: false`, which
 * gives a browser whose adapter request returns null, as on a machine without WebGPU.
 */
export async function launchChromium(opts: { webgpu?: boolean; extraArgs?: string[] } = {}): Promise<Browser> {
  const { webgpu = true, extraArgs = [] } = opts;
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium (npm test does it as root)`);
  return chromium.launch({ executablePath: CHROMIUM, args: [...BASE_ARGS, ...(webgpu ? WEBGPU_ARGS : ['--disable-gpu']), ...extraArgs] });
}
