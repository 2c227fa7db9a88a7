// What a run did, without how long it took: a run file with every measured time removed (busy and
// wall times, start-up, timestamps, the machine and its load, the provenance). Two invocations of one seeded
// experiment give the same behaviour, unless load pushed a program past its wall-clock execution
// budget (a timeout changes its reward); a refactor that changes it changed what the code does.

/**
 * Keys that hold measured times (a robot step's `ms` holds its phases' times), the machine, or the
 * provenance (the commit differs in a check before and after a refactor, by design), never behaviour.
 */
function isTiming(key: string): boolean {
  return /Ms$/.test(key) || key === 'ms' || key === 'seconds' || key === 'startedAt' || key === 'finishedAt' || key === 'environment' || key === 'host' || key === 'machine' || key === 'provenance';
}

/** A deep copy of `value` without its timing keys. */
export function behaviourOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(behaviourOf);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!isTiming(k)) out[k] = behaviourOf(v);
    return out;
  }
  return value;
}

/** Paths where the behaviour of a and b differ (at most `limit`), e.g. `records[1].meanReward: 0.25 vs 0.5`. */
export function behaviourDifferences(a: unknown, b: unknown, limit = 10): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: string): void => {
    if (out.length >= limit) return;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) out.push(`${path}: ${x.length} vs ${y.length} entries`);
      for (let i = 0; i < Math.min(x.length, y.length); i++) walk(x[i], y[i], `${path}[${i}]`);
      return;
    }
    if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      for (const k of keys) walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], path ? `${path}.${k}` : k);
      return;
    }
    if (!Object.is(x, y)) out.push(`${path}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
  };
  walk(behaviourOf(a), behaviourOf(b), '');
  return out;
}
