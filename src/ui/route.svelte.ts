// A hash router small enough to read at a glance: the app is static files, so routes live in the
// fragment and every view is reachable by URL (#/paper, #/train, ...).

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

function current(): string {
  const hash = globalThis.location?.hash ?? '';
  const path = hash.startsWith('#') ? hash.slice(1) : '/';
  return ROUTES.some((r) => r.path === path) ? path : '/';
}

class Router {
  path = $state(current());
  constructor() {
    globalThis.addEventListener?.('hashchange', () => (this.path = current()));
  }
}

export const router = new Router();
