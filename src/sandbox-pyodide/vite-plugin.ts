// Sends the sandbox worker's CSP with the worker script, on the dev server and on `vite preview`
// (static hosts need the same rule: see docs/sandbox.md).
import type { Connect, Plugin } from 'vite';
import { isSandboxWorkerPath, SANDBOX_WORKER_CSP } from './worker-csp.ts';

function middleware(): Connect.NextHandleFunction {
  return (req, res, next) => {
    if (req.url && isSandboxWorkerPath(req.url)) res.setHeader('Content-Security-Policy', SANDBOX_WORKER_CSP);
    next();
  };
}

export function sandboxWorkerHeaders(): Plugin {
  return {
    name: 'wmrl-sandbox-worker-csp',
    configureServer(server) {
      server.middlewares.use(middleware());
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware());
    },
  };
}
