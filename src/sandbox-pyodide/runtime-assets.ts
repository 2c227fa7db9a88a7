// What the page fetches and compiles once for every sandbox worker: the Pyodide wasm module
// (compiled here, shared with each worker by postMessage), the standard library and the lock file
// with its package list emptied (a stray loadPackage then fails instead of reaching for the network).

import { appUrl } from '../primitives/app-root.ts';

export interface RuntimeAssets {
  indexURL: string;
  wasmModule: WebAssembly.Module;
  stdlibZip: SharedArrayBuffer;
  lockFileJson: string;
  /** Time to fetch and compile everything, ms. */
  loadMs: number;
}

/** The vendored Pyodide directory of this app (public/vendor/pyodide, see scripts/vendor-assets.mjs). */
export function defaultIndexURL(): string {
  return appUrl('vendor/pyodide/');
}

async function fetchOk(url: string): Promise<Response> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`sandbox: cannot load ${url}: HTTP ${res.status}`);
  return res;
}

export async function loadRuntimeAssets(indexURL: string = defaultIndexURL()): Promise<RuntimeAssets> {
  const t0 = performance.now();
  const [wasmModule, stdlibZip, lock] = await Promise.all([
    WebAssembly.compileStreaming(fetchOk(`${indexURL}pyodide.asm.wasm`)),
    fetchOk(`${indexURL}python_stdlib.zip`).then((r) => r.arrayBuffer()),
    fetchOk(`${indexURL}pyodide-lock.json`).then((r) => r.json() as Promise<{ info: unknown; packages: unknown }>),
  ]);
  const lockFileJson = JSON.stringify({ ...lock, packages: {} });
  const shared = new SharedArrayBuffer(stdlibZip.byteLength);
  new Uint8Array(shared).set(new Uint8Array(stdlibZip));
  return { indexURL, wasmModule, stdlibZip: shared, lockFileJson, loadMs: performance.now() - t0 };
}
