// A canary HTTP server on 127.0.0.1 for boundary tests: it records every connection, request and
// upgrade it gets (a sandbox that holds makes none), answers each request with a module so an import
// would succeed, and never keeps the test process alive. And the escape: a program that reaches Function through Pyodide's
// JS bridge and imports from the canary, which only the sandbox worker's CSP stops.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Canary {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Content-Type': 'text/javascript', 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' }).end('export default 1;');
  });
  // A WebSocket or a bare socket counts too, even when it never completes a request.
  server.on('upgrade', (req, socket) => {
    hits.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  server.on('connection', () => hits.push('TCP connection'));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  server.unref();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/** Python that walks Pyodide's import finder to the JS bridge, takes Function from it and imports `url`. */
export function bridgeImportProgram(url: string): string {
  return `
import sys, importlib.util
pj = None
for f in sys.meta_path:
    try:
        spec = f.find_spec('pyodide_js', None)
    except Exception:
        continue
    if spec:
        pj = importlib.util.module_from_spec(spec)
        break
F = pj.constructor.constructor
F('return import(${JSON.stringify(url)})')()
print('import started')
`;
}
