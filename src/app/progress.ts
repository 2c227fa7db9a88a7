// What the trainer is doing right now, for a progress bar: the operations under way (several at
// once: the world model scores while the anchors run), each with what it is, when it began, how far
// it is where that is countable, and the time it took last time, from which the time left is
// estimated. Durations are kept in localStorage, so even the first start-up of a visit has an estimate.

export interface Activity {
  /** Kind of operation: the key of its remembered duration (e.g. 'step.sampling'). */
  key: string;
  /** What it is doing, in words. */
  label: string;
  startedAt: number;
  done: number | null;
  total: number | null;
  /** How long the same kind took last time, ms (null the first time). */
  expectedMs: number | null;
}

const STORAGE_KEY = 'wmrl-durations';

/** Seconds left, from the count where there is one (elapsed per item), else from the last duration; null when unknown. */
export function secondsLeft(a: Pick<Activity, 'done' | 'total' | 'expectedMs' | 'startedAt'>, now: number): number | null {
  const elapsed = Math.max(0, now - a.startedAt);
  if (a.done !== null && a.total !== null && a.done > 0) return (elapsed / a.done) * Math.max(0, a.total - a.done) / 1000;
  if (a.expectedMs !== null) return Math.max(0, a.expectedMs - elapsed) / 1000;
  return null;
}

/** Share done in [0, 1], or null for an operation that can only say it is under way. */
export function shareDone(a: Pick<Activity, 'done' | 'total' | 'expectedMs' | 'startedAt'>, now: number): number | null {
  if (a.done !== null && a.total !== null && a.total > 0) return Math.min(1, a.done / a.total);
  // By time, capped below 1: an operation slower than last time must not look finished.
  if (a.expectedMs !== null && a.expectedMs > 0) return Math.min(0.97, (now - a.startedAt) / a.expectedMs);
  return null;
}

function loadDurations(): Record<string, number> {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
  } catch {
    return {}; // no storage (private mode) or a damaged entry: estimates start afresh
  }
}

export class ProgressTracker {
  private readonly active = new Map<number, Activity>();
  private readonly durations = loadDurations();
  private readonly listeners = new Set<(activities: readonly Activity[]) => void>();
  private next = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Hears the list of operations under way after every change; returns an unsubscribe function. */
  listen(listener: (activities: readonly Activity[]) => void): () => void {
    this.listeners.add(listener);
    listener(this.list());
    return () => void this.listeners.delete(listener);
  }

  list(): Activity[] {
    return [...this.active.values()];
  }

  private emit(): void {
    const list = this.list();
    for (const l of this.listeners) l(list);
  }

  /** Starts an operation; the returned handle counts it on (advance) and ends it (end, also on failure). */
  begin(key: string, label: string, total: number | null = null) {
    const id = this.next++;
    const a: Activity = { key, label, startedAt: this.now(), done: total === null ? null : 0, total, expectedMs: this.durations[key] ?? null };
    this.active.set(id, a);
    this.emit();
    return {
      /** Counts it on; `total` where it becomes known only once under way (e.g. the pool's workers). */
      advance: (done: number, total: number | null = a.total) => {
        // A report that arrives after the end (e.g. from a worker, over another port) must not bring it back.
        if (!this.active.has(id)) return;
        a.total = total;
        this.active.set(id, { ...a, done });
        this.emit();
      },
      end: (ok = true) => {
        if (!this.active.delete(id)) return;
        if (ok) this.remember(key, this.now() - a.startedAt);
        this.emit();
      },
    };
  }

  /** Runs `work` as one operation (ended whether it succeeds or not). */
  async track<T>(key: string, label: string, work: () => Promise<T>): Promise<T> {
    const h = this.begin(key, label);
    try {
      const r = await work();
      h.end();
      return r;
    } catch (e) {
      h.end(false);
      throw e;
    }
  }

  private remember(key: string, ms: number): void {
    this.durations[key] = Math.round(ms);
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(this.durations));
    } catch {
      // A full or missing storage only costs the next visit its estimate.
    }
  }
}
