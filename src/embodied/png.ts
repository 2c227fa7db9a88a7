// A minimal PNG writer for frames (8-bit RGB, no compression: deflate's stored blocks), so a frame
// can be saved or shown anywhere without a codec. Frames are 48 x 48, about 7 KB each this way.

import { crc32 } from '../model/checkpoint.ts';
import type { Frame } from './renderer.ts';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const STORED_MAX = 65535;

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i++) {
    a = (a + bytes[i]) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function u32be(v: number): number[] {
  return [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
}

/** A zlib stream of stored (uncompressed) deflate blocks. */
function zlibStored(data: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(data.length / STORED_MAX));
  const out = new Uint8Array(2 + blocks * 5 + data.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let o = 2;
  for (let k = 0; k < blocks; k++) {
    const part = data.subarray(k * STORED_MAX, Math.min(data.length, (k + 1) * STORED_MAX));
    out[o++] = k === blocks - 1 ? 1 : 0;
    out[o++] = part.length & 0xff;
    out[o++] = part.length >>> 8;
    out[o++] = ~part.length & 0xff;
    out[o++] = (~part.length >>> 8) & 0xff;
    out.set(part, o);
    o += part.length;
  }
  out.set(u32be(adler32(data)), o);
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const body = new Uint8Array(4 + data.length);
  for (let i = 0; i < 4; i++) body[i] = type.charCodeAt(i);
  body.set(data, 4);
  const out = new Uint8Array(8 + data.length + 4);
  out.set(u32be(data.length), 0);
  out.set(body, 4);
  out.set(u32be(crc32(body)), 8 + data.length);
  return out;
}

/** The frame as PNG file bytes. */
export function encodePng(frame: Frame): Uint8Array {
  const { width, height, rgb } = frame;
  if (rgb.length !== width * height * 3) throw new RangeError(`frame of ${width} x ${height} needs ${width * height * 3} bytes, has ${rgb.length}`);
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (1 + width * 3) + 1);
  const header = new Uint8Array([...u32be(width), ...u32be(height), 8, 2, 0, 0, 0]);
  const parts = [new Uint8Array(SIGNATURE), chunk('IHDR', header), chunk('IDAT', zlibStored(raw)), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** The frame scaled up by an integer factor (nearest neighbour), for looking at. */
export function upscale(frame: Frame, factor: number): Frame {
  if (!Number.isInteger(factor) || factor < 1) throw new RangeError(`scale factor must be a positive integer, got ${factor}`);
  const w = frame.width * factor;
  const h = frame.height * factor;
  const rgb = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const s = ((Math.floor(y / factor) * frame.width) + Math.floor(x / factor)) * 3;
      rgb.set(frame.rgb.subarray(s, s + 3), (y * w + x) * 3);
    }
  }
  return { width: w, height: h, rgb };
}
