// The Playground's program per task, kept in localStorage so that it survives view switches and
// reloads. Only the user's own text is stored: a task whose program is its starting one has no entry,
// so it follows the starting program if that changes.

const PREFIX = 'wmrl.playground.program.';

/** Storage, or null where the page has none (or it is blocked): the editor then just does not remember. */
function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function storedProgram(taskId: string, store: Storage | null = storage()): string | null {
  return store?.getItem(PREFIX + taskId) ?? null;
}

/** Keeps `source` for the task; the starting program (or an empty text) clears the entry instead. */
export function keepProgram(taskId: string, source: string, starting: string, store: Storage | null = storage()): void {
  try {
    if (source === starting || source.trim() === '') store?.removeItem(PREFIX + taskId);
    else store?.setItem(PREFIX + taskId, source);
  } catch {
    // Over the quota: the program stays in the editor and in the URL, only not across reloads.
  }
}
