// The build stamp that keeps browser tests off a stale dist/: any edit to a build input makes dist/
// stale, edits to what the build derives itself (public/vendor) do not.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sourceStamp, staleDistReason, STAMP_FILE } from '../../scripts/source-stamp.mjs';

let root = '';
function tree(): string {
  root = mkdtempSync(join(tmpdir(), 'wmrl-stamp-'));
  for (const [rel, text] of Object.entries({ 'src/a.ts': 'a', 'public/tasks/t.json': '{}', 'public/vendor/p.js': 'v', 'index.html': '<p>', 'dist/index.html': '<p>' })) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}
const build = (r: string): void => writeFileSync(join(r, 'dist', STAMP_FILE), JSON.stringify(sourceStamp(r)));

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('source stamp', () => {
  it('a dist/ built from these sources is fresh; no stamp or no dist/ is not', () => {
    const r = tree();
    expect(staleDistReason(r)).toMatch(/no source-stamp\.json/);
    build(r);
    expect(staleDistReason(r)).toBeNull();
    rmSync(join(r, 'dist/index.html'));
    expect(staleDistReason(r)).toMatch(/missing/);
  });

  it('a published build (no harness page) is fresh for the tools but stale for the browser tests', () => {
    const r = tree();
    build(r);
    expect(staleDistReason(r, 'dist', { harness: true })).toMatch(/without the test harness page/);
    writeFileSync(join(r, 'dist', STAMP_FILE), JSON.stringify({ ...sourceStamp(r), harness: true }));
    expect(staleDistReason(r, 'dist', { harness: true })).toBeNull();
    expect(staleDistReason(r)).toBeNull();
  });

  it.each(['src/a.ts', 'public/tasks/t.json', 'index.html', 'src/new.ts'])('editing %s makes dist/ stale', (rel) => {
    const r = tree();
    build(r);
    writeFileSync(join(r, rel), 'changed');
    expect(staleDistReason(r)).toMatch(/built from other sources/);
  });

  it('files the build derives itself do not count', () => {
    const r = tree();
    build(r);
    writeFileSync(join(r, 'public/vendor/p.js'), 'recopied');
    expect(staleDistReason(r)).toBeNull();
  });
});
