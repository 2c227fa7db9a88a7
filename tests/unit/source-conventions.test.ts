// The house rules a reader relies on when finding their way: file names in kebab-case, every relative
// import naming its file's extension (one style, so a search for a file name finds all its importers),
// and no product file growing past what one sitting reads, unless the list below says why.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CHECKED = ['src', 'tests', 'bench', 'scripts'];

/** Source files past this many lines are named unless listed in LONG_FILES. */
const MAX_LINES = 600;

/** Files allowed past MAX_LINES, each with its reason. Keep it short. */
const LONG_FILES: Record<string, string> = {
  'src/sandbox-pyodide/sandbox-worker.ts':
    'the security boundary: what a hostile program can reach, start-up to job end, reviewed in one read',
};

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules') return [];
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [relative(ROOT, p)];
  });
}

/**
 * A file name that breaks the kebab-case rule, or null. Svelte components keep Svelte's PascalCase
 * (`Train.svelte`), and Python modules snake_case (a hyphen cannot be imported in Python).
 */
export function badFileName(path: string): string | null {
  const name = path.split('/').pop()!;
  if (name.endsWith('.svelte') || name.endsWith('.py')) return null;
  const stem = name.replace(/(\.[a-z0-9]+)+$/, '');
  return /^[a-z0-9]+(-[a-z0-9]+)*$/.test(stem) ? null : `${path}: '${stem}' is not kebab-case`;
}

/** Relative imports in a file's text that leave out the target's extension. */
export function importsWithoutExtension(text: string): string[] {
  const pattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)['"](\.{1,2}\/[^'"?]+)(?:\?[^'"]*)?['"]/g;
  return [...text.matchAll(pattern)].map((m) => m[1]).filter((spec) => !/\.(ts|js|mjs|svelte|json|wgsl|py|css|html)$/.test(spec));
}

/** Product files past MAX_LINES that LONG_FILES does not justify. */
export function unlistedLongFiles(files: { path: string; lines: number }[], allowed: Record<string, string>): string[] {
  return files.filter((f) => f.path.startsWith('src/') && f.lines > MAX_LINES && !(f.path in allowed)).map((f) => `${f.path}: ${f.lines} lines`);
}

describe('source conventions', () => {
  const files = CHECKED.flatMap((d) => walk(join(ROOT, d)));
  const code = files.filter((p) => /\.(ts|mjs|js|svelte)$/.test(p));

  it('file names are kebab-case (Svelte components and Python modules keep their languages\' own)', () => {
    expect(files.filter((p) => /\.(ts|mjs|js|wgsl|svelte|py)$/.test(p)).map(badFileName).filter((x) => x !== null)).toEqual([]);
    // The check sees the names it exists to catch.
    expect(badFileName('src/gpu/kvCache.ts')).not.toBeNull();
    expect(badFileName('src/gpu/kernels/decode_qkv.wgsl')).not.toBeNull();
    expect(badFileName('src/ui/train/train-run.svelte.ts')).toBeNull();
    expect(badFileName('src/ui/train/Train.svelte')).toBeNull();
  });

  it('every relative import names its file with the extension', () => {
    const missing = code.flatMap((p) => importsWithoutExtension(readFileSync(join(ROOT, p), 'utf8')).map((s) => `${p} imports ${s}`));
    expect(missing).toEqual([]);
    // The check sees a planted import without its extension (quoted at run time, so this file's own
    // text does not hold one).
    const q = "'";
    const planted = `import { a } from ${q}./a${q};\nimport b from ${q}../b.ts${q};\nimport c from ${q}./k.wgsl?raw${q};\nconst d = await import(${q}./d${q});`;
    expect(importsWithoutExtension(planted)).toEqual(['./a', './d']);
  });

  it(`no product file is over ${MAX_LINES} lines unless the short list says why`, () => {
    const sizes = files.filter((p) => /\.(ts|svelte|wgsl)$/.test(p))
      .map((path) => ({ path, lines: readFileSync(join(ROOT, path), 'utf8').split('\n').length }));
    expect(unlistedLongFiles(sizes, LONG_FILES)).toEqual([]);
    // A listed file that has come back under the limit leaves the list.
    const stale = Object.keys(LONG_FILES).filter((p) => (sizes.find((s) => s.path === p)?.lines ?? 0) <= MAX_LINES);
    expect(stale).toEqual([]);
    expect(unlistedLongFiles([{ path: 'src/a.ts', lines: MAX_LINES + 1 }, { path: 'tests/b.ts', lines: 900 }], {})).toEqual([`src/a.ts: ${MAX_LINES + 1} lines`]);
  });
});
