// Messages that say what is actually wrong with a file (issue 8, point 5): an oversized
// predictions.csv is "too large", not missing; binary bytes are binary data, not a row count; a
// one-row CSV has too few rows, not "a single value"; a CSV or predictions file that is not UTF-8 is
// refused, never decoded into U+FFFD without a word.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createCustomTask } from '../../../src/tasks/byo-data.ts';
import { parseCsv } from '../../../src/tasks/csv.ts';
import { gradePredictions } from '../../../src/tasks/grader.ts';
import { buildTask } from '../../../src/tasks/task-builder.ts';
import {
  MAX_CSV_BYTES,
  MAX_PREDICTIONS_BYTES,
  csvSizeProblem,
  decodeCsvUpload,
  decodePredictions,
  decodeUtf8Text,
  firstInvalidUtf8,
  predictionsSizeProblem,
} from '../../../src/tasks/text-files.ts';
import { missingPredictionsMessage, type SandboxResult } from '../../../src/sandbox-pyodide/protocol.ts';
import { failureMessage } from '../../../src/sandbox-pyodide/leaderboard-on-the-spot.ts';
import { syntheticCsv, taskErrorOf } from './fixtures.ts';

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const ADVICE_CSV = (name: string) => `save it as UTF-8 ("CSV UTF-8" in a spreadsheet's Save As, or iconv -f latin1 -t utf-8 ${name} > utf8.csv) and try again`;
const ADVICE_PRED = "write it as text, a header and one value per line (open('predictions.csv', 'w') with csv.writer)";

describe('strict UTF-8', () => {
  it('firstInvalidUtf8 agrees with TextDecoder({ fatal: true }) on any bytes', () => {
    const fatalOk = (b: Uint8Array): boolean => {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(b);
        return true;
      } catch {
        return false;
      }
    };
    // Raw bytes are nearly always invalid; text with some bytes flipped reaches the edge cases.
    const nearText = fc.tuple(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0x80, max: 0xff })), { maxLength: 2 })).map(([s, flips]) => {
      const b = utf8(s);
      for (const [at, v] of flips) if (b.length > 0) b[at % b.length] = v;
      return b;
    });
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 40 }), nearText), (b) => {
        expect(firstInvalidUtf8(b) === -1).toBe(fatalOk(b));
      }),
      { numRuns: 2000 },
    );
    // Overlong, surrogate, past U+10FFFF, truncated at the end.
    for (const bad of [[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x41, 0xe2, 0x82]]) {
      expect(fatalOk(Uint8Array.from(bad))).toBe(false);
      expect(firstInvalidUtf8(Uint8Array.from(bad))).toBe(bad[0] === 0x41 ? 1 : 0);
    }
  });

  it('valid UTF-8 is decoded, its byte-order mark dropped', () => {
    expect(decodeUtf8Text(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('a,b\nCafé,1\n')]), 'x.csv', 'fix it')).toEqual({ ok: true, text: 'a,b\nCafé,1\n' });
  });
});

describe('a user CSV that is not UTF-8 (Playground upload, score --csv)', () => {
  it('Latin-1: refused, naming the byte, its offset and line, and how to convert', () => {
    const e = taskErrorOf(() => decodeCsvUpload(latin1('name,price\nCafé,3\n'), 'data.csv'));
    expect(e.code).toBe('csv_not_text');
    expect(e.message).toBe(`data.csv is not UTF-8 text: byte 0xE9 at offset 14 (line 2) is not valid UTF-8; ${ADVICE_CSV('data.csv')}`);
  });

  it('UTF-16 with a byte-order mark, and without one (NUL bytes)', () => {
    const le = (s: string, bom: boolean) => Uint8Array.from([...(bom ? [0xff, 0xfe] : []), ...[...s].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(taskErrorOf(() => decodeCsvUpload(le('a,b\n1,2\n', true), 'u16.csv')).message).toBe(
      `u16.csv is not UTF-8 text: byte 0xFF at offset 0 (line 1) is not valid UTF-8 (it starts with a UTF-16 byte-order mark); ${ADVICE_CSV('u16.csv')}`,
    );
    expect(taskErrorOf(() => decodeCsvUpload(le('a,b\n1,2\n', false), 'u16.csv')).message).toBe(
      `u16.csv holds binary data: a NUL byte at offset 1 (line 1), which no text file has (UTF-16 text has many); ${ADVICE_CSV('u16.csv')}`,
    );
  });

  it('a UTF-8 CSV builds a task as before', () => {
    const text = decodeCsvUpload(utf8(syntheticCsv({ rows: 80, kind: 'regression' })), 'ok.csv');
    expect(createCustomTask({ csv: text, target: 'label', metric: 'rmse' }).meta.type).toBe('regression');
  });
});

describe('a CSV with one data row', () => {
  it('is too few rows, not "a single value"', () => {
    const e = taskErrorOf(() => createCustomTask({ csv: 'x,y\n1,2\n', target: 'y', metric: 'rmse' }));
    expect({ code: e.code, message: e.message }).toEqual({ code: 'target_too_few_rows', message: 'target "y" has 1 non-missing rows; at least 30 are needed' });
    expect(taskErrorOf(() => createCustomTask({ csv: 'x,y\n', target: 'y', metric: 'rmse' })).code).toBe('target_too_few_rows');
  });
});

describe('a program\'s predictions.csv', () => {
  const t = buildTask(parseCsv(syntheticCsv({ rows: 200, kind: 'regression' })), { id: 'r', split: 'train', target: 'label', type: 'regression', metric: 'rmse' });
  const grader = { meta: t.meta, labels: t.labels, leaderboard: { entries: [{ value: 1, programIds: ['x'] }] } };

  it('too large: says so with its size and the limit, instead of "wrote no predictions.csv"', () => {
    const size = MAX_PREDICTIONS_BYTES + 1;
    const message = `predictions.csv is too large: ${size} bytes, limit ${MAX_PREDICTIONS_BYTES} (64 MiB); write one value per test row`;
    expect(predictionsSizeProblem(size)).toBe(message);
    expect(predictionsSizeProblem(MAX_PREDICTIONS_BYTES)).toBeNull();
    expect(decodePredictions(new Uint8Array(size))).toEqual({ ok: false, message });
    // What the pool passes on reaches every report of a run without predictions.
    const r = { status: 'ok', predictionsProblem: message } as SandboxResult;
    expect(missingPredictionsMessage(r)).toBe(message);
    expect(failureMessage(r)).toBe(message);
    expect(missingPredictionsMessage({} as SandboxResult)).toBe('the program wrote no predictions.csv');
  });

  it('not UTF-8: refused with the byte and where it is', () => {
    expect(decodePredictions(latin1('label\n1.5\n2\xb5\n'))).toEqual({
      ok: false,
      message: `predictions.csv is not UTF-8 text: byte 0xB5 at offset 11 (line 3) is not valid UTF-8; ${ADVICE_PRED}`,
    });
  });

  it('binary bytes: reported as binary data, never as a row count', () => {
    const binary = `label\n${String.fromCharCode(1, 2, 3, 200, 0)}`;
    const g = gradePredictions(grader, binary);
    expect(g).toEqual({ status: 'invalid', message: 'predictions.csv holds binary data: control character 0x01 on line 2; expected text, a header "label" and one value per test row' });
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 8, maxLength: 400 }), (bytes) => {
        const withHeader = Uint8Array.from([...utf8('label\n'), ...bytes]);
        const read = decodePredictions(withHeader);
        const message = read.ok ? (gradePredictions(grader, read.text) as { message?: string }).message : read.message;
        // Random bytes are caught as not UTF-8 or binary; the rare valid text gets a parse or value message.
        if (message !== undefined && /rows; expected/.test(message)) expect(read.ok && !/[\u0000-\u0008\u000e-\u001f]/.test(read.text)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('plain text predictions are decoded unchanged', () => {
    const text = ['label', ...t.labels.labels].join('\n') + '\n';
    const read = decodePredictions(utf8(text));
    expect(read).toEqual({ ok: true, text });
    expect(gradePredictions(grader, text)).toMatchObject({ status: 'ok', value: 0 });
  });
});

describe('a CSV too large to be a task', () => {
  it('is refused for its size, before any decoding, with a message that says so (not "not UTF-8")', () => {
    const bytes = new Uint8Array(MAX_CSV_BYTES + 1).fill(0xff); // invalid UTF-8 too: the size is the real problem
    let err: unknown;
    try {
      decodeCsvUpload(bytes, 'huge.csv');
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'csv_too_large' });
    expect((err as Error).message).toBe(csvSizeProblem('huge.csv', MAX_CSV_BYTES + 1));
    expect((err as Error).message).toMatch(/^huge\.csv is too large: 20971521 bytes, limit 20971520 \(20 MiB\)/);
    expect(csvSizeProblem('ok.csv', MAX_CSV_BYTES)).toBeNull();
  });
});
