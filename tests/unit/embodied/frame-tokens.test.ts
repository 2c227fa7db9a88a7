import { describe, expect, it } from 'vitest';
import { FrameTokenizer, PATCHES_PER_FRAME, UNKNOWN_PATCH, actionOfToken, actionToken, instructionWords } from '../../../src/embodied/frame-tokens.ts';
import { ACTIONS } from '../../../src/embodied/kinematics.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { progressEpisodes } from '../../../src/embodied/progress-data.ts';
import { renderScene } from '../../../src/embodied/renderer.ts';
import { demonstrate } from '../../../src/embodied/rollout.ts';
import { GRID } from '../../../src/embodied/scene.ts';
import { ALL_TASKS, TRAIN_TASKS, taskById } from '../../../src/embodied/tasks.ts';
import { SPECIAL_TOKENS } from '../../../src/model/tokenizer.ts';

const task = taskById('bowl-then-drawer:red');
const episode = demonstrate(task, initialScene(task, 'train', 0), 0, 1);
const frames = episode.states.map(renderScene);
const tokenizer = FrameTokenizer.build(ALL_TASKS.map((t) => t.instruction), frames);

describe('frame tokens', () => {
  it('frame an instruction and a frame as [bos] words [sep] 144 patches', () => {
    expect(instructionWords('Put the red block in the bowl, then close the drawer')).toEqual(['put', 'the', 'red', 'block', 'in', 'the', 'bowl', 'then', 'close', 'the', 'drawer']);
    const { tokens, frameStart } = tokenizer.encode(task.instruction, frames[0]);
    expect(tokens[0]).toBe(SPECIAL_TOKENS.bos);
    expect(tokens[frameStart - 1]).toBe(SPECIAL_TOKENS.sep);
    expect(tokens.length - frameStart).toBe(PATCHES_PER_FRAME);
    expect(Math.max(...tokens)).toBeLessThan(tokenizer.vocabSize);
    expect(tokens.slice(frameStart)).not.toContain(UNKNOWN_PATCH);
  });

  it('have one token per action, apart from specials, words and patches', () => {
    const ids = ACTIONS.map(actionToken);
    expect(new Set(ids).size).toBe(ACTIONS.length);
    ids.forEach((id, i) => expect(actionOfToken(id)).toBe(ACTIONS[i]));
    expect(actionOfToken(UNKNOWN_PATCH)).toBeNull();
    expect(actionOfToken(SPECIAL_TOKENS.eos)).toBeNull();
    const { tokens } = tokenizer.encode(task.instruction, frames[3]);
    for (const id of ids) expect(tokens).not.toContain(id);
    expect(Math.min(...tokens.filter((t) => t > SPECIAL_TOKENS.eos))).toBeGreaterThan(Math.max(...ids));
  });

  it('give a cell a new token exactly where the scene changed', () => {
    const a = tokenizer.encodeFrame(frames[0]);
    const b = tokenizer.encodeFrame(frames[1]);
    const changed = a.map((t, i) => (t === b[i] ? -1 : i)).filter((i) => i >= 0);
    const [s0, s1] = [episode.states[0], episode.states[1]];
    expect(changed.sort((x, y) => x - y)).toEqual([s0.gripper.y * GRID + s0.gripper.x, s1.gripper.y * GRID + s1.gripper.x].sort((x, y) => x - y));
  });

  it('is a pure function of what it was built on, and survives JSON', () => {
    const again = FrameTokenizer.build([...ALL_TASKS.map((t) => t.instruction)].reverse(), [...frames].reverse());
    expect(again.toJSON()).toEqual(tokenizer.toJSON());
    const back = FrameTokenizer.fromJSON(JSON.parse(JSON.stringify(tokenizer)));
    expect(back.encode(task.instruction, frames[5])).toEqual(tokenizer.encode(task.instruction, frames[5]));
  });

  it('reads a patch it never saw as the unknown token, and refuses bad input with a message', () => {
    const narrow = FrameTokenizer.build([task.instruction], [frames[0]]);
    const other = taskById('stove-then-block:blue');
    const e = demonstrate(other, initialScene(other, 'train', 0), 0, 1);
    expect(narrow.encodeFrame(renderScene(e.states[e.states.length - 1]))).toContain(UNKNOWN_PATCH);
    expect(() => narrow.encode(other.instruction, frames[0])).toThrow(/word "turn" is not in/);
    expect(() => tokenizer.encodeFrame({ width: 2, height: 2, rgb: new Uint8Array(12) })).toThrow(/48 x 48 RGB frame, got 2 x 2/);
    expect(() => FrameTokenizer.fromJSON({ format: 'x' })).toThrow(/not a robot frame tokenizer/);
    expect(() => FrameTokenizer.fromJSON({ ...tokenizer.toJSON(), patches: ['zz'] })).toThrow(/96 hex/);
  });
});

describe('progress episodes', () => {
  it('are seeded, carry 8 frames with labels in [0, 1], and high noise brings failures', () => {
    const eps = progressEpisodes(TRAIN_TASKS.slice(0, 3), 'train', 2, [0, 0.9]);
    expect(eps.length).toBe(3 * 2 * 2);
    for (const e of eps) {
      expect(e.frames.length).toBe(8);
      expect(e.labels.every((y) => y >= 0 && y <= 1)).toBe(true);
      if (e.noise === 0) expect(e.labels[7]).toBe(1);
    }
    expect(eps.filter((e) => e.noise === 0).every((e) => e.episode.success)).toBe(true);
    expect(eps.some((e) => !e.episode.success)).toBe(true);
    const again = progressEpisodes(TRAIN_TASKS.slice(0, 3), 'train', 2, [0, 0.9]);
    expect(again.map((e) => e.episode.actions.join())).toEqual(eps.map((e) => e.episode.actions.join()));
  });
});
