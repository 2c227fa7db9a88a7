import { describe, expect, it } from 'vitest';
import { FrameTokenizer, PATCHES_PER_FRAME } from '../../../src/embodied/frame-tokens.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { renderScene } from '../../../src/embodied/renderer.ts';
import { demonstrate } from '../../../src/embodied/rollout.ts';
import { SparseFrameTokens } from '../../../src/embodied/sparse-frame-tokens.ts';
import { GRID, PLACES } from '../../../src/embodied/scene.ts';
import { ALL_TASKS, taskById } from '../../../src/embodied/tasks.ts';

const task = taskById('stove-then-block:red');
const episode = demonstrate(task, initialScene(task, 'train', 0), 0, 1);
const base = FrameTokenizer.build(ALL_TASKS.map((t) => t.instruction), episode.states.map(renderScene));
const sparse = new SparseFrameTokens(base);

/** The (column, row) pairs a sparse encoding lists. */
function cells(tokens: number[], frameStart: number): { x: number; y: number; patch: number }[] {
  const out = [];
  for (let i = frameStart; i < tokens.length; i += 3) out.push({ x: tokens[i] - base.vocabSize, y: tokens[i + 1] - base.vocabSize - GRID, patch: tokens[i + 2] });
  return out;
}

describe('sparse frame tokens', () => {
  it('list exactly the cells that are not bare table or cabinet, with their coordinates and patch tokens', () => {
    const s = episode.states[0];
    const { tokens, frameStart } = sparse.encode(task.instruction, renderScene(s));
    expect(tokens.slice(0, frameStart)).toEqual(base.encode(task.instruction, renderScene(s)).tokens.slice(0, frameStart));
    expect((tokens.length - frameStart) % 3).toBe(0);
    const listed = cells(tokens, frameStart);
    const key = (c: { x: number; y: number }) => `${c.x},${c.y}`;
    const expected = new Set([
      ...PLACES.map((p) => key(s.places[p])),
      ...s.blocks.map(key),
      key(s.gripper),
      // the drawer: its body and the cabinet cell it slides out of
      ...Array.from({ length: s.drawer.open + 1 }, (_, x) => key({ x, y: s.drawer.row })),
    ]);
    expect(new Set(listed.map(key))).toEqual(expected);
    // Row by row, and each patch token is the dense encoding's token of that cell.
    const dense = base.encodeFrame(renderScene(s));
    for (const c of listed) expect(c.patch).toBe(dense[c.y * GRID + c.x]);
    const order = listed.map((c) => c.y * GRID + c.x);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(tokens.length - frameStart).toBeLessThan(PATCHES_PER_FRAME / 4);
    expect(Math.max(...tokens)).toBeLessThan(sparse.vocabSize);
  });

  it('move a coordinate token, and only that, when the gripper moves over bare table', () => {
    const i = episode.actions.findIndex((a, k) => a === 'up' && !episode.states[k + 1].blocks.some((b) => b.x === episode.states[k + 1].gripper.x && b.y === episode.states[k + 1].gripper.y));
    const a = sparse.encode(task.instruction, renderScene(episode.states[i]));
    const b = sparse.encode(task.instruction, renderScene(episode.states[i + 1]));
    expect(b.tokens.length).toBe(a.tokens.length);
    const g0 = episode.states[i].gripper;
    const g1 = episode.states[i + 1].gripper;
    expect(cells(a.tokens, a.frameStart).some((c) => c.x === g0.x && c.y === g0.y)).toBe(true);
    expect(cells(b.tokens, b.frameStart).some((c) => c.x === g1.x && c.y === g1.y)).toBe(true);
    expect(cells(b.tokens, b.frameStart).some((c) => c.x === g0.x && c.y === g0.y)).toBe(false);
  });
});
