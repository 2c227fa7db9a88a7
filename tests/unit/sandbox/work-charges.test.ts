// python/work_charges.py: the charge for KNN's C-side distances. It must leave every prediction as
// it was and charge each search, once, query rows x training rows x (features + 1) / DISTANCE_TERMS_PER_UNIT units.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { py } from '../toolkit/python.ts';

const CHARGES = readFileSync(resolve(import.meta.dirname, '../../../src/sandbox-pyodide/python/work_charges.py'), 'utf8');

describe('work charges', () => {
  it('charge each KNN search for its distances, once, and change no prediction', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 7 }), async (n, d, m, k) => {
        const out = await py<{ before: number[]; after: number[]; charged: number[]; per: number }>(`
import random, importlib
from toolkit import neighbors
importlib.reload(neighbors)
rng = random.Random(${n * 1000 + d * 100 + m})
X = [[rng.random() for _ in range(${d})] for _ in range(${n})]
y = [rng.random() for _ in range(${n})]
Q = [[rng.random() for _ in range(${d})] for _ in range(${m})]
before = neighbors.KNeighborsRegressor(k=${k}).fit(X, y).predict(Q)
ns = {}
exec(${JSON.stringify(CHARGES)}, ns)
charged = []
ns['install'](charged.append)
after = neighbors.KNeighborsRegressor(k=${k}).fit(X, y).predict(Q)
result = {'before': before, 'after': after, 'charged': charged, 'per': ${n} * (${d} + 1) // ns['DISTANCE_TERMS_PER_UNIT']}
importlib.reload(neighbors)
`);
        expect(out.after).toEqual(out.before);
        expect(out.charged).toEqual([m * out.per]);
        if (n * (d + 1) >= 400) expect(out.per).toBeGreaterThan(0);
      }),
      { numRuns: 12 },
    );
  });
});
