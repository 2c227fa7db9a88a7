// Checkpoint: weights + config + tokenizer in ONE ArrayBuffer.
//
//   bytes 0..7    magic "WMRLCKPT" (ASCII)
//   bytes 8..11   format version, uint32 little-endian (CHECKPOINT_VERSION)
//   bytes 12..15  header length H in bytes, uint32 little-endian (a multiple of 4)
//   bytes 16..    header: UTF-8 JSON (CheckpointHeader), padded with spaces to H bytes
//   then          weights: float32 little-endian, header.params.length values, in the parameter
//                 layout's order (src/model/parameter-layout.ts), and nothing after them.
//
// The padding makes the weights start 4-byte aligned so a Float32Array can view them in place.
// header.params.crc32 (CRC-32 of the weight bytes) catches a corrupted file that has the right length.

import type { ModelConfig } from './config.ts';
import { validateConfig } from './config.ts';
import type { Model } from './init.ts';
import { buildLayout } from './parameter-layout.ts';
import type { TokenizerJSON } from './tokenizer.ts';
import { Tokenizer } from './tokenizer.ts';

export const CHECKPOINT_MAGIC = 'WMRLCKPT';
export const CHECKPOINT_VERSION = 1;
const PREFIX_BYTES = 16;

export interface CheckpointHeader {
  config: ModelConfig;
  tokenizer: TokenizerJSON | null;
  params: { dtype: 'float32'; length: number; numParameters: number; crc32: number };
  /** Free-form provenance (training config, step, data hash...). */
  meta: Record<string, unknown>;
}

export interface Checkpoint {
  model: Model;
  tokenizer: Tokenizer | null;
  meta: Record<string, unknown>;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE, as in zip and PNG). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function float32ToLittleEndianBytes(values: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength).slice();
  const out = new Uint8Array(values.length * 4);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) dv.setFloat32(i * 4, values[i], true);
  return out;
}

function littleEndianBytesToFloat32(bytes: Uint8Array): Float32Array {
  // Uint8Array's slice copies; a Node Buffer's slice is a view into a shared pool, so never call it on one.
  if (LITTLE_ENDIAN) return new Float32Array(Uint8Array.prototype.slice.call(bytes).buffer);
  const out = new Float32Array(bytes.length / 4);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = dv.getFloat32(i * 4, true);
  return out;
}

export function saveCheckpoint(model: Model, tokenizer: Tokenizer | null = null, meta: Record<string, unknown> = {}): ArrayBuffer {
  const { config, layout, params } = model;
  if (params.length !== layout.totalLength) throw new Error(`saveCheckpoint: ${params.length} weights, layout expects ${layout.totalLength}`);
  if (tokenizer && tokenizer.vocabSize !== config.vocabSize) {
    throw new Error(`saveCheckpoint: tokenizer vocabulary ${tokenizer.vocabSize} differs from the model's ${config.vocabSize}`);
  }
  const weightBytes = float32ToLittleEndianBytes(params);
  const header: CheckpointHeader = {
    config,
    tokenizer: tokenizer ? tokenizer.toJSON() : null,
    params: { dtype: 'float32', length: params.length, numParameters: layout.numParameters, crc32: crc32(weightBytes) },
    meta,
  };
  let json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil(json.length / 4) * 4;
  if (padded !== json.length) {
    const p = new Uint8Array(padded).fill(0x20);
    p.set(json);
    json = p;
  }
  const out = new Uint8Array(PREFIX_BYTES + json.length + weightBytes.length);
  for (let i = 0; i < 8; i++) out[i] = CHECKPOINT_MAGIC.charCodeAt(i);
  const dv = new DataView(out.buffer);
  dv.setUint32(8, CHECKPOINT_VERSION, true);
  dv.setUint32(12, json.length, true);
  out.set(json, PREFIX_BYTES);
  out.set(weightBytes, PREFIX_BYTES + json.length);
  return out.buffer;
}

export function loadCheckpoint(data: ArrayBuffer | Uint8Array): Checkpoint {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (bytes.length < PREFIX_BYTES) throw new Error(`checkpoint: truncated (${bytes.length} bytes, the fixed prefix alone is ${PREFIX_BYTES})`);
  let magic = '';
  for (let i = 0; i < 8; i++) magic += String.fromCharCode(bytes[i]);
  if (magic !== CHECKPOINT_MAGIC) throw new Error('checkpoint: not a WMRL checkpoint (bad magic bytes)');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== CHECKPOINT_VERSION) {
    throw new Error(`checkpoint: format version ${version} is not supported (this build reads version ${CHECKPOINT_VERSION})`);
  }
  const headerLength = dv.getUint32(12, true);
  if (PREFIX_BYTES + headerLength > bytes.length) {
    throw new Error(`checkpoint: truncated (header of ${headerLength} bytes does not fit in ${bytes.length} bytes)`);
  }
  let header: CheckpointHeader;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + headerLength))) as CheckpointHeader;
  } catch (e) {
    throw new Error(`checkpoint: header is not valid JSON (${(e as Error).message})`);
  }
  if (typeof header !== 'object' || header === null || typeof header.params !== 'object' || header.params === null) {
    throw new Error('checkpoint: header lacks the params section');
  }
  validateConfig(header.config);
  const layout = buildLayout(header.config);
  const { dtype, length, crc32: expectedCrc } = header.params;
  if (dtype !== 'float32') throw new Error(`checkpoint: weight dtype ${String(dtype)} is not supported`);
  if (length !== layout.totalLength) {
    throw new Error(`checkpoint: ${String(length)} weights in the header, but the configuration's layout needs ${layout.totalLength}`);
  }
  const start = PREFIX_BYTES + headerLength;
  const expectedEnd = start + length * 4;
  if (bytes.length < expectedEnd) {
    throw new Error(`checkpoint: truncated (${bytes.length} bytes, expected ${expectedEnd}: ${expectedEnd - bytes.length} bytes of weights missing)`);
  }
  if (bytes.length > expectedEnd) throw new Error(`checkpoint: ${bytes.length - expectedEnd} unexpected bytes after the weights`);
  const weightBytes = bytes.subarray(start, expectedEnd);
  const actualCrc = crc32(weightBytes);
  if (actualCrc !== expectedCrc) throw new Error(`checkpoint: weights are corrupted (CRC-32 ${actualCrc} != ${String(expectedCrc)})`);
  const tokenizer = header.tokenizer ? Tokenizer.fromJSON(header.tokenizer) : null;
  if (tokenizer && tokenizer.vocabSize !== header.config.vocabSize) {
    throw new Error(`checkpoint: tokenizer vocabulary ${tokenizer.vocabSize} differs from the model's ${header.config.vocabSize}`);
  }
  return {
    model: { config: header.config, layout, params: littleEndianBytesToFloat32(weightBytes) },
    tokenizer,
    meta: header.meta ?? {},
  };
}
