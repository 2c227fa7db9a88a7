// The escape corpus (escape-corpus.ts) on the project's own server: the built app served with the
// production headers (vite preview, the worker's CSP included). The same corpus runs on a
// header-less host (tests/e2e/static-host.test.ts) and on a host with the isolation headers only
// (tests/e2e/isolation-only-host.test.ts).
import { describe } from 'vitest';
import { corpusHolds } from './escape-corpus.ts';
import { openSandbox } from './harness.ts';
import { startCanary } from '../e2e/canary.ts';

describe('sandbox escape corpus, on the project\'s own server', () => {
  corpusHolds(async () => {
    const canary = await startCanary();
    const s = await openSandbox();
    return {
      page: s.page,
      canary,
      async close() {
        await s.close();
        await canary.close();
      },
    };
  });
});
