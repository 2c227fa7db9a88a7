// The work meter's rewrite (scripts/wasm-meter.mjs): on a small module built here, the fuel it takes
// is exactly a call, each loop iteration, and each 2^BULK_SHIFT bytes copied, and at zero the module
// traps; on Pyodide's interpreter, the rewritten module still validates and exports the fuel.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BULK_SHIFT, CALL_COST, FUEL_EXPORT, isMetered, LOOP_COST, meterWasm } from '../../../scripts/wasm-meter.mjs';

const section = (id: number, bytes: number[]): number[] => [id, bytes.length, ...bytes];
const str = (s: string): number[] => [s.length, ...[...s].map((c) => c.charCodeAt(0))];

/** run(n, len): a loop of n iterations, then memory.copy of len bytes. */
function tinyModule(): Uint8Array {
  const body = [
    0x00, // no locals
    0x03, 0x40, // loop
    0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, // n = n - 1; br_if while n != 0
    0x0b, // end loop
    0x41, 0x00, 0x41, 0x00, 0x20, 0x01, 0xfc, 0x0a, 0x00, 0x00, // memory.copy(0, 0, len)
    0x0b,
  ];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0x00, 1]),
    ...section(7, [1, ...str('run'), 0x00, 0]),
    ...section(10, [1, body.length, ...body]),
  ]);
}

function instantiate(bytes: Uint8Array<ArrayBuffer>): { run: (n: number, len: number) => void; fuel: WebAssembly.Global } {
  const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes));
  return { run: inst.exports.run as (n: number, len: number) => void, fuel: inst.exports[FUEL_EXPORT] as WebAssembly.Global };
}

describe('wasm meter', () => {
  const metered = meterWasm(tinyModule());
  const { run, fuel } = instantiate(metered.bytes);

  it('charges a call, every loop iteration and the bytes copied, exactly', () => {
    expect(metered.loops).toBe(1);
    expect(metered.functions).toBe(1);
    expect(metered.bulk).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 0, max: 65536 }), (n, len) => {
        fuel.value = 1n << 40n;
        run(n, len);
        const used = Number((1n << 40n) - (fuel.value as bigint));
        expect(used).toBe(CALL_COST + n * LOOP_COST + (len >> BULK_SHIFT));
      }),
    );
  });

  it('traps once the fuel runs out, and not before', () => {
    const need = CALL_COST + 1000 * LOOP_COST;
    fuel.value = BigInt(need);
    expect(() => run(1000, 0)).not.toThrow();
    fuel.value = BigInt(need - 1);
    expect(() => run(1000, 0)).toThrow(WebAssembly.RuntimeError);
    // a bulk copy past the fuel traps before it copies
    fuel.value = BigInt(CALL_COST + LOOP_COST + 1);
    expect(() => run(1, 4 << BULK_SHIFT)).toThrow(WebAssembly.RuntimeError);
  });

  it('marks what it metered and refuses to meter twice or to read what is not wasm', () => {
    expect(isMetered(metered.bytes)).toBe(true);
    expect(isMetered(tinyModule())).toBe(false);
    expect(() => meterWasm(metered.bytes)).toThrow(/already metered/);
    expect(() => meterWasm(new TextEncoder().encode('not wasm at all'))).toThrow(/not a WebAssembly module/);
    const cut = tinyModule().slice(0, 30);
    expect(() => meterWasm(cut)).toThrow(/wasm-meter/);
  });

  it("meters Pyodide's interpreter into a valid module that exports the fuel", () => {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('pyodide/package.json'));
    const m = meterWasm(readFileSync(join(dir, 'pyodide.asm.wasm')));
    expect(m.loops).toBeGreaterThan(1000);
    expect(WebAssembly.validate(m.bytes)).toBe(true);
    const exports = WebAssembly.Module.exports(new WebAssembly.Module(m.bytes));
    expect(exports).toContainEqual({ name: FUEL_EXPORT, kind: 'global' });
  });
});
