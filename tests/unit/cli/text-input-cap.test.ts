// Program, batch and leaderboard files given to the command-line tools are capped like CSVs: a file
// over the limit is refused by its size without being read, and a device that never ends (/dev/zero,
// as a pipe would be) is refused once it has given more than the limit, instead of filling memory.
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, MAX_TEXT_INPUT_BYTES, readInput } from '../../../src/cli/cli-input.ts';

const dir = mkdtempSync(join(tmpdir(), 'wmrl-text-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readInput', () => {
  it('reads a small program file whole', () => {
    const p = join(dir, 'p.py');
    writeFileSync(p, 'print(1)\n');
    expect(readInput(p, 'program file')).toBe('print(1)\n');
  });

  it('refuses a file over the limit by its size (sparse 1 GiB: nothing is read)', () => {
    const p = join(dir, 'huge.py');
    const fd = openSync(p, 'w');
    ftruncateSync(fd, 1 << 30);
    closeSync(fd);
    expect(() => readInput(p, 'program file')).toThrow(InputError);
    expect(() => readInput(p, 'program file')).toThrow(`program file is too large: 1073741824 bytes, limit 64 MiB: ${p}`);
  });

  it('refuses an endless device once it passes the limit', () => {
    expect(() => readInput('/dev/zero', 'batch file')).toThrow(
      `batch file is too large: more than ${MAX_TEXT_INPUT_BYTES} bytes (a pipe or device, read until it passed the limit), limit 64 MiB: /dev/zero`);
  });
});
