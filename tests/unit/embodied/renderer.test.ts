// Golden frames: a few scenes are drawn and compared pixel by pixel with PNGs committed beside this
// test (decoded here with node:zlib, independently of the project's encoder). To accept a deliberate
// change of the look, run with UPDATE_GOLDEN=1, then look at the PNGs before committing them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { initialScene } from '../../../src/embodied/layout.ts';
import { encodePng, upscale } from '../../../src/embodied/png.ts';
import { CELL_PX, FRAME_SIZE, PALETTE, renderScene, type Frame } from '../../../src/embodied/renderer.ts';
import { demonstrate } from '../../../src/embodied/rollout.ts';
import type { SceneState } from '../../../src/embodied/scene.ts';
import { taskById } from '../../../src/embodied/tasks.ts';

const GOLDEN = join(import.meta.dirname, 'golden');

/** Decodes the 8-bit RGB, filter-0 PNGs this project writes. */
function decodePng(bytes: Uint8Array): Frame {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  while (o < bytes.length) {
    const len = dv.getUint32(o);
    const type = String.fromCharCode(...bytes.subarray(o + 4, o + 8));
    const data = bytes.subarray(o + 8, o + 8 + len);
    if (type === 'IHDR') {
      width = dv.getUint32(o + 8);
      height = dv.getUint32(o + 12);
      expect([...data.subarray(8, 13)]).toEqual([8, 2, 0, 0, 0]);
    }
    if (type === 'IDAT') idat.push(data);
    o += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (1 + width * 3)]).toBe(0);
    rgb.set(raw.subarray(y * (1 + width * 3) + 1, (y + 1) * (1 + width * 3)), y * width * 3);
  }
  return { width, height, rgb };
}

function pixel(f: Frame, x: number, y: number): number[] {
  const o = (y * f.width + x) * 3;
  return [f.rgb[o], f.rgb[o + 1], f.rgb[o + 2]];
}

/** Scenes worth pinning: a start, a block in the gripper over the stove switched on, a finished task. */
function goldenScenes(): Record<string, SceneState> {
  const stove = taskById('stove-then-block:red');
  const e = demonstrate(stove, initialScene(stove, 'train', 0), 0, 1);
  const carrying = e.states.findIndex((s) => s.held !== null && s.stoveOn && s.gripper.x === s.places.stove.x && s.gripper.y === s.places.stove.y);
  const drawer = taskById('bowl-then-drawer:blue');
  const d = demonstrate(drawer, initialScene(drawer, 'heldout', 3), 0, 1);
  return {
    'stove-start': e.states[0],
    'stove-carrying': e.states[carrying],
    'stove-done': e.states[e.states.length - 1],
    'drawer-start': d.states[0],
    'drawer-done': d.states[d.states.length - 1],
  };
}

describe('renderer', () => {
  const scenes = goldenScenes();

  it('draws each golden scene exactly as committed', () => {
    if (process.env.UPDATE_GOLDEN) {
      mkdirSync(GOLDEN, { recursive: true });
      for (const [name, s] of Object.entries(scenes)) writeFileSync(join(GOLDEN, `${name}.png`), encodePng(renderScene(s)));
    }
    for (const [name, s] of Object.entries(scenes)) {
      const want = decodePng(readFileSync(join(GOLDEN, `${name}.png`)));
      const got = renderScene(s);
      expect([got.width, got.height]).toEqual([want.width, want.height]);
      let differing = 0;
      for (let i = 0; i < got.rgb.length; i += 3) if (got.rgb[i] !== want.rgb[i] || got.rgb[i + 1] !== want.rgb[i + 1] || got.rgb[i + 2] !== want.rgb[i + 2]) differing++;
      expect(differing, `${name}: pixels that differ from the golden frame`).toBe(0);
    }
  });

  it('shows what the golden scenes hold where the scene says', () => {
    const s = scenes['stove-carrying'];
    const f = renderScene(s);
    expect([f.width, f.height]).toEqual([FRAME_SIZE, FRAME_SIZE]);
    const [x, y] = [s.places.stove.x * CELL_PX, s.places.stove.y * CELL_PX];
    expect(pixel(f, x + 1, y)).toEqual([...PALETTE.stoveOn]); // ring of a lit stove
    expect(pixel(f, x + 1, y + 1)).toEqual([...PALETTE.block.red]); // the carried block
    expect(pixel(f, x, y)).toEqual([...PALETTE.gripperHolding]); // a closed gripper's corner
    const start = renderScene(scenes['stove-start']);
    const st = scenes['stove-start'].places.stove;
    expect(pixel(start, st.x * CELL_PX + 1, st.y * CELL_PX)).toEqual([...PALETTE.place.stove]);
    const done = scenes['drawer-done'];
    const fd = renderScene(done);
    expect(done.drawer.open).toBe(0);
    expect(pixel(fd, CELL_PX - 1, done.drawer.row * CELL_PX + 1)).toEqual([...PALETTE.handle]);
    expect(pixel(fd, CELL_PX, done.drawer.row * CELL_PX + 1)).not.toEqual([...PALETTE.drawer]);
  });

  it('is a pure function of the scene, and every distinct golden scene looks distinct', () => {
    const frames = Object.values(scenes).map((s) => Buffer.from(renderScene(s).rgb).toString('base64'));
    expect(Object.values(scenes).map((s) => Buffer.from(renderScene(s).rgb).toString('base64'))).toEqual(frames);
    expect(new Set(frames).size).toBe(frames.length);
  });

  it('encodes PNGs that a standard inflater reads back to the same pixels, at any scale', () => {
    const f = renderScene(scenes['drawer-start']);
    expect(decodePng(encodePng(f)).rgb).toEqual(f.rgb);
    const big = upscale(f, 5);
    const back = decodePng(encodePng(big));
    expect([back.width, back.height]).toEqual([FRAME_SIZE * 5, FRAME_SIZE * 5]);
    expect(pixel(back, 7 * 5 + 3, 9 * 5 + 2)).toEqual(pixel(f, 7, 9));
    expect(() => encodePng({ width: 2, height: 2, rgb: new Uint8Array(5) })).toThrow(/needs 12 bytes/);
  });
});
