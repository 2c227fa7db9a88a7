export const STAMP_FILE: string;
export function sourceStamp(root: string): { sha256: string; files: number };
export function builtStamp(root: string, outDir?: string): { sha256: string; files: number } | null;
export function staleDistReason(root: string, outDir?: string): string | null;
