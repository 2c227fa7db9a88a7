// The sandbox worker proves its CSP is in force before it runs anything. A dedicated worker takes
// its CSP from its own script's response, and only the host can send that header: a host that sends
// the isolation headers (COOP, COEP, CORP) itself but not this CSP gives an isolated page, so the
// app's service worker never steps in, and a worker whose program reaches JavaScript could then
// `import()` any URL. The lock-down cannot delete `import()` (it is syntax), so the CSP is the only
// thing between such a program and the network. Each probe below is harmless where it succeeds
// (nothing leaves the worker: data: URLs only) and must be refused where the CSP holds.

import { SANDBOX_WORKER_CSP } from './worker-csp.ts';

export interface BoundaryProbe {
  /** What the CSP must refuse, in words. */
  name: string;
  /** Resolves true when the attempt was refused, false when it went through. */
  refused(): Promise<boolean>;
}

// A URL in a variable: the bundler leaves the import() to run time, and TypeScript asks no types.
const DATA_MODULE: string = 'data:text/javascript,export default 1';

async function rejects(attempt: () => Promise<unknown>): Promise<boolean> {
  try {
    await attempt();
    return false;
  } catch {
    return true;
  }
}

export const BOUNDARY_PROBES: readonly BoundaryProbe[] = [
  // script-src without 'unsafe-eval': what turns a reachable Function into arbitrary code.
  { name: 'evaluating a string (Function)', refused: () => rejects(async () => new Function('return 1')()) },
  // script-src 'self': a module from anywhere else (the escape imported from another origin).
  { name: 'a dynamic import() of a data: module', refused: () => rejects(() => import(/* @vite-ignore */ DATA_MODULE)) },
  // connect-src 'none' (fetch is replaced and later deleted, so this runs before either).
  { name: 'a fetch() of a data: URL', refused: () => rejects(() => fetch('data:text/plain,1')) },
];

/** The probes whose attempt went through: empty when the worker's CSP is in force. */
export async function unrefusedProbes(probes: readonly BoundaryProbe[] = BOUNDARY_PROBES): Promise<string[]> {
  const open: string[] = [];
  for (const p of probes) if (!(await p.refused())) open.push(p.name);
  return open;
}

/** Why the worker refuses to run programs, and what the host must send. */
export function boundaryMessage(open: readonly string[]): string {
  return (
    `the sandbox worker's Content-Security-Policy is not in force (${open.join('; ')} went through), ` +
    'so a program could reach the network: no program will run here. The host must send, on the ' +
    `sandbox worker script (assets/sandbox-worker-*.js), the header Content-Security-Policy: ${SANDBOX_WORKER_CSP} ` +
    '(or send no isolation headers at all, so the app\'s own service worker adds every header). See docs/architecture.md, Serving.'
  );
}
