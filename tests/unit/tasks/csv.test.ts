import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseCsv, parseCsvRecords, writeCsv } from '../../../src/tasks/csv.ts';
import { taskErrorOf as errorOf } from './fixtures.ts';

describe('CSV parser', () => {
  it('reads quoted fields with commas, doubled quotes and embedded newlines', () => {
    const t = parseCsv('a,b,c\n"x, y","say ""hi""","line1\nline2"\n1,2,3\n');
    expect(t.header).toEqual(['a', 'b', 'c']);
    expect(t.rows).toEqual([
      ['x, y', 'say "hi"', 'line1\nline2'],
      ['1', '2', '3'],
    ]);
  });

  it('accepts CRLF, a missing final newline and a byte-order mark', () => {
    const t = parseCsv('\ufeffa,b\r\n1,2\r\n3,4');
    expect(t.header).toEqual(['a', 'b']);
    expect(t.rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('keeps empty fields (missing values), quoted or not, including a trailing one', () => {
    const t = parseCsv('a,b,c\n,"",\n1,,3\n');
    expect(t.rows).toEqual([
      ['', '', ''],
      ['1', '', '3'],
    ]);
  });

  it('keeps an empty value in a one-column file instead of dropping it as a blank line', () => {
    const t = parseCsv('y\n1\n\n3\n');
    expect(t.rows).toEqual([['1'], [''], ['3']]);
  });

  it('rejects ragged rows with the row number and both counts', () => {
    const e = errorOf(() => parseCsv('a,b,c\n1,2,3\n4,5\n'));
    expect(e.code).toBe('csv_ragged');
    expect(e.message).toContain('row 2');
    expect(e.message).toContain('2 fields');
    expect(e.message).toContain('header has 3');
    expect(errorOf(() => parseCsv('a,b\n1,2,3\n')).code).toBe('csv_ragged');
  });

  it('rejects an unclosed quote, a stray quote and junk after a closing quote', () => {
    expect(errorOf(() => parseCsv('a,b\n"1,2\n')).code).toBe('csv_unparseable');
    expect(errorOf(() => parseCsv('a,b\n1x"y,2\n')).code).toBe('csv_unparseable');
    expect(errorOf(() => parseCsv('a,b\n"1"x,2\n')).code).toBe('csv_unparseable');
  });

  it('rejects empty input and duplicate or empty column names', () => {
    expect(errorOf(() => parseCsv('')).code).toBe('csv_empty');
    expect(errorOf(() => parseCsv('a,a\n1,2\n')).code).toBe('csv_duplicate_header');
    expect(errorOf(() => parseCsv('a,\n1,2\n')).code).toBe('csv_unparseable');
  });

  it('round-trips any table through writeCsv and parseCsv', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r', ' ', '1', '.', 'é') });
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 4 }), fc.array(fc.array(field, { minLength: 4, maxLength: 4 }), { maxLength: 6 }), (w, rows) => {
        const header = Array.from({ length: w }, (_, i) => `c${i}`);
        const body = rows.map((r) => r.slice(0, w));
        const t = parseCsv(writeCsv(header, body));
        expect(t.header).toEqual(header);
        expect(t.rows).toEqual(body);
      }),
    );
  });

  it('parses records without a header check', () => {
    expect(parseCsvRecords('1,2\n3\n')).toEqual([['1', '2'], ['3']]);
  });
});
