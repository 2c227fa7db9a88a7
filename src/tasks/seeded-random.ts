// Seed material for the task suite. Splits must be reproducible from a task id and a seed alone, in
// the browser and in Node, so nothing here touches Math.random; the generator itself is the
// project's mulberry32 in src/primitives/random.ts.

/** FNV-1a 32-bit hash of a string: turns a task id into part of a seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
