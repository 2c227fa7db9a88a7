import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatHash, LINK_TEXT_CAP_BYTES, LinkTooLargeError, packText, paramOf, parseHash, readChoice, readNumber, unpackText } from '../../../src/ui/url-state.ts';
import { DEFAULT_PRESET, defaultSettings, preparedBatch, settingsFromParams, settingsParams } from '../../../src/ui/train/settings.ts';

describe('the hash', () => {
  it('splits the view from its query, and formats it back', () => {
    const h = parseHash('#/train?steps=5&B=2');
    expect(h.path).toBe('/train');
    expect(h.params.get('B')).toBe('2');
    expect(formatHash(h.path, h.params)).toBe('#/train?steps=5&B=2');
    expect(parseHash('').path).toBe('/');
    expect(parseHash('#').path).toBe('/');
    expect(parseHash('#/nope').path).toBe('/nope');
    expect(formatHash('/paper', new URLSearchParams())).toBe('#/paper');
  });

  it('reads numbers within their range and choices within their list, else the fallback', () => {
    const q = new URLSearchParams('a=0.3&b=9&c=x&d=2.5&e=&s=optimistic&t=bogus');
    expect(readNumber(q, 'a', { min: 0, max: 0.5 }, 0.1)).toBe(0.3);
    expect(readNumber(q, 'b', { min: 0, max: 5 }, 1)).toBe(1);
    expect(readNumber(q, 'c', { min: 0, max: 5 }, 1)).toBe(1);
    expect(readNumber(q, 'd', { min: 0, max: 5, integer: true }, 1)).toBe(1);
    expect(readNumber(q, 'e', { min: 0, max: 5 }, 1)).toBe(1);
    expect(readNumber(q, 'missing', { min: 0, max: 5 }, 4)).toBe(4);
    expect(readChoice(q, 's', ['none', 'optimistic'], 'none')).toBe('optimistic');
    expect(readChoice(q, 't', ['none', 'optimistic'], 'none')).toBe('none');
    expect(paramOf(5, 5)).toBeNull();
    expect(paramOf(0.25, 0.1)).toBe('0.25');
    expect(paramOf(null, 3)).toBeNull();
  });
});

describe('packText (a program in a link)', () => {
  it('round-trips any text, and is URL-safe', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 400 }), async (text) => {
        const packed = await packText(text);
        expect(packed).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(await unpackText(packed)).toBe(text);
      }),
      { numRuns: 60 },
    );
  });

  it('is deflate-raw in base64url, so other tools can make such links, and shrinks a program', async () => {
    const program = 'import numpy as np\n' + 'def fit(rows):\n    return sum(r["y"] for r in rows) / len(rows)\n'.repeat(20);
    const made = deflateRawSync(Buffer.from(program)).toString('base64url');
    expect(await unpackText(made)).toBe(program);
    expect((await packText(program)).length).toBeLessThan(program.length / 4);
  });

  it('refuses what it did not make', async () => {
    await expect(unpackText('not-a-program')).rejects.toThrow();
  });

  it('stops a deflate bomb at the cap with a clear message: a 3 KB link of 2 MiB, a 55 KB link of 40 MiB', async () => {
    for (const mib of [2, 40]) {
      const bomb = deflateRawSync(Buffer.alloc(mib << 20, 0x61)).toString('base64url');
      expect(bomb.length).toBeLessThan(mib * 1400);
      const refused = await unpackText(bomb).then(() => null, (e: unknown) => e);
      expect(refused).toBeInstanceOf(LinkTooLargeError);
      expect((refused as Error).message).toMatch(/unpacks to more than 1048576 bytes \(1 MiB\), the limit for a link/);
    }
    // just under the cap is a program like any other
    const big = 'x = 1\n'.repeat(Math.floor(LINK_TEXT_CAP_BYTES / 6));
    expect(await unpackText(await packText(big))).toBe(big);
    // a link longer than any text under the cap can pack to is refused before it is decoded
    await expect(unpackText('A'.repeat(2 * LINK_TEXT_CAP_BYTES + 1))).rejects.toThrow(/too long: 2097153 characters/);
  });

  it('any string as a link gives a text within the cap or an error, never more (property)', async () => {
    const bombish = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 3 << 20 })).map(([b, n]) => deflateRawSync(Buffer.alloc(n, b)).toString('base64url'));
    const mangled = fc.tuple(bombish, fc.nat(), fc.string({ unit: fc.constantFrom(...'ABCxyz019-_'.split('')), maxLength: 8 })).map(([p, at, junk]) => p.slice(0, at % (p.length + 1)) + junk);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 200 }), bombish, mangled), async (link) => {
        const r = await unpackText(link).then((text) => ({ text }), (e: unknown) => ({ e }));
        if ('text' in r) expect(new TextEncoder().encode(r.text).length).toBeLessThanOrEqual(LINK_TEXT_CAP_BYTES);
        else expect(r.e).toBeInstanceOf(Error);
      }),
      { numRuns: 60 },
    );
  });
});

describe('the Train settings in the URL', () => {
  it('defaults are left out; changed settings round-trip', () => {
    const d = defaultSettings();
    const { values, defaults } = settingsParams(d);
    expect(Object.keys(values).filter((k) => values[k] !== null && values[k] !== defaults[k])).toEqual([]);
    const s = { ...d, presetId: 'wmrl-ppi' as const, steps: 7, groupsPerStep: 2, groupSize: 3, seed: 5, rho: 0.5, lr: 1e-4, temperature: 0.8, klBeta: 0.04, policyBackend: 'cpu' as const };
    const p = settingsParams(s);
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(p.values)) if (paramOf(v, p.defaults[k]) !== null) q.set(k, String(v));
    expect(q.toString()).toBe('preset=wmrl-ppi&steps=7&B=2&n=3&seed=5&rho=0.5&lr=0.0001&temp=0.8&kl=0.04&policy=cpu');
    expect(settingsFromParams(q, d)).toEqual(s);
  });

  it('rho stays out of the URL where the preset fixes it', () => {
    expect(settingsParams({ ...defaultSettings(), presetId: 'grpo-all-real', rho: 0.5 }).values.rho).toBeNull();
  });

  it('an unknown choice or a non-number is left out; a number out of range is kept for its field to refuse', () => {
    const s = settingsFromParams(new URLSearchParams('preset=bogus&steps=abc&B=0&policy=tpu'), defaultSettings());
    expect(s.presetId).toBe(DEFAULT_PRESET);
    expect(s.steps).toBe(20);
    expect(s.groupsPerStep).toBe(0);
    expect(s.policyBackend).toBe('auto');
  });

  it('a link\'s B x n sizes nothing before it is valid: the runtime started ahead takes the default for an out-of-range batch', () => {
    const of = (q: string) => preparedBatch(settingsFromParams(new URLSearchParams(q), defaultSettings()));
    expect(of('B=4&n=3')).toBe(12);
    expect(of('B=100000&n=16')).toBeUndefined();
    expect(of('B=8&n=1e6')).toBeUndefined();
    expect(of('B=2.5&n=4')).toBeUndefined();
    fc.assert(
      fc.property(fc.integer(), fc.integer(), (B, n) => {
        const size = preparedBatch({ groupsPerStep: B, groupSize: n });
        expect(size === undefined || (size >= 2 && size <= 32 * 16)).toBe(true);
      }),
    );
  });
});
