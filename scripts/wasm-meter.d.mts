export const LOOP_COST: number;
export const CALL_COST: number;
export const BULK_SHIFT: number;
export const FUEL_EXPORT: string;
export const METER_SECTION: string;
export function isMetered(bytes: Uint8Array): boolean;
export function meterWasm(bytes: Uint8Array | ArrayBuffer): { bytes: Uint8Array<ArrayBuffer>; functions: number; loops: number; bulk: number };
