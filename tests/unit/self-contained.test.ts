// The project stands on its own: a user's clone has only this repository, so no source, test, script
// or benchmark may reach for a folder beside it (the team's reference folder in particular). The data
// sets live in data/datasets; building the task suite from them must give the committed public/tasks.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const scanned = ['src', 'tests', 'scripts', 'bench', 'vite.config.ts', 'svelte.config.js', 'package.json', '.ci'];
// A relative path literal that, resolved from its own file, lands outside the repository.
const relativeLiteral = /['"`]((?:\.\.\/)+[^'"`\s]*)['"`]/g;

function leavesRepo(file: string, text: string): boolean {
  return [...text.matchAll(relativeLiteral)].some((m) => {
    const target = resolve(dirname(join(root, file)), m[1]);
    return target !== root && !target.startsWith(root + sep);
  });
}

function files(path: string): string[] {
  const full = join(root, path);
  if (!statSync(full, { throwIfNoEntry: false })) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full).flatMap((name) => files(join(path, name)));
}

describe('the repository stands on its own', () => {
  it('no code, test or script reads a folder outside the repository', () => {
    const self = 'tests/unit/self-contained.test.ts';
    const offenders = scanned
      .flatMap(files)
      .filter((f) => f !== self && /\.(ts|mts|mjs|js|svelte|json|sh)$|\/run$/.test(f))
      .filter((f) => leavesRepo(f, readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the data sets are carried in data/datasets, with their provenance', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'data/datasets/manifest.json'), 'utf8')) as { id: string; file: string }[];
    expect(manifest.length).toBe(28);
    for (const entry of manifest) expect(statSync(join(root, 'data/datasets', entry.file)).size).toBeGreaterThan(0);
    const provenance = readFileSync(join(root, 'data/datasets/PROVENANCE.md'), 'utf8');
    for (const entry of manifest) expect(provenance).toContain(`| ${entry.id} |`);
  });

  it('npm run build:tasks from data/datasets reproduces the committed task suite', () => {
    const out = mkdtempSync(join(tmpdir(), 'wmrl-tasks-'));
    try {
      execFileSync(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/cli/build-tasks.ts', '--out', out], { cwd: root, stdio: 'pipe' });
      const committed = join(root, 'public/tasks');
      for (const f of files('public/tasks').map((p) => p.slice('public/tasks/'.length))) {
        if (/leaderboards?\.json$/.test(f)) continue; // built by build:leaderboards, not build:tasks
        expect(readFileSync(join(out, f)).equals(readFileSync(join(committed, f))), f).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
