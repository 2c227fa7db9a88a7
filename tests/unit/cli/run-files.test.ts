// Run files are written whole or not at all, and a broken one is named with what to do.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/cli/cli-input.ts';
import { readRunJson, writeFileWhole } from '../../../src/cli/run-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'wmrl-run-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('run files', () => {
  it('replaces a file whole and leaves no temporary file beside it', () => {
    const f = join(dir, 'a.json');
    writeFileSync(f, '{"old":true}\n');
    writeFileWhole(f, '{"new":true}\n');
    expect(readFileSync(f, 'utf8')).toBe('{"new":true}\n');
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('a failed write leaves the old file as it was', () => {
    const f = join(dir, 'b.json');
    writeFileSync(f, '{"kept":1}\n');
    // the temporary file's place is a folder: the write fails before anything replaces b.json
    const blocker = `${f}.${process.pid}.tmp`;
    mkdirSync(blocker);
    expect(() => writeFileWhole(f, 'half')).toThrow();
    expect(readFileSync(f, 'utf8')).toBe('{"kept":1}\n');
    rmSync(blocker, { recursive: true, force: true });
  });

  it('reads none as null, and names a file cut off mid-write', () => {
    expect(readRunJson(join(dir, 'none.json'))).toBeNull();
    const f = join(dir, 'cut.json');
    writeFileSync(f, '{"format":"wmrl-run","records":[{"step":0');
    expect(() => readRunJson(f)).toThrow(InputError);
    expect(() => readRunJson(f)).toThrow(/cut\.json is not a readable run file \(.*\); move it aside and the run is done again/);
    expect(existsSync(f)).toBe(true);
  });
});
