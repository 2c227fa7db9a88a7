// The Python files every sandbox worker places on sys.path (the toolkit programs import, and any
// helper modules beside it), bundled as text so the locked-down worker needs no fetch.

const sources = import.meta.glob('./python/**/*.py', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

/** Files keyed by path relative to the python/ folder, e.g. `toolkit/table.py`. */
export function pythonLibrary(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, text] of Object.entries(sources)) {
    const rel = path.replace(/^\.\/python\//, '');
    // Tests of the toolkit live beside it; programs have no use for them.
    if (/(^|\/)tests?\//.test(rel) || /(^|\/)test_[^/]*\.py$/.test(rel)) continue;
    out[rel] = text;
  }
  return out;
}
