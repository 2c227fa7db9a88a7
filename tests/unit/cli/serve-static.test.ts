// serve:static's server (serveDistStatic): a malformed request path gets 400 and the server keeps
// serving, instead of dying on decodeURIComponent's URIError; extra headers go on every response.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRequestPath, serveDistStatic, type ServedDist } from '../../../src/cli/browser-session.ts';

/** GET with the path sent exactly as written (fetch would normalise it). */
function get(url: string, rawPath: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    const req = request({ hostname, port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('serveDistStatic', () => {
  let root: string;
  let served: ServedDist;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'wmrl-serve-'));
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist/index.html'), '<p>hi</p>');
    served = await serveDistStatic({ root, basePath: '/wmrl/', headers: { 'Cross-Origin-Opener-Policy': 'same-origin' } });
  });
  afterAll(async () => {
    await served?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers 400 to a path that is not percent-encoded UTF-8, and goes on serving', async () => {
    for (const bad of ['/wmrl/%E0%A4%A', '/wmrl/%', '/wmrl/%FF']) expect((await get(served.url, bad)).status).toBe(400);
    const ok = await get(served.url, '/wmrl/');
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('<p>hi</p>');
    expect(ok.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect((await get(served.url, '/wmrl/%2e%2e/secret')).status).toBe(404);
  });

  it('decodeRequestPath: null for malformed escapes, the decoded path otherwise', () => {
    expect(decodeRequestPath('/wmrl/%E0%A4%A')).toBeNull();
    expect(decodeRequestPath('/wmrl/a%20b')).toBe('/wmrl/a b');
  });
});
