// Numeric settings are checked where they are typed: each field has a spec, and a value outside it
// gets a message at the field before anything starts (the trainer would only refuse it after its
// workers had loaded). Pure, so the rules are unit-tested without a browser.

export interface NumberSpec {
  /** How the message names the field, e.g. "Steps". */
  label: string;
  min: number;
  max: number;
  integer?: boolean;
  /** The minimum itself is refused (e.g. a learning rate must be above 0). */
  minExclusive?: boolean;
}

/** What is wrong with `value` for `spec`, in a sentence, or null when it fits. */
export function numberProblem(spec: NumberSpec, value: unknown): string | null {
  const range = `${spec.minExclusive ? `above ${spec.min}` : `from ${spec.min}`} ${spec.minExclusive ? 'and at most' : 'to'} ${spec.max}`;
  const wanted = `${spec.label} must be ${spec.integer ? 'a whole number' : 'a number'} ${range}`;
  if (value === null || value === undefined || value === '') return `${wanted}: enter one.`;
  if (typeof value !== 'number' || !Number.isFinite(value)) return `${wanted}, got ${String(value)}.`;
  const tooLow = spec.minExclusive ? value <= spec.min : value < spec.min;
  if (tooLow || value > spec.max || (spec.integer && !Number.isInteger(value))) return `${wanted}, got ${value}.`;
  return null;
}

/** The problems of several fields at once, keyed like the specs; empty when every field fits. */
export function problemsOf<K extends string>(specs: Record<K, NumberSpec>, values: Record<K, unknown>, skip: readonly K[] = []): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of Object.keys(specs) as K[]) {
    if (skip.includes(key)) continue;
    const p = numberProblem(specs[key], values[key]);
    if (p) out[key] = p;
  }
  return out;
}
