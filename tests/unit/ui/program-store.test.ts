// The Playground keeps the user's program per task; the starting program (or an empty text) is not
// stored, so such a task opens with its starting program.
import { describe, expect, it } from 'vitest';
import { keepProgram, storedProgram } from '../../../src/ui/playground/program-store.ts';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

describe('program store', () => {
  it('keeps one program per task, and forgets a task whose text is back to its start', () => {
    const store = memoryStorage();
    keepProgram('a', 'print(1)\n', 'start', store);
    keepProgram('b', 'print(2)\n', 'start', store);
    expect(storedProgram('a', store)).toBe('print(1)\n');
    expect(storedProgram('b', store)).toBe('print(2)\n');
    keepProgram('a', 'start', 'start', store);
    keepProgram('b', '  \n', 'start', store);
    expect(storedProgram('a', store)).toBeNull();
    expect(storedProgram('b', store)).toBeNull();
    expect(store.length).toBe(0);
  });

  it('without storage (or over its quota) it just does not remember', () => {
    expect(storedProgram('a', null)).toBeNull();
    const full = { ...memoryStorage(), setItem: () => { throw new DOMException('full', 'QuotaExceededError'); } } as Storage;
    expect(() => keepProgram('a', 'x', 'start', full)).not.toThrow();
  });
});
