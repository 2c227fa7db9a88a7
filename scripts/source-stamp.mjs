// A hash of everything the app's build is made from, so a test or benchmark can tell whether dist/
// was built from the sources in this checkout: the build writes it to dist/source-stamp.json, the
// browser tests recompute it and rebuild (or refuse) when it differs. Derived folders the build
// fills itself (public/vendor, public/results) are left out; their sources (package-lock.json,
// results/) are in.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const STAMP_FILE = 'source-stamp.json';

const INPUTS = ['src', 'public', 'results', 'scripts/vendor-assets.mjs', 'vite.config.ts', 'svelte.config.js', 'tsconfig.json', 'package-lock.json'];
const DERIVED = new Set(['public/vendor', 'public/results']);

function files(root, rel, out) {
  const abs = join(root, rel);
  if (!existsSync(abs) || DERIVED.has(rel)) return;
  if (statSync(abs).isDirectory()) {
    for (const name of readdirSync(abs).sort()) files(root, rel ? `${rel}/${name}` : name, out);
  } else {
    out.push(rel);
  }
}

/** sha256 over each file's path and bytes, in a fixed order: every file under the `inputs` (folders or files) of `root`. */
export function filesHash(root, inputs, extra = []) {
  const list = [];
  for (const rel of inputs) files(root, rel, list);
  list.push(...extra);
  const h = createHash('sha256');
  for (const rel of list) {
    h.update(`${rel}\0`);
    h.update(readFileSync(join(root, rel)));
    h.update('\0');
  }
  return { sha256: h.digest('hex'), files: list.length };
}

/** The sources' hash (sha256 over each input's path and bytes, in a fixed order). */
export function sourceStamp(root) {
  return filesHash(root, INPUTS, readdirSync(root).sort().filter((name) => name.endsWith('.html')));
}

/** The stamp dist/ was built with, or null when it has none. */
export function builtStamp(root, outDir = 'dist') {
  const path = resolve(root, outDir, STAMP_FILE);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

/**
 * Why dist/ does not match the sources (missing, unstamped, built from other sources, or, when
 * `harness` is asked for, built without the test harness page), or null when it does.
 */
export function staleDistReason(root, outDir = 'dist', { harness = false } = {}) {
  if (!existsSync(resolve(root, outDir, 'index.html'))) return `${outDir}/ is missing`;
  const built = builtStamp(root, outDir);
  if (!built) return `${outDir}/ has no ${STAMP_FILE} (built before stamps, or by hand)`;
  const now = sourceStamp(root);
  if (built.sha256 !== now.sha256) return `${outDir}/ was built from other sources (${relative(root, resolve(root, outDir))}/${STAMP_FILE} ${built.sha256.slice(0, 12)}, sources now ${now.sha256.slice(0, 12)})`;
  if (harness && built.harness !== true) return `${outDir}/ was built without the test harness page (a published build; tests build with WMRL_HARNESS=1)`;
  return null;
}
