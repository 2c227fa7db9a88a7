// JSON that gives back what was saved: a Float32Array as its bytes in base64 ({ "$f32": ... }) and the
// numbers JSON has no word for (NaN, the infinities, -0) spelled out ({ "$num": ... }). Plain JSON turns
// weights into objects of indices and those numbers into null or 0, so a run saved that way would not
// go on where it stopped. Used by the page's run files and the robot runner's unfinished-run files.

/** A `$f32` value that is not the bytes of a Float32Array. */
export class TypedJsonError extends Error {}

/** The portable encoder, the reference the fast ones are checked against. */
export function toBase64Reference(bytes: Uint8Array): string {
  // apply over 1 KiB chunks: spreading 32 KiB chunks took 0.5 s for a policy's 0.8 MB of weights in Node
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x400) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x400) as unknown as number[]);
  return btoa(s);
}

/** The portable decoder; null when `text` is not base64. */
export function fromBase64Reference(text: string): Uint8Array | null {
  let s: string;
  try {
    s = atob(text);
  } catch {
    return null;
  }
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

// A checkpoint is 12 MB of weights and AdamW moments, saved as a run goes on: the reference took
// 0.8 s for it in a busy Chromium, the browser's own encoder (Uint8Array.prototype.toBase64, Chromium
// 140+) 0.14 s. Node 20 has neither that nor fromBase64, and has Buffer.
interface NativeBase64 {
  toBase64?: (this: Uint8Array) => string;
}
interface NodeBuffer {
  from(data: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'base64'): string };
}
const nativeToBase64 = (Uint8Array.prototype as NativeBase64).toBase64;
const nodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
const nativeFromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array }).fromBase64;

/** Which encoder this runtime uses (the tests check each against the reference where it exists). */
export const base64Encoder: 'native' | 'buffer' | 'reference' = nativeToBase64 ? 'native' : nodeBuffer ? 'buffer' : 'reference';

export function toBase64(bytes: Uint8Array): string {
  if (nativeToBase64) return nativeToBase64.call(bytes);
  if (nodeBuffer) return nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return toBase64Reference(bytes);
}

/** Decodes, or null when `text` is not base64 (Buffer would skip bad characters, so it is not used here). */
export function fromBase64(text: string): Uint8Array | null {
  if (nativeFromBase64) {
    try {
      return nativeFromBase64.call(Uint8Array, text);
    } catch {
      return null;
    }
  }
  return fromBase64Reference(text);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON.stringify's replacer. */
export function typedJsonReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Float32Array) return { $f32: toBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) };
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) return { $num: Object.is(value, -0) ? '-0' : String(value) };
  return value;
}

/** JSON.parse's reviver; a damaged weight array is a TypedJsonError. */
export function typedJsonReviver(_key: string, value: unknown): unknown {
  if (isObject(value) && typeof value.$f32 === 'string' && Object.keys(value).length === 1) {
    const bytes = fromBase64(value.$f32);
    if (bytes === null) throw new TypedJsonError('a weight array is damaged (not base64)');
    if (bytes.length % 4 !== 0) throw new TypedJsonError('a weight array is damaged (its length is not a whole number of floats)');
    return new Float32Array(bytes.buffer, 0, bytes.length / 4);
  }
  if (isObject(value) && typeof value.$num === 'string' && Object.keys(value).length === 1) return Number(value.$num);
  return value;
}
