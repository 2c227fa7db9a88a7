// The Content-Security-Policy the sandbox worker script is served with, and which URLs get it.
// A dedicated worker takes its CSP from its own script's response, so this header, not the page's,
// governs what a program inside the worker can reach: no fetch/XHR/WebSocket anywhere
// (connect-src 'none'), module scripts only from our own origin (no blob:, data: or other hosts), no
// eval or Function() (no 'unsafe-eval'), and wasm compilation allowed for Pyodide.

export const SANDBOX_WORKER_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "connect-src 'none'",
  "worker-src 'none'",
  "img-src 'none'",
  "font-src 'none'",
  "media-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * True for the worker script as vite serves it: in dev `/src/sandbox-pyodide/sandbox-worker.ts?...`,
 * in a build `/assets/sandbox-worker-<hash>.js`.
 */
export function isSandboxWorkerPath(url: string): boolean {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return SANDBOX_WORKER_PATH.test(path);
}

/** The worker script's path (without query), under any base path. */
export const SANDBOX_WORKER_PATH = /(^|\/)sandbox-worker(-[A-Za-z0-9_-]+)?\.(js|mjs|ts)$/;
