// `npm start`: build the app when dist/ is missing or older than the sources, then serve it on
// 127.0.0.1 with the isolation headers (COOP/COEP) and print the URL. Ctrl-C stops it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, preview } from 'vite';

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const e of readdirSync(path)) if (e !== 'vendor') t = Math.max(t, newest(join(path, e)));
  return t;
}

const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'].filter((p) => existsSync(p));
const built = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;
if (built === 0 || Math.max(...sources.map(newest)) > built) {
  console.log('Building the app (dist/ is missing or out of date)...');
  await build({ logLevel: 'warn' });
}

const port = Number(process.env.PORT ?? 5173);
const server = await preview({ preview: { host: '127.0.0.1', port, strictPort: false, open: false }, logLevel: 'warn' });
const address = server.httpServer.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/`;
console.log(`WMRL is served at ${url}  (Ctrl-C to stop)`);
