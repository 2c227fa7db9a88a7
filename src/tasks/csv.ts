// RFC 4180 CSV: fields separated by commas, records by CRLF or LF, fields that contain commas,
// quotes or line breaks are quoted and inner quotes doubled. An empty field (quoted or not) is a
// missing value. Rows whose field count differs from the header's are rejected, never padded:
// silently shifting columns would corrupt a task.

import { TaskDataError } from './task-errors.ts';

export interface CsvTable {
  header: string[];
  rows: string[][];
}

/** Parses CSV text into records of raw field strings (no type conversion). */
export function parseCsvRecords(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let inQuotes = false;
  let fieldWasQuoted = false;
  let line = 1;
  let quoteOpenedAtLine = 0;
  let i = 0;
  const n = text.length;
  // A byte-order mark is not part of the first header name.
  if (n > 0 && text.charCodeAt(0) === 0xfeff) i = 1;
  const endField = (): void => {
    record.push(field);
    field = '';
    fieldWasQuoted = false;
  };
  const endRecord = (): void => {
    endField();
    records.push(record);
    record = [];
  };
  for (; i < n; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
          const next = text[i + 1];
          if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
            throw new TaskDataError(
              'csv_unparseable',
              `CSV line ${line}: unexpected character ${JSON.stringify(next)} after a closing quote`,
            );
          }
        }
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"') {
      if (field.length > 0 || fieldWasQuoted) {
        throw new TaskDataError('csv_unparseable', `CSV line ${line}: a quote inside an unquoted field`);
      }
      inQuotes = true;
      fieldWasQuoted = true;
      quoteOpenedAtLine = line;
    } else if (c === ',') {
      endField();
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
    } else {
      field += c;
    }
  }
  if (inQuotes) {
    throw new TaskDataError('csv_unparseable', `CSV: a quoted field opened on line ${quoteOpenedAtLine} is never closed`);
  }
  // Text not ending in a newline still has a last record.
  if (field.length > 0 || fieldWasQuoted || record.length > 0) endRecord();
  return records;
}

function isBlank(rec: readonly string[]): boolean {
  return rec.length === 1 && rec[0] === '';
}

/** Parses CSV with a header row; rejects ragged rows and duplicate or empty column names. */
export function parseCsv(text: string): CsvTable {
  const records = parseCsvRecords(text);
  // Trailing empty lines carry no data. Inner blank lines are skipped only when there are several
  // columns: in a one-column file an empty line is an empty (missing) value and must stay visible.
  while (records.length > 0 && isBlank(records[records.length - 1])) records.pop();
  const nonBlank: { rec: string[]; line: number }[] = [];
  const multiColumn = records.length > 0 && records[0].length > 1;
  records.forEach((rec, idx) => {
    if (!(multiColumn && isBlank(rec))) nonBlank.push({ rec, line: idx });
  });
  if (nonBlank.length === 0) throw new TaskDataError('csv_empty', 'CSV is empty: no header row');
  const header = nonBlank[0].rec;
  const seen = new Set<string>();
  header.forEach((name, col) => {
    if (name.trim() === '') throw new TaskDataError('csv_unparseable', `CSV header: column ${col + 1} has no name`);
    if (seen.has(name)) throw new TaskDataError('csv_duplicate_header', `CSV header: column name ${JSON.stringify(name)} appears twice`);
    seen.add(name);
  });
  const rows: string[][] = [];
  for (let r = 1; r < nonBlank.length; r++) {
    const { rec, line } = nonBlank[r];
    if (rec.length !== header.length) {
      throw new TaskDataError(
        'csv_ragged',
        `CSV data row ${line} has ${rec.length} fields but the header has ${header.length}`,
      );
    }
    rows.push(rec);
  }
  return { header, rows };
}

function quoteField(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Writes a table as CSV (LF line endings, quoting only where needed, trailing newline). */
export function writeCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [header.map(quoteField).join(',')];
  for (const row of rows) lines.push(row.map(quoteField).join(','));
  return lines.join('\n') + '\n';
}
