export const STAMP_FILE: string;
export function sourceStamp(root: string): { sha256: string; files: number };
/** The stamp dist/ was built with; harness: whether that build carries the test harness page. */
export function builtStamp(root: string, outDir?: string): { sha256: string; files: number; harness?: boolean } | null;
export function staleDistReason(root: string, outDir?: string, options?: { harness?: boolean }): string | null;
