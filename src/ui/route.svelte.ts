// A hash router small enough to read at a glance: the app is static files, so routes live in the
// fragment and every view is reachable by URL (#/paper, #/train, ...). A view keeps its state in
// the fragment's query (#/train?steps=5&B=2), so a link reproduces it and a reload keeps it.
import { untrack } from 'svelte';
import { formatHash, paramOf, parseHash, readChoice, readNumber } from './url-state.ts';

export interface RouteDef {
  path: string;
  title: string;
}

export const ROUTES: readonly RouteDef[] = [
  { path: '/', title: 'Overview' },
  { path: '/paper', title: 'The paper, live' },
  { path: '/train', title: 'Train' },
  { path: '/playground', title: 'Playground' },
];

class Router {
  path = $state('/');
  params = $state.raw(new URLSearchParams());
  known = $derived(ROUTES.some((r) => r.path === this.path));
  /** Counts the URL changes made outside the page (a link followed, the address edited), for views that re-read it. */
  arrivals = $state(0);
  /** The query each view had when it was left, so the menu brings a view back as it was. */
  private left = $state<Record<string, string>>({});
  private pending = false;

  constructor() {
    this.read();
    globalThis.addEventListener?.('hashchange', () => {
      this.read();
      this.arrivals++;
    });
  }

  private read(): void {
    const { path, params } = parseHash(globalThis.location?.hash ?? '');
    if (path !== this.path) this.left[this.path] = this.params.toString();
    this.path = path;
    this.params = params;
  }

  /** A number the current URL gives for `key`, within `range`, else `fallback`. */
  num(key: string, range: { min: number; max: number; integer?: boolean }, fallback: number): number {
    return readNumber(this.params, key, range, fallback);
  }

  choice<T extends string>(key: string, choices: readonly T[], fallback: T): T {
    return readChoice(this.params, key, choices, fallback);
  }

  /** The link to a view: with the query it had when it was left (or `params` for the current one). */
  href(path: string, params?: Record<string, string | null>): string {
    const q = new URLSearchParams(path === this.path ? this.params : (this.left[path] ?? ''));
    for (const [k, v] of Object.entries(params ?? {})) {
      if (v === null) q.delete(k);
      else q.set(k, v);
    }
    return formatHash(path, q);
  }

  /**
   * Puts settings of the current view in the URL (null or the default: left out). replaceState, so
   * moving a slider adds no history entry; writes of one tick go out together.
   */
  set(values: Record<string, number | string | null>, defaults: Record<string, number | string | null> = {}): void {
    // Untracked: a view's writing effect must depend on its own state, not on the URL it writes.
    const current = untrack(() => this.params);
    const q = new URLSearchParams(current);
    for (const [k, v] of Object.entries(values)) {
      const p = paramOf(v, defaults[k] ?? null);
      if (p === null) q.delete(k);
      else q.set(k, p);
    }
    if (q.toString() === current.toString()) return;
    this.params = q;
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      globalThis.history?.replaceState(globalThis.history.state, '', formatHash(this.path, this.params));
    });
  }
}

export const router = new Router();
