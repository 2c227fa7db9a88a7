// npm run serve:static -- [--base /wmrl/] [--port 8080]
//
// Serves the build the way a plain static host (GitHub Pages and the like) does: under a sub-path,
// with no isolation or CSP headers, so you can see what a published copy does before publishing it.
// The page installs its service worker, reloads once and is isolated (docs/architecture.md, Serving).
// Builds dist/ first when it is stale. Listens on 127.0.0.1; Ctrl-C stops it.
import { ensureFreshDist, serveDistStatic } from './browser-session.ts';
import { InputError, parseFlags } from './cli-input.ts';

async function main(): Promise<void> {
  const { values } = parseFlags({ options: { base: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) {
    console.log('usage: npm run serve:static -- [--base /wmrl/] [--port 8080]');
    return;
  }
  const port = values.port === undefined ? 8080 : Number(values.port);
  if (!(Number.isInteger(port) && port >= 0 && port < 65536)) throw new InputError(`--port ${values.port}: not a port number`);
  const base = values.base ?? '/wmrl/';
  ensureFreshDist();
  const served = await serveDistStatic({ basePath: base.endsWith('/') ? base : `${base}/`, port });
  console.log(`serving dist/ at ${served.url} without isolation headers (as a static host would); Ctrl-C stops`);
  process.on('SIGINT', () => void served.close().then(() => process.exit(0)));
}

main().catch((e) => {
  console.error(`serve:static: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(e instanceof InputError ? 2 : 1);
});
