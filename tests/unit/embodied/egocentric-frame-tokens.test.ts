import { describe, expect, it } from 'vitest';
import { EgocentricFrameTokens, gripperCell } from '../../../src/embodied/egocentric-frame-tokens.ts';
import { FrameTokenizer } from '../../../src/embodied/frame-tokens.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { CELL_PX, PALETTE, renderScene } from '../../../src/embodied/renderer.ts';
import { demonstrate } from '../../../src/embodied/rollout.ts';
import { GRID, PLACES, type SceneState } from '../../../src/embodied/scene.ts';
import { ALL_TASKS, taskById } from '../../../src/embodied/tasks.ts';

const task = taskById('bowl-then-drawer:red');
const episode = demonstrate(task, initialScene(task, 'train', 2), 0.3, 5);
const base = FrameTokenizer.build(ALL_TASKS.map((t) => t.instruction), episode.states.map(renderScene));
const plain = new EgocentricFrameTokens(base);
const sided = new EgocentricFrameTokens(base, true);
const paired = new EgocentricFrameTokens(base, true, 'patch');
const centred = new EgocentricFrameTokens(base, true, 'centre');

/** The cells an egocentric encoding lists, back in absolute coordinates. */
function cells(enc: EgocentricFrameTokens, tokens: number[], frameStart: number): { x: number; y: number; patch: number }[] {
  const gx = tokens[frameStart] - enc.columnToken(0);
  const gy = tokens[frameStart + 1] - enc.rowToken(0);
  const out = [{ x: gx, y: gy, patch: tokens[frameStart + 2] }];
  for (let i = frameStart + 3; i < tokens.length; i += 3) out.push({ x: gx + tokens[i] - enc.dxToken(0), y: gy + tokens[i + 1] - enc.dyToken(0), patch: tokens[i + 2] });
  return out;
}

describe('egocentric frame tokens', () => {
  it('find the gripper from the pixels, open or holding a block', () => {
    expect(episode.states.some((s) => s.held !== null)).toBe(true);
    for (const s of episode.states) expect(gripperCell(renderScene(s))).toEqual(s.gripper);
  });

  it('list the gripper first, then every cell that is not bare, as offsets from the gripper', () => {
    for (const s of episode.states.filter((_, i) => i % 5 === 0)) {
      const frame = renderScene(s);
      const { tokens, frameStart } = plain.encode(task.instruction, frame);
      expect(tokens.slice(0, frameStart)).toEqual(base.encode(task.instruction, frame).tokens.slice(0, frameStart));
      const listed = cells(plain, tokens, frameStart);
      expect(listed[0]).toMatchObject(s.gripper);
      const key = (c: { x: number; y: number }) => `${c.x},${c.y}`;
      const expected = new Set([
        ...PLACES.map((p) => key(s.places[p])),
        ...s.blocks.map(key),
        key(s.gripper),
        ...Array.from({ length: s.drawer.open + 1 }, (_, x) => key({ x, y: s.drawer.row })),
      ]);
      expect(listed.length).toBe(expected.size);
      expect(new Set(listed.map(key))).toEqual(expected);
      const dense = base.encodeFrame(frame);
      for (const c of listed) expect(c.patch).toBe(dense[c.y * GRID + c.x]);
      expect(Math.max(...tokens)).toBeLessThan(plain.vocabSize);
    }
  });

  it('with octants, give each patch one token per side of the gripper, and nothing else changes', () => {
    for (const s of episode.states.filter((_, i) => i % 7 === 0)) {
      const frame = renderScene(s);
      const a = plain.encode(task.instruction, frame);
      const b = sided.encode(task.instruction, frame);
      expect(b.frameStart).toBe(a.frameStart);
      expect(b.tokens.length).toBe(a.tokens.length);
      for (let i = 0; i < a.tokens.length; i++) {
        const otherCellsPatch = i > a.frameStart + 2 && (i - a.frameStart) % 3 === 2;
        if (!otherCellsPatch) expect(b.tokens[i]).toBe(a.tokens[i]);
        else expect(b.tokens[i]).toBe(sided.sidedPatch(a.tokens[i], a.tokens[i - 2] - plain.dxToken(0), a.tokens[i - 1] - plain.dyToken(0)));
      }
      expect(Math.max(...b.tokens)).toBeLessThan(sided.vocabSize);
    }
    // One patch on the nine sides: nine different tokens, none of them a plain one; only the signs count.
    const p = base.encodeFrame(renderScene(episode.states[0]))[0];
    const sides = [-1, 0, 1].flatMap((dx) => [-1, 0, 1].map((dy) => sided.sidedPatch(p, dx * 3, dy * 2)));
    expect(new Set(sides).size).toBe(9);
    for (const t of sides) expect(t).toBeGreaterThanOrEqual(plain.vocabSize);
    expect(sided.sidedPatch(p, 5, -1)).toBe(sided.sidedPatch(p, 1, -7));
    expect(sided.sidedPatch(p, 5, -1)).not.toBe(sided.sidedPatch(p + 1, 5, -1));
    expect(plain.sidedPatch(p, 5, -1)).toBe(p);
  });

  it('with the patch lead, put the plain patch token of each cell before its sided one, and nothing else changes', () => {
    for (const s of episode.states.filter((_, i) => i % 7 === 0)) {
      const frame = renderScene(s);
      const a = sided.encode(task.instruction, frame);
      const b = paired.encode(task.instruction, frame);
      const cellsListed = (a.tokens.length - a.frameStart - 3) / 3;
      expect(b.tokens.slice(0, a.frameStart + 3)).toEqual(a.tokens.slice(0, a.frameStart + 3));
      expect(b.tokens.length).toBe(a.tokens.length + cellsListed);
      const plainTokens = plain.encode(task.instruction, frame).tokens;
      for (let c = 0; c < cellsListed; c++) {
        const [dx, dy, sidedPatch] = a.tokens.slice(a.frameStart + 3 + 3 * c, a.frameStart + 6 + 3 * c);
        expect(b.tokens.slice(b.frameStart + 3 + 4 * c, b.frameStart + 7 + 4 * c)).toEqual([dx, dy, plainTokens[a.frameStart + 5 + 3 * c], sidedPatch]);
      }
      expect(Math.max(...b.tokens)).toBeLessThan(paired.vocabSize);
    }
    expect(paired.vocabSize).toBe(sided.vocabSize);
    expect(() => new EgocentricFrameTokens(base, false, 'patch')).toThrow(/a cell lead needs octants/);
    expect(() => new EgocentricFrameTokens(base, true, 'colour' as never)).toThrow(/unknown cell lead "colour"/);
  });

  it('with the centre lead, put one token per centre colour before each sided token: a block is the same token wherever it is', () => {
    const states = episode.states;
    const seen = new Map<string, Set<number>>();
    for (const s of states) {
      const frame = renderScene(s);
      const a = sided.encode(task.instruction, frame);
      const b = centred.encode(task.instruction, frame);
      const cellsListed = (a.tokens.length - a.frameStart - 3) / 3;
      expect(b.tokens.length).toBe(a.tokens.length + cellsListed);
      expect(b.tokens.slice(0, a.frameStart + 3)).toEqual(a.tokens.slice(0, a.frameStart + 3));
      const gx = a.tokens[a.frameStart] - sided.columnToken(0);
      const gy = a.tokens[a.frameStart + 1] - sided.rowToken(0);
      for (let c = 0; c < cellsListed; c++) {
        const [dx, dy, lead, sidedPatch] = b.tokens.slice(b.frameStart + 3 + 4 * c, b.frameStart + 7 + 4 * c);
        expect([dx, dy, sidedPatch]).toEqual(a.tokens.slice(a.frameStart + 3 + 3 * c, a.frameStart + 6 + 3 * c));
        expect(lead).toBeGreaterThanOrEqual(sided.vocabSize);
        expect(lead).toBeLessThan(centred.vocabSize);
        const cell = { x: gx + dx - sided.dxToken(0), y: gy + dy - sided.dyToken(0) };
        const block = s.blocks.find((k) => k.x === cell.x && k.y === cell.y);
        if (block) (seen.get(block.color) ?? seen.set(block.color, new Set()).get(block.color)!).add(lead);
      }
    }
    // Each block colour is one lead token in every cell it was seen in (table, bowl, held), and colours differ.
    expect(seen.size).toBeGreaterThanOrEqual(3);
    for (const leads of seen.values()) expect(leads.size).toBe(1);
    expect(new Set([...seen.values()].map((l) => [...l][0])).size).toBe(seen.size);
    expect(centred.vocabSize).toBe(sided.vocabSize + 15);
  });

  it('refuse a frame without exactly one gripper, with a message that says so', () => {
    const frame = renderScene(episode.states[0]);
    const s0: SceneState = episode.states[0];
    // Paint the gripper's corners over with the table's colour: no gripper; copy them to a second cell: two.
    const corners = (c: { x: number; y: number }) => [[0, 0], [CELL_PX - 1, 0], [0, CELL_PX - 1], [CELL_PX - 1, CELL_PX - 1]].map(([dx, dy]) => ((c.y * CELL_PX + dy) * frame.width + c.x * CELL_PX + dx) * 3);
    const none = { ...frame, rgb: frame.rgb.slice() };
    for (const o of corners(s0.gripper)) none.rgb.set(PALETTE.table, o);
    expect(() => plain.encode(task.instruction, none)).toThrow(/exactly one gripper, found 0/);
    const two = { ...frame, rgb: frame.rgb.slice() };
    const other = { x: s0.gripper.x === 5 ? 6 : 5, y: s0.gripper.y };
    for (const o of corners(other)) two.rgb.set(PALETTE.gripperOpen, o);
    expect(() => plain.encode(task.instruction, two)).toThrow(/exactly one gripper, found 2/);
  });
});
