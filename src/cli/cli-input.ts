// What the command-line tools share about user input: a problem with what the user gave is one
// line, no stack trace, exit status 2; files are read with a message that names them.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { csvSizeProblem, decodeCsvUpload } from '../tasks/text-files.ts';

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

/** A user's CSV as text: sized before it is read (a 10-million-row file is refused, not read into GBs), then strict UTF-8. */
export function readCsvInput(path: string): string {
  if (!existsSync(path)) throw new InputError(`CSV file not found: ${path}`);
  const tooLarge = csvSizeProblem(path, statSync(path).size);
  if (tooLarge) throw new InputError(tooLarge);
  return decodeCsvUpload(readInputBytes(path, 'CSV file'), path);
}

/** An optional flag that must be a positive integer when given; the CLI's own usage error names the flag. */
export function optionalPositiveInt(v: string | undefined, flag: string, UsageError: new (message: string) => Error): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got ${JSON.stringify(v)}`);
  return n;
}

/** A command-line flag that must be a positive integer (the value as typed; the error names the flag). */
export function positiveIntFlag(name: string, v: string | undefined): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, got ${v}`);
  return n;
}
