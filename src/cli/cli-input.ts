// What the command-line tools share about user input: a problem with what the user gave is one
// line, no stack trace, exit status 2; files are read with a message that names them.
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { csvTooLarge, decodeCsvUpload, MAX_CSV_BYTES } from '../tasks/text-files.ts';

export class InputError extends Error {}

/** A size limit on an input file, and its refusal: `size` bytes, or more than the limit when not `whole` (a pipe read until it passed). */
export interface InputCap {
  limit: number;
  tooLarge: (size: number, whole: boolean) => string;
}

/** Bytes a pipe or device is first read into; the buffer doubles as it fills, up to the limit. */
const FIRST_READ_BYTES = 64 * 1024;

/**
 * A file that stat cannot size (a pipe, /dev/stdin, a character device: stat says 0), read until its
 * end or until it has given one byte more than the limit, which is refused there: a 1 GB pipe costs
 * about the limit in memory and is not drained.
 */
function readUnsized(path: string, cap: InputCap): Buffer {
  const fd = openSync(path, 'r');
  try {
    let buf = Buffer.allocUnsafe(Math.min(FIRST_READ_BYTES, cap.limit + 1));
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        if (total > cap.limit) throw new InputError(cap.tooLarge(total, false));
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, cap.limit + 1));
        buf.copy(bigger, 0, 0, total);
        buf = bigger;
      }
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) return buf.subarray(0, total);
      total += n;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * A file's bytes. With a cap, a regular file is sized by stat before it is read, and a pipe or device
 * is read in steps and refused as soon as it passes the limit (readUnsized).
 */
export function readInputBytes(path: string, what: string, cap?: InputCap): Buffer {
  if (!existsSync(path)) throw new InputError(`${what} not found: ${path}`);
  try {
    if (!cap) return readFileSync(path);
    const stat = statSync(path);
    if (!stat.isFile()) return readUnsized(path, cap);
    if (stat.size > cap.limit) throw new InputError(cap.tooLarge(stat.size, true));
    return readFileSync(path);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${what} could not be read: ${path} (${(e as Error).message})`);
  }
}

/** Largest program, batch or leaderboard file the tools read: far above any real one, and it bounds memory for a pipe or device. */
export const MAX_TEXT_INPUT_BYTES = 64 * 1024 * 1024;

/** A program, batch or leaderboard file as text, refused past MAX_TEXT_INPUT_BYTES (a pipe or /dev/zero included) before it is read whole. */
export function readInput(path: string, what: string): string {
  const cap: InputCap = {
    limit: MAX_TEXT_INPUT_BYTES,
    tooLarge: (size, whole) => `${what} is too large: ${whole ? `${size} bytes` : `more than ${MAX_TEXT_INPUT_BYTES} bytes (a pipe or device, read until it passed the limit)`}, limit ${MAX_TEXT_INPUT_BYTES / 1024 / 1024} MiB: ${path}`,
  };
  return readInputBytes(path, what, cap).toString('utf8');
}

/** A user's CSV as text: refused past MAX_CSV_BYTES before it is read whole (a 10-million-row file or pipe is not read into GBs), then strict UTF-8. */
export function readCsvInput(path: string): string {
  const cap: InputCap = { limit: MAX_CSV_BYTES, tooLarge: (size, whole) => csvTooLarge(path, size, whole) };
  return decodeCsvUpload(readInputBytes(path, 'CSV file', cap), path);
}

/** A flag that must be a positive integer (the value as typed; the error, the CLI's own usage error, names the flag). */
export function positiveInt(v: string | undefined, flag: string, UsageError: new (message: string) => Error = InputError): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got ${JSON.stringify(v)}`);
  return n;
}

/** An optional flag that must be a positive integer when given. */
export function optionalPositiveInt(v: string | undefined, flag: string, UsageError: new (message: string) => Error = InputError): number | undefined {
  return v === undefined ? undefined : positiveInt(v, flag, UsageError);
}

/**
 * node:util's parseArgs, with what the user mistyped (an unknown flag, a flag without its value, a value
 * that looks like a flag) thrown as the tool's usage error: one line and exit status 2, not Node's stack.
 */
export function parseFlags<T extends ParseArgsConfig>(config: T, UsageError: new (message: string) => Error = InputError): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) throw new UsageError((e as Error).message);
    throw e;
  }
}

/**
 * For a tool whose body runs at the top level, with no main() to catch in: an InputError that escapes it
 * ends the process with one line and exit status 2; any other error prints its stack and exits 1, as Node would.
 */
export function exitOnInputError(command: string): void {
  process.on('uncaughtException', (e) => {
    if (e instanceof InputError) {
      console.error(`${command}: ${e.message}`);
      process.exit(2);
    }
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  });
}
