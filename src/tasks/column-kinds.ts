// Deciding whether a column is numeric or categorical, and summarising it. A column is numeric when
// every non-missing value is a plain decimal number; anything else (dates, words, codes with letters)
// is categorical. Missing values are empty fields.

import type { ColumnInfo, ColumnKind } from './task-types.ts';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function isMissing(field: string): boolean {
  return field === '';
}

/** True for a plain finite decimal number (no NaN, Infinity, hex or thousands separators). */
export function isNumericField(field: string): boolean {
  return NUMBER.test(field.trim()) && Number.isFinite(Number(field));
}

export function columnKind(rows: readonly (readonly string[])[], col: number): ColumnKind {
  let any = false;
  for (const row of rows) {
    const v = row[col];
    if (isMissing(v)) continue;
    any = true;
    if (!isNumericField(v)) return 'categorical';
  }
  return any ? 'numeric' : 'categorical';
}

export function distinctNonMissing(rows: readonly (readonly string[])[], col: number): number {
  const seen = new Set<string>();
  for (const row of rows) if (!isMissing(row[col])) seen.add(row[col]);
  return seen.size;
}

export function describeColumn(
  name: string,
  kind: ColumnKind,
  rows: readonly (readonly string[])[],
  col: number,
): ColumnInfo {
  let missing = 0;
  for (const row of rows) if (isMissing(row[col])) missing++;
  return { name, kind, distinct: distinctNonMissing(rows, col), missing };
}

/** Shannon entropy (nats) of a column's empirical value distribution, missing counted as a value. */
export function columnEntropy(rows: readonly (readonly string[])[], col: number): number {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row[col], (counts.get(row[col]) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / rows.length;
    h -= p * Math.log(p);
  }
  return h;
}
