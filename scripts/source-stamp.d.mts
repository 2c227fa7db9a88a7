export const STAMP_FILE: string;
/** sha256 over the path and bytes of every file under `inputs` (folders or files of root), then of `extra` (files). */
export function filesHash(root: string, inputs: readonly string[], extra?: readonly string[]): { sha256: string; files: number };
export function sourceStamp(root: string): { sha256: string; files: number };
/** The stamp dist/ was built with; harness: whether that build carries the test harness page. */
export function builtStamp(root: string, outDir?: string): { sha256: string; files: number; harness?: boolean } | null;
export function staleDistReason(root: string, outDir?: string, options?: { harness?: boolean }): string | null;
