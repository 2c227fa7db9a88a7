// Where the built app lives, so that it works from any folder of any static host (a GitHub Pages
// project site is served under /<repo>/). The build uses a relative base (vite.config.ts): every
// chunk, page-side or worker, sits in <root>/assets/, and every page (index.html and the harness
// pages) in <root>. The dev server serves at '/'.

/** The app's root folder as an absolute URL ending in '/', in the page and in its workers. */
export function appRoot(): string {
  const base: string = import.meta.env?.BASE_URL ?? '/';
  // self: the window on the page, the worker's global scope in a worker
  const here = self.location.href;
  if (base.startsWith('/')) return new URL(base, here).href;
  // A relative build: a page is in the root; a worker's location is its script, in <root>/assets/.
  return new URL(typeof document === 'undefined' ? '../' : './', here).href;
}

/** A file of the built app by its path from the root (e.g. 'vendor/ort/'). */
export function appUrl(path: string): string {
  return new URL(path, appRoot()).href;
}
