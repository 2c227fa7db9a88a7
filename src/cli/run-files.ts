// The experiment runners' run files: written whole or not at all, so that a run stopped while its file
// is written (a killed process, a session's end) leaves no half of one for the next resume to trip on;
// and read back with a message that names a broken one and says what to do.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { InputError } from './cli-input.ts';

/** Writes `text` to a temporary file beside `path`, then renames it over `path` (atomic on one file system). */
export function writeFileWhole(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * The parsed JSON of a run file, or null when there is none; a file that does not parse is an InputError
 * naming it and saying what to do (`remedy`: a runner's is the default, a reader gives its own).
 */
export function readRunJson(path: string, remedy = 'move it aside and the run is done again'): unknown {
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new InputError(`${relative(process.cwd(), path)} is not a readable run file (${(e as Error).message}); ${remedy}`);
  }
}
