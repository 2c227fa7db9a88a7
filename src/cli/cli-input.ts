// What the command-line tools share about user input: a problem with what the user gave is one
// line, no stack trace, exit status 2; files are read with a message that names them.
import { existsSync, readFileSync } from 'node:fs';

export class InputError extends Error {}

export function readInputBytes(path: string, what: string): Buffer {
  if (!existsSync(path)) throw new InputError(`${what} not found: ${path}`);
  try {
    return readFileSync(path);
  } catch (e) {
    throw new InputError(`${what} could not be read: ${path} (${(e as Error).message})`);
  }
}

export function readInput(path: string, what: string): string {
  return readInputBytes(path, what).toString('utf8');
}
