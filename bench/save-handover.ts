// How long the experiment page takes to hand the runner its run so far (a 15.5 MB typed-JSON text):
// through Playwright's exposed function (CDP, what src/cli/experiment-page.ts uses), or as a POST to
// an HTTP endpoint of the runner on 127.0.0.1 (the alternative tried, and not taken: it was no faster).
// Alternates the two in one Chromium page on the same text, and prints medians and their ratio.
// Usage: npm run bench:save-handover -- [--mb 15.5] [--reps 7]
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launchChromium, serveDistStatic } from '../src/cli/browser-session.ts';
import { medianOf } from '../src/primitives/median.ts';

/** A POST endpoint on 127.0.0.1 that answers once it has the whole body. */
async function receiveSaves(pageOrigin: string, keep: (text: string) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      keep(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(204, { 'Access-Control-Allow-Origin': pageOrigin }).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return { url: `http://127.0.0.1:${address.port}/save`, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

const { values } = parseArgs({ options: { mb: { type: 'string' }, reps: { type: 'string' } } });
const mb = Number(values.mb ?? 15.5);
const reps = Number(values.reps ?? 7);

const served = await serveDistStatic();
const browser = await launchChromium({ webgpu: false });
const page = await browser.newPage();
let got = 0;
const receiver = await receiveSaves(new URL(served.url).origin, (text) => (got = text.length));
await page.exposeFunction('handOver', (text: string) => (got = text.length));
await page.goto(`${served.url}tasks/index.json`); // a plain document on the page's origin
await page.evaluate((chars) => {
  // base64-like text, as a checkpoint's is
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const parts: string[] = [];
  for (let i = 0; i < chars; i += 1_000_000) parts.push(Array.from({ length: Math.min(1_000_000, chars - i) }, (_, k) => abc[(k * 7 + i) & 63]).join(''));
  (window as unknown as { text: string }).text = `{"w":"${parts.join('')}"}`;
}, Math.round(mb * 1e6));

const times: Record<'exposed function' | 'POST', number[]> = { 'exposed function': [], POST: [] };
for (let r = 0; r < reps; r++) {
  for (const way of ['exposed function', 'POST'] as const) {
    got = 0;
    const ms = await page.evaluate(async ([w, url]) => {
      const text = (window as unknown as { text: string }).text;
      const t = performance.now();
      if (w === 'POST') {
        const a = await fetch(url, { method: 'POST', body: text });
        if (!a.ok) throw new Error(`POST answered ${a.status}`);
      } else await (window as unknown as { handOver: (t: string) => Promise<void> }).handOver(text);
      return performance.now() - t;
    }, [way, receiver.url] as const);
    if (got < mb * 1e6) throw new Error(`${way}: the runner got ${got} characters`);
    times[way].push(ms);
  }
}
console.log(`hand-over of ${mb} MB of text, ${reps} alternating repetitions, load ${loadavg()[0].toFixed(1)} at the end:`);
for (const [way, xs] of Object.entries(times)) console.log(`  ${way.padEnd(17)} median ${(medianOf(xs) / 1000).toFixed(2)} s (min ${(Math.min(...xs) / 1000).toFixed(2)}, max ${(Math.max(...xs) / 1000).toFixed(2)})`);
console.log(`  ratio exposed / POST (medians): ${(medianOf(times['exposed function']) / medianOf(times.POST)).toFixed(1)}x`);
await browser.close();
await receiver.close();
await served.close();
