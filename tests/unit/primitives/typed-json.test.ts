// Typed JSON: the fast base64 paths give the reference's text and bytes; weights and the numbers JSON
// cannot spell come back bit for bit. (The browser's native encoder is checked in Chromium: tests/e2e/trainer.test.ts.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Encoder, fromBase64, fromBase64Reference, toBase64, toBase64Reference, TypedJsonError, typedJsonReplacer, typedJsonReviver } from '../../../src/primitives/typed-json.ts';

describe('base64', () => {
  it('this runtime (Node) uses a fast encoder, not the reference', () => {
    expect(base64Encoder).not.toBe('reference');
  });

  it('the fast encoder writes the reference\'s text, from any view of a buffer, and reads it back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.nat(7), (bytes, offset) => {
        const padded = new Uint8Array(bytes.length + offset);
        padded.set(bytes, offset);
        const view = padded.subarray(offset);
        const text = toBase64(view);
        expect(text).toBe(toBase64Reference(bytes));
        expect(fromBase64(text)).toEqual(bytes);
        expect(fromBase64Reference(text)).toEqual(bytes);
      }),
    );
  });

  it('text that is not base64 is null, never bytes made up from what is left', () => {
    for (const bad of ['a*bc', 'QUJD!', 'QQ==QQ==x', '\u00e9\u00e9\u00e9\u00e9']) {
      expect(fromBase64(bad), bad).toBeNull();
      expect(fromBase64Reference(bad), bad).toBeNull();
    }
  });
});

describe('typedJsonReplacer and typedJsonReviver', () => {
  it('give back weights bit for bit (NaN payloads aside) and NaN, the infinities and -0', () => {
    fc.assert(
      fc.property(fc.float32Array({ maxLength: 300 }), fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 1.5), (w, x) => {
        const back = JSON.parse(JSON.stringify({ w, x }, typedJsonReplacer), typedJsonReviver) as { w: Float32Array; x: number };
        expect(back.w).toBeInstanceOf(Float32Array);
        expect(Array.from(back.w)).toEqual(Array.from(w));
        expect(Object.is(back.x, x)).toBe(true);
      }),
    );
  });

  it('a damaged weight array is a TypedJsonError that says so', () => {
    expect(() => JSON.parse('{"w":{"$f32":"a*bc"}}', typedJsonReviver)).toThrow(TypedJsonError);
    expect(() => JSON.parse('{"w":{"$f32":"QUJD"}}', typedJsonReviver)).toThrow(/whole number of floats/);
  });
});
