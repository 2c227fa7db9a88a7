// What a view puts in the URL so that a link reproduces it: the hash is `#/<view>?<key>=<value>&...`
// (the app is static files, so all state lives in the fragment). Pure helpers, unit-tested: parse
// and format the hash, read a parameter back within its range or choices, and pack a program
// (deflate-raw, then base64url) so it fits in a link.

export interface HashState {
  path: string;
  params: URLSearchParams;
}

export function parseHash(hash: string): HashState {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const q = body.indexOf('?');
  const path = (q < 0 ? body : body.slice(0, q)) || '/';
  return { path, params: new URLSearchParams(q < 0 ? '' : body.slice(q + 1)) };
}

export function formatHash(path: string, params: URLSearchParams): string {
  const q = params.toString();
  return `#${path}${q ? `?${q}` : ''}`;
}

/** A number parameter within [min, max] (whole where asked), else the fallback: a hand-edited link never breaks a view. */
export function readNumber(params: URLSearchParams, key: string, range: { min: number; max: number; integer?: boolean }, fallback: number): number {
  const raw = params.get(key);
  if (raw === null || raw.trim() === '') return fallback;
  const v = Number(raw);
  return Number.isFinite(v) && v >= range.min && v <= range.max && (!range.integer || Number.isInteger(v)) ? v : fallback;
}

/** A parameter that must be one of `choices`, else the fallback. */
export function readChoice<T extends string>(params: URLSearchParams, key: string, choices: readonly T[], fallback: T): T {
  const raw = params.get(key);
  return raw !== null && (choices as readonly string[]).includes(raw) ? (raw as T) : fallback;
}

/** The URL value of a setting: null (left out) when it is the default, so links stay short. */
export function paramOf(value: number | string | null | undefined, fallback: number | string | null): string | null {
  return value === null || value === undefined || value === fallback ? null : String(value);
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function through(bytes: Uint8Array<ArrayBuffer>, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

/** A text (a program) as a compact URL-safe string: UTF-8, deflate-raw, base64url. */
export async function packText(text: string): Promise<string> {
  return toBase64Url(await through(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
}

/**
 * The most a link's text may unpack to. A program is a few KB; deflate expands up to about 1000x, so
 * without a cap a 544 KB link held the tab for 26 s and 844 MB of heap while it inflated.
 */
export const LINK_TEXT_CAP_BYTES = 1 << 20;
// Compressed bytes handed to the inflater at a time: one slice inflates to at most ~4 MB, and the
// output is counted between slices, so a bomb is stopped early instead of inflated whole.
const INFLATE_SLICE = 4096;

/** A link whose text is refused for its size: the message is for the user. */
export class LinkTooLargeError extends Error {}

/** The text back from packText; throws on anything packText did not make, and past `capBytes` unpacked. */
export async function unpackText(packed: string, capBytes = LINK_TEXT_CAP_BYTES): Promise<string> {
  // deflate never shrinks incompressible text much below its size, so a longer link cannot fit
  if (packed.length > 2 * capBytes) throw new LinkTooLargeError(`the program in this link is too long: ${packed.length} characters (the limit is ${2 * capBytes})`);
  const bytes = fromBase64Url(packed) as Uint8Array<ArrayBuffer>;
  const inflater = new DecompressionStream('deflate-raw');
  const writer = inflater.writable.getWriter();
  const reader = inflater.readable.getReader();
  const feeding = (async () => {
    for (let i = 0; i < bytes.length; i += INFLATE_SLICE) await writer.write(bytes.subarray(i, i + INFLATE_SLICE));
    await writer.close();
  })();
  feeding.catch(() => {}); // its failure surfaces through the reader
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > capBytes) {
      await reader.cancel().catch(() => {});
      await writer.abort().catch(() => {});
      throw new LinkTooLargeError(`the program in this link unpacks to more than ${capBytes} bytes (${(capBytes / 1048576).toFixed(0)} MiB), the limit for a link`);
    }
    parts.push(value);
  }
  await feeding;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(out);
}

/** A view's settings as URL values beside their defaults, under each setting's key, for router.set. */
export function settingsParams<T extends object>(settings: T, defaults: T, keys: Record<keyof T, string>): { values: Record<string, number | string>; defaults: Record<string, number | string> } {
  const values: Record<string, number | string> = {};
  const fallback: Record<string, number | string> = {};
  for (const k of Object.keys(keys) as (keyof T)[]) {
    values[keys[k]] = settings[k] as number | string;
    fallback[keys[k]] = defaults[k] as number | string;
  }
  return { values, defaults: fallback };
}
