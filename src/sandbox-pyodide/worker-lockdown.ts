// Removes every capability an untrusted program could use to reach the network, storage, other
// workers or the page, from the worker's global object and every prototype above it (fetch lives on
// WorkerGlobalScope.prototype, postMessage on DedicatedWorkerGlobalScope.prototype: deleting only the
// own property would leave them reachable). Run after start-up, once the page's assets are in.

/** Names deleted from the global scope and its prototype chain. */
export const LOCKED_GLOBALS: readonly string[] = [
  // Network.
  'fetch',
  'fetchLater',
  'XMLHttpRequest',
  'XMLHttpRequestEventTarget',
  'XMLHttpRequestUpload',
  'WebSocket',
  'WebSocketStream',
  'WebTransport',
  'EventSource',
  'RTCPeerConnection',
  'RTCDataChannel',
  'Request',
  // Loading code.
  'importScripts',
  'Worker',
  'SharedWorker',
  'ServiceWorker',
  // Storage.
  'indexedDB',
  'IDBFactory',
  'caches',
  'CacheStorage',
  'localStorage',
  'sessionStorage',
  'cookieStore',
  'FileSystemHandle',
  'FileSystemDirectoryHandle',
  'FileSystemFileHandle',
  'FileSystemSyncAccessHandle',
  'StorageManager',
  'webkitRequestFileSystem',
  'webkitRequestFileSystemSync',
  'webkitResolveLocalFileSystemURL',
  'webkitResolveLocalFileSystemSyncURL',
  // Talking to the page or other contexts (the worker's own postMessage is captured before this).
  'postMessage',
  'BroadcastChannel',
  'MessageChannel',
  'MessagePort',
  'onmessage',
  'onmessageerror',
  'addEventListener',
  'removeEventListener',
  'dispatchEvent',
  'navigator',
  'Navigator',
  'WorkerNavigator',
  'close',
  // Later callbacks: a program could schedule code to run inside the next program's time.
  'setTimeout',
  'setInterval',
  'queueMicrotask',
  'requestAnimationFrame',
  'scheduler',
  // Other reach.
  'Notification',
  'BackgroundFetchManager',
  'PushManager',
  'gpu',
  'GPU',
];

/**
 * Deletes the names from `scope` and every object on its prototype chain (except Object.prototype,
 * which holds none of them). Returns the names still reachable as `name in scope` afterwards: a
 * non-configurable property that survived, which the caller must treat as a failed lock-down.
 */
export function lockDownGlobals(scope: object, names: readonly string[] = LOCKED_GLOBALS): string[] {
  const chain: object[] = [];
  for (let o: object | null = scope; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    chain.push(o);
  }
  for (const name of names) {
    for (const o of chain) {
      if (Object.prototype.hasOwnProperty.call(o, name)) {
        try {
          delete (o as Record<string, unknown>)[name];
        } catch {
          // Non-configurable in strict mode throws; reported below as a leftover.
        }
      }
    }
  }
  return names.filter((name) => name in scope);
}
