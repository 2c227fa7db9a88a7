// On a host that sends no isolation headers, the page installs the app's service worker
// (static-host.ts), which adds them, and reloads once so that the page and its workers are
// isolated. Where that cannot work (no service workers, an insecure origin, or still not isolated
// after the reload) the page goes on without isolation, and the start-up checks say what is lost.

import { appRoot, appUrl } from '../primitives/app-root.ts';
import { ISOLATION_SW_FILE } from './static-host.ts';

const RELOADED = 'wmrl-isolation-reload';
const READY_TIMEOUT_MS = 5000;

export type IsolationOutcome =
  /** isolated already: the server sends the headers, or the service worker added them */
  | 'isolated'
  /** the service worker is installed and the page is reloading */
  | 'reloading'
  /** isolation is not available here; `reason` says why */
  | { unavailable: string };

export async function ensureCrossOriginIsolated(): Promise<IsolationOutcome> {
  if (globalThis.crossOriginIsolated) {
    sessionStorage.removeItem(RELOADED);
    return 'isolated';
  }
  if (!window.isSecureContext) return { unavailable: 'the page is not on a secure origin (https or localhost)' };
  if (!('serviceWorker' in navigator)) return { unavailable: 'this browser has no service workers' };
  if (sessionStorage.getItem(RELOADED)) {
    sessionStorage.removeItem(RELOADED);
    return { unavailable: 'the isolation service worker is installed, yet the page is not isolated (does the host send conflicting headers?)' };
  }
  try {
    await navigator.serviceWorker.register(appUrl(ISOLATION_SW_FILE), { scope: appRoot() });
    // a browser that blocks service workers may never get one ready: the page must still open
    const ready = await Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise<false>((done) => setTimeout(() => done(false), READY_TIMEOUT_MS))]);
    if (!ready) return { unavailable: `the isolation service worker was not ready after ${READY_TIMEOUT_MS / 1000} s` };
  } catch (e) {
    return { unavailable: `the isolation service worker could not be installed: ${e instanceof Error ? e.message : String(e)}` };
  }
  sessionStorage.setItem(RELOADED, '1');
  location.reload();
  return 'reloading';
}
