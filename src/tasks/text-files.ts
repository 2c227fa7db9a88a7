// Reading files that must be text: a user's CSV (Playground upload, `npm run score -- --csv`) and a
// program's predictions.csv. Bytes are decoded as strict UTF-8 (TextDecoder with fatal: true): a
// lenient decode would turn a Latin-1 or binary file into U+FFFD characters and a task or a grade
// built on garbage, without a word. NUL bytes are refused too: they are valid UTF-8, yet they mark
// a binary or UTF-16 file, never a CSV.
import { TaskDataError } from './task-errors.ts';

/** The largest predictions.csv the sandbox hands to the grader (a test set has at most 800 rows). */
export const MAX_PREDICTIONS_BYTES = 64 * 1024 * 1024;

export type TextRead = { ok: true; text: string } | { ok: false; message: string };

/** Offset of the first byte that does not start a valid UTF-8 sequence, or -1 when all are valid. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    // Continuation bytes after the lead byte; C0, C1 and F5-FF never lead (RFC 3629).
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (n === 0 || i + n >= b.length) return i;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    if (b[i + 1] < lo || b[i + 1] > hi) return i;
    for (let k = 2; k <= n; k++) if ((b[i + k] & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return -1;
}

function lineAt(b: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (b[i] === 0x0a) line++;
  return line;
}

/** A byte or character code as 0xNN. */
export const hexByte = (x: number): string => `0x${x.toString(16).toUpperCase().padStart(2, '0')}`;

function looksUtf16(b: Uint8Array): boolean {
  return b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff));
}

/**
 * Decodes `bytes` as UTF-8 text (a UTF-8 byte-order mark is dropped). Refuses invalid UTF-8 and NUL
 * bytes with a message naming `name`, the byte, its offset and line, and ending with `advice`.
 */
export function decodeUtf8Text(bytes: Uint8Array, name: string, advice: string): TextRead {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const where = at >= 0 ? `: byte ${hexByte(bytes[at])} at offset ${at} (line ${lineAt(bytes, at)}) is not valid UTF-8` : '';
    const kind = looksUtf16(bytes) ? ' (it starts with a UTF-16 byte-order mark)' : '';
    return { ok: false, message: `${name} is not UTF-8 text${where}${kind}; ${advice}` };
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return { ok: false, message: `${name} holds binary data: a NUL byte at offset ${nul} (line ${lineAt(bytes, nul)}), which no text file has (UTF-16 text has many); ${advice}` };
  }
  return { ok: true, text };
}

const PREDICTIONS_ADVICE = "write it as text, a header and one value per line (open('predictions.csv', 'w') with csv.writer)";

/** Why a predictions.csv of `size` bytes is not read at all, or null when its size is fine. */
export function predictionsSizeProblem(size: number): string | null {
  return size > MAX_PREDICTIONS_BYTES
    ? `predictions.csv is too large: ${size} bytes, limit ${MAX_PREDICTIONS_BYTES} (${MAX_PREDICTIONS_BYTES / 1024 / 1024} MiB); write one value per test row`
    : null;
}

/** A program's predictions.csv as text, or why it cannot be graded (too large, not UTF-8, binary). */
export function decodePredictions(bytes: Uint8Array): TextRead {
  const tooLarge = predictionsSizeProblem(bytes.length);
  return tooLarge ? { ok: false, message: tooLarge } : decodeUtf8Text(bytes, 'predictions.csv', PREDICTIONS_ADVICE);
}

/**
 * The largest CSV that becomes a task (Playground upload, --csv of the CLIs): a task keeps at most a
 * few thousand rows, and a larger file would hold the page (or gigabytes of the CLI's memory) while
 * it is decoded and parsed.
 */
export const MAX_CSV_BYTES = 20 * 1024 * 1024;

/**
 * The refusal of a CSV over MAX_CSV_BYTES: `size` bytes, or, when not `whole` (a pipe or device, read
 * only until it passed the limit), more than the limit.
 */
export function csvTooLarge(fileName: string, size: number, whole = true): string {
  const sizeText = whole ? `${size} bytes` : `more than ${MAX_CSV_BYTES} bytes (a pipe or device, read until it passed the limit)`;
  return `${fileName} is too large: ${sizeText}, limit ${MAX_CSV_BYTES} (${MAX_CSV_BYTES / 1024 / 1024} MiB); a task keeps at most a few thousand rows, so a sample of the rows will do`;
}

/** Why a CSV of `size` bytes is not read at all, or null when its size is fine. */
export function csvSizeProblem(fileName: string, size: number): string | null {
  return size > MAX_CSV_BYTES ? csvTooLarge(fileName, size) : null;
}

/** A user's CSV file as text; throws a TaskDataError when it is too large or not UTF-8 text. */
export function decodeCsvUpload(bytes: Uint8Array, fileName: string): string {
  const tooLarge = csvSizeProblem(fileName, bytes.length);
  if (tooLarge) throw new TaskDataError('csv_too_large', tooLarge);
  const read = decodeUtf8Text(
    bytes,
    fileName,
    `save it as UTF-8 ("CSV UTF-8" in a spreadsheet's Save As, or iconv -f latin1 -t utf-8 ${fileName} > utf8.csv) and try again`,
  );
  if (!read.ok) throw new TaskDataError('csv_not_text', read.message);
  return read.text;
}
