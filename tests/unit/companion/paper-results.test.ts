// The paper's numbers the page shows (paper-results.ts) are the ones docs/method.md quotes: one copy
// checked against the other, so an edit to either that is not made to both goes red.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAPER_ABLATIONS, PAPER_MAIN_TABLE } from '../../../src/ui/companion/paper-results.ts';
import { REPO_ROOT } from '../../run-cli.ts';

/** The body rows of the markdown table whose header row starts with `| first |`, as cells. */
function tableAfter(text: string, first: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  if (start < 0) throw new Error(`no table headed "${first}" in docs/method.md`);
  const rows: string[][] = [];
  for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i].split('|').slice(1, -1).map((c) => c.trim()));
  return rows;
}

const doc = readFileSync(join(REPO_ROOT, 'docs/method.md'), 'utf8');
const num = (c: string): number | null => (c === '-' ? null : Number(c));

describe("the paper's reported numbers", () => {
  it('the main table on the page is the one docs/method.md quotes', () => {
    const rows = tableAfter(doc, 'Method').map(([method, gpu, mle, ds]) => ({ method, gpuHours: num(gpu), mle: num(mle), dsbench: num(ds) }));
    expect(rows).toEqual(PAPER_MAIN_TABLE);
  });
  it('the ablations on the page are the ones docs/method.md quotes', () => {
    const rows = tableAfter(doc, 'Variant').map(([variant, a, b, c, d]) => ({ variant, mle4b: num(a), ds4b: num(b), mle9b: num(c), ds9b: num(d) }));
    expect(rows).toEqual(PAPER_ABLATIONS);
  });
});
