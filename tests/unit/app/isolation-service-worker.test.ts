// The generated service worker, run in a stand-in of its global scope: it must add the isolation
// headers to same-origin responses, the sandbox CSP to the sandbox worker's script only, under any
// base path, and leave other origins' requests alone.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ISOLATION_HEADERS, isolationServiceWorkerSource } from '../../../src/app/static-host.ts';
import { SANDBOX_WORKER_CSP } from '../../../src/sandbox-pyodide/worker-csp.ts';

type FetchHandler = (event: { request: Request; respondWith(r: Promise<Response>): void }) => void;

function installWorker(upstream: (r: Request) => Response) {
  const handlers: Record<string, (e: unknown) => void> = {};
  const scope = {
    location: new URL('https://user.github.io/wmrl/isolation-sw.js'),
    clients: { claim: async () => {} },
    skipWaiting: () => {},
    addEventListener: (type: string, fn: (e: unknown) => void) => (handlers[type] = fn),
  };
  new Function('self', 'fetch', 'Headers', 'Response', isolationServiceWorkerSource())(scope, async (r: Request) => upstream(r), Headers, Response);
  const onFetch = handlers.fetch as FetchHandler;
  return async (url: string, init?: { cache: string; mode: string }): Promise<Response | null> => {
    let answer: Promise<Response> | null = null;
    // Node's Request refuses what a browser hands a service worker (a cache-only request in cors mode)
    const request = init ? ({ url, ...init } as unknown as Request) : new Request(url);
    onFetch({ request, respondWith: (r) => (answer = r) });
    return answer;
  };
}

describe('the isolation service worker (static hosts without headers)', () => {
  it('adds the isolation headers to every same-origin response, keeping status and body', async () => {
    const get = installWorker(() => new Response('body', { status: 404, statusText: 'Not Found', headers: { 'Content-Type': 'text/plain' } }));
    const r = (await get('https://user.github.io/wmrl/tasks/index.json'))!;
    expect(r.status).toBe(404);
    expect(await r.text()).toBe('body');
    expect(r.headers.get('content-type')).toBe('text/plain');
    for (const [name, value] of Object.entries(ISOLATION_HEADERS)) expect(r.headers.get(name)).toBe(value);
    expect(r.headers.get('content-security-policy')).toBeNull();
  });

  it('gives the sandbox worker script, and only it, the sandbox CSP, under any folder', async () => {
    const get = installWorker(() => new Response('// js'));
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z0-9]{1,8}(\/[a-z0-9]{1,8}){0,2}$/), fc.stringMatching(/^[A-Za-z0-9_-]{8}$/), async (folder, hash) => {
        const worker = (await get(`https://user.github.io/${folder}/assets/sandbox-worker-${hash}.js?v=1`))!;
        expect(worker.headers.get('content-security-policy')).toBe(SANDBOX_WORKER_CSP);
        const other = (await get(`https://user.github.io/${folder}/assets/policy-worker-${hash}.js`))!;
        expect(other.headers.get('content-security-policy')).toBeNull();
      }),
      { numRuns: 40 },
    );
  });

  it('leaves requests to other origins, and cache-only cross-mode requests, to the browser', async () => {
    const get = installWorker(() => new Response('x'));
    expect(await get('https://cdn.example.org/lib.js')).toBeNull();
    expect(await get('https://user.github.io/wmrl/x.js', { cache: 'only-if-cached', mode: 'cors' })).toBeNull();
  });

  it('passes a response that was redirected, or is not same-origin basic, through untouched (its type, URL and redirected flag kept)', async () => {
    const redirected = Object.defineProperties(new Response('elsewhere'), {
      type: { value: 'cors' },
      redirected: { value: true },
      url: { value: 'https://other.example.org/data.json' },
    });
    const get = installWorker(() => redirected);
    const r = (await get('https://user.github.io/wmrl/redirects-away'))!;
    expect(r).toBe(redirected);
    const sameOriginHop = Object.defineProperties(new Response('here'), { redirected: { value: true }, url: { value: 'https://user.github.io/wmrl/b' } });
    const hop = installWorker(() => sameOriginHop);
    expect(await hop('https://user.github.io/wmrl/a')).toBe(sameOriginHop);
  });
});
