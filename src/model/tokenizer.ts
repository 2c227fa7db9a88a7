// Byte-level BPE tokenizer: every byte string encodes and decodes exactly, special tokens can never
// be produced from text (so a sampled program cannot forge a boundary), training and encoding are
// deterministic.
//
// Id layout: 0..3 special tokens, 4..259 the 256 single bytes, 260.. one id per learned merge in
// merge order. The vocabulary size is therefore 260 + number of merges.

import { preTokenize } from './pre-tokenize.ts';

export const SPECIAL_TOKENS = { pad: 0, bos: 1, sep: 2, eos: 3 } as const;
export type SpecialTokenName = keyof typeof SPECIAL_TOKENS;
export const NUM_SPECIAL = 4;
export const BYTE_OFFSET = NUM_SPECIAL;
export const BASE_VOCAB = NUM_SPECIAL + 256;

export const TOKENIZER_FORMAT = 'wmrl-bpe';
export const TOKENIZER_VERSION = 1;

/** The JSON form of a tokenizer; merges[i] = [left id, right id] creates id BASE_VOCAB + i. */
export interface TokenizerJSON {
  format: typeof TOKENIZER_FORMAT;
  version: number;
  specials: Record<SpecialTokenName, number>;
  merges: [number, number][];
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder('utf-8', { fatal: false });

/** Pair key for maps; ids stay below 2^21 so the product fits a double exactly. */
function pairKey(a: number, b: number): number {
  return a * 2097152 + b;
}

export class Tokenizer {
  readonly merges: readonly (readonly [number, number])[];
  readonly vocabSize: number;
  /** Bytes of every non-special token. */
  private readonly tokenBytes: Uint8Array[];
  /** pairKey -> rank (index of the merge); lower rank merges first. */
  private readonly ranks = new Map<number, number>();
  private readonly chunkCache = new Map<string, number[]>();

  constructor(merges: readonly (readonly [number, number])[]) {
    this.merges = merges.map(([a, b]) => [a, b] as const);
    this.vocabSize = BASE_VOCAB + merges.length;
    this.tokenBytes = new Array<Uint8Array>(this.vocabSize);
    for (let i = 0; i < NUM_SPECIAL; i++) this.tokenBytes[i] = new Uint8Array(0);
    for (let b = 0; b < 256; b++) this.tokenBytes[BYTE_OFFSET + b] = Uint8Array.of(b);
    merges.forEach(([a, b], i) => {
      const id = BASE_VOCAB + i;
      if (!(a >= BYTE_OFFSET && a < id && b >= BYTE_OFFSET && b < id)) {
        throw new Error(`tokenizer: merge ${i} (${a}, ${b}) refers to an id that is not yet defined`);
      }
      const key = pairKey(a, b);
      if (this.ranks.has(key)) throw new Error(`tokenizer: merge ${i} (${a}, ${b}) is a duplicate`);
      const left = this.tokenBytes[a];
      const right = this.tokenBytes[b];
      const bytes = new Uint8Array(left.length + right.length);
      bytes.set(left, 0);
      bytes.set(right, left.length);
      this.tokenBytes[id] = bytes;
      this.ranks.set(key, i);
    });
  }

  get pad(): number {
    return SPECIAL_TOKENS.pad;
  }
  get bos(): number {
    return SPECIAL_TOKENS.bos;
  }
  get sep(): number {
    return SPECIAL_TOKENS.sep;
  }
  get eos(): number {
    return SPECIAL_TOKENS.eos;
  }

  isSpecial(id: number): boolean {
    return id >= 0 && id < NUM_SPECIAL;
  }

  /** Encodes text (as UTF-8) or raw bytes. Never emits a special token. */
  encode(input: string | Uint8Array): number[] {
    const bytes = typeof input === 'string' ? textEncoder.encode(input) : input;
    const out: number[] = [];
    for (const [start, end] of preTokenize(bytes)) {
      const ids = this.encodeChunk(bytes, start, end);
      for (let i = 0; i < ids.length; i++) out.push(ids[i]);
    }
    return out;
  }

  /**
   * The standard sequence layout shared by policy and world model:
   * [bos] card [sep] program [eos]. The program part may be omitted to build a sampling prompt
   * (which then ends with sep).
   */
  encodeSequence(card: string, program?: string): { tokens: number[]; programStart: number } {
    const tokens = [this.bos, ...this.encode(card), this.sep];
    const programStart = tokens.length;
    if (program !== undefined) {
      for (const id of this.encode(program)) tokens.push(id);
      tokens.push(this.eos);
    }
    return { tokens, programStart };
  }

  /** Bytes of the tokens; special tokens contribute nothing. */
  decodeBytes(ids: ArrayLike<number>): Uint8Array {
    let n = 0;
    for (let i = 0; i < ids.length; i++) n += this.bytesOf(ids[i]).length;
    const out = new Uint8Array(n);
    let o = 0;
    for (let i = 0; i < ids.length; i++) {
      const b = this.bytesOf(ids[i]);
      out.set(b, o);
      o += b.length;
    }
    return out;
  }

  /** Decoded UTF-8 text; invalid sequences (e.g. a sample cut mid-character) become U+FFFD. */
  decode(ids: ArrayLike<number>): string {
    return textDecoder.decode(this.decodeBytes(ids));
  }

  /**
   * The text of tokens still being sampled: a character whose bytes have not all arrived yet is left
   * out (decode would show it as U+FFFD), so the text is always a prefix of the finished sample's.
   */
  decodeWritten(ids: ArrayLike<number>): string {
    const bytes = this.decodeBytes(ids);
    return textDecoder.decode(bytes.subarray(0, completeUtf8Length(bytes)));
  }

  /** The bytes a token stands for (empty for special tokens). */
  bytesOf(id: number): Uint8Array {
    const b = this.tokenBytes[id];
    if (b === undefined || !Number.isInteger(id)) throw new Error(`tokenizer: id ${id} is outside the vocabulary (size ${this.vocabSize})`);
    return b;
  }

  toJSON(): TokenizerJSON {
    return {
      format: TOKENIZER_FORMAT,
      version: TOKENIZER_VERSION,
      specials: { ...SPECIAL_TOKENS },
      merges: this.merges.map(([a, b]) => [a, b]),
    };
  }

  static fromJSON(json: unknown): Tokenizer {
    if (typeof json !== 'object' || json === null) throw new Error('tokenizer: JSON is not an object');
    const j = json as Partial<TokenizerJSON>;
    if (j.format !== TOKENIZER_FORMAT) throw new Error(`tokenizer: format is ${String(j.format)}, expected ${TOKENIZER_FORMAT}`);
    if (j.version !== TOKENIZER_VERSION) throw new Error(`tokenizer: version ${String(j.version)} is not supported (expected ${TOKENIZER_VERSION})`);
    const s = j.specials;
    if (!s || s.pad !== SPECIAL_TOKENS.pad || s.bos !== SPECIAL_TOKENS.bos || s.sep !== SPECIAL_TOKENS.sep || s.eos !== SPECIAL_TOKENS.eos) {
      throw new Error('tokenizer: special token ids differ from this version\'s layout');
    }
    if (!Array.isArray(j.merges)) throw new Error('tokenizer: merges missing');
    const merges = j.merges.map((m, i) => {
      if (!Array.isArray(m) || m.length !== 2 || !Number.isInteger(m[0]) || !Number.isInteger(m[1])) {
        throw new Error(`tokenizer: merge ${i} is not a pair of integers`);
      }
      return [m[0], m[1]] as const;
    });
    return new Tokenizer(merges);
  }

  /** Applies merges to one pre-token by lowest rank first (the order they were learned). */
  private encodeChunk(bytes: Uint8Array, start: number, end: number): number[] {
    // latin1 string of the chunk's bytes: a cheap exact key for the cache.
    let key = '';
    for (let i = start; i < end; i++) key += String.fromCharCode(bytes[i]);
    const cached = this.chunkCache.get(key);
    if (cached) return cached;
    let ids: number[] = [];
    for (let i = start; i < end; i++) ids.push(BYTE_OFFSET + bytes[i]);
    while (ids.length > 1) {
      let bestRank = Infinity;
      let bestAt = -1;
      for (let i = 0; i + 1 < ids.length; i++) {
        const r = this.ranks.get(pairKey(ids[i], ids[i + 1]));
        if (r !== undefined && r < bestRank) {
          bestRank = r;
          bestAt = i;
        }
      }
      if (bestAt < 0) break;
      const [a, b] = this.merges[bestRank];
      ids = mergePair(ids, a, b, BASE_VOCAB + bestRank);
    }
    // Bounded cache: programs repeat identifiers a lot, but memory must not grow without limit.
    if (this.chunkCache.size > 50_000) this.chunkCache.clear();
    this.chunkCache.set(key, ids);
    return ids;
  }
}

/**
 * ids with every occurrence of the pair (a, b) replaced by `merged`, scanning left to right: the one
 * merge rule, shared by training and encoding so that both split a run like a a a the same way.
 */
export function mergePair(ids: readonly number[], a: number, b: number, merged: number): number[] {
  const next: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (i + 1 < ids.length && ids[i] === a && ids[i + 1] === b) {
      next.push(merged);
      i++;
    } else next.push(ids[i]);
  }
  return next;
}

export { pairKey as tokenPairKey };

/** Bytes up to the end of the last complete UTF-8 character (all of them when the tail is complete or not a valid start). */
export function completeUtf8Length(bytes: Uint8Array): number {
  const n = bytes.length;
  // The last lead byte within the longest sequence's reach.
  for (let back = 1; back <= Math.min(4, n); back++) {
    const b = bytes[n - back];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b < 0x80 ? 1 : (b & 0xe0) === 0xc0 ? 2 : (b & 0xf0) === 0xe0 ? 3 : (b & 0xf8) === 0xf0 ? 4 : 1;
    return back < need ? n - back : n;
  }
  return n;
}
