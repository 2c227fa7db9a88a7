// Meters a WebAssembly module's work, as gas metering does: a fuel counter (a new mutable i64
// global) is charged at the top of every loop and at the entry of every function, so that C code
// (CPython's `sorted`, big-int arithmetic, string joins) pays for its work as the interpreter's own
// dispatch loop does. The sandbox sets the fuel before a program and reads it after; at zero the
// module traps (`unreachable`), which stops C code that never checks for an interrupt.
//
// The rewrite decodes every instruction (to find where loops start) and copies everything else as
// it is; function, type and global indices do not move (the new global comes after the others), so
// calls, tables, names and the dynamic-linking data stay valid. docs/sandbox.md, "The work budget".
//
// Charges are weights, in fuel units: a loop iteration costs LOOP_COST, a function call CALL_COST,
// and a bulk memory instruction (`memory.copy`, `memory.fill`: Emscripten's memcpy and memset, so
// string and list copies) one unit per 2^BULK_SHIFT bytes.

/** Fuel per loop iteration, per function call, and per 2^BULK_SHIFT bytes copied or filled (bench/work-reference.ts). */
export const LOOP_COST = 1;
export const CALL_COST = 1;
export const BULK_SHIFT = 8;

/** The export that gives the sandbox the fuel global. */
export const FUEL_EXPORT = '__wmrl_fuel';

/** A custom section that says the module is metered, and how (isMetered; tools and tests read it). */
export const METER_SECTION = 'wmrl-meter';

const enc = new TextEncoder();
const dec = new TextDecoder();

class Reader {
  constructor(bytes, pos = 0) {
    this.b = bytes;
    this.pos = pos;
  }
  byte() {
    if (this.pos >= this.b.length) throw new Error(`wasm-meter: unexpected end at ${this.pos}`);
    return this.b[this.pos++];
  }
  u32() {
    let result = 0;
    let shift = 0;
    for (;;) {
      const x = this.byte();
      result += (x & 0x7f) * 2 ** shift;
      if ((x & 0x80) === 0) return result;
      shift += 7;
      if (shift > 35) throw new Error(`wasm-meter: LEB128 too long at ${this.pos}`);
    }
  }
  /** A signed LEB128 of any width, skipped (its value is not needed), or returned when small. */
  sleb() {
    let result = 0;
    let shift = 0;
    let x;
    do {
      x = this.byte();
      if (shift < 28) result |= (x & 0x7f) << shift;
      shift += 7;
      if (shift > 70) throw new Error(`wasm-meter: LEB128 too long at ${this.pos}`);
    } while (x & 0x80);
    if (shift < 32 && x & 0x40) result |= -1 << shift;
    return result;
  }
  skip(n) {
    this.pos += n;
    if (this.pos > this.b.length) throw new Error('wasm-meter: unexpected end');
  }
}

function uleb(n) {
  const out = [];
  do {
    let x = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) x |= 0x80;
    out.push(x);
  } while (n > 0);
  return out;
}

function sleb64(n) {
  // n: a non-negative safe integer
  const out = [];
  for (;;) {
    const x = n % 128;
    n = Math.floor(n / 128);
    if (n === 0 && (x & 0x40) === 0) {
      out.push(x);
      return out;
    }
    out.push(x | 0x80);
  }
}

function nameBytes(s) {
  const b = enc.encode(s);
  return [...uleb(b.length), ...b];
}

/** A value type: one byte, or a reference type with its heap type (typed function references). */
function valtype(r) {
  const t = r.byte();
  if (t === 0x63 || t === 0x64) r.sleb();
}

function blocktype(r) {
  const first = r.b[r.pos];
  if (first === 0x63 || first === 0x64) {
    r.pos++;
    r.sleb();
  } else {
    r.sleb(); // 0x40 (empty), a value type (one byte), or a type index (s33)
  }
}

function memarg(r) {
  const align = r.u32();
  if (align & 0x40) r.u32(); // memory index (multi-memory)
  r.u32(); // offset (a LEB of any width)
}

/** Skips one instruction's immediates; `op` was just read. Returns nothing; throws on an unknown opcode. */
function immediates(r, op, at) {
  if (op >= 0x45 && op <= 0xc4) return; // numeric
  switch (op) {
    case 0x00: case 0x01: case 0x05: case 0x0a: case 0x0b: case 0x0f: case 0x19: case 0x1a: case 0x1b:
    case 0xd1: case 0xd3: case 0xd4:
      return;
    case 0x02: case 0x03: case 0x04: case 0x06:
      return blocktype(r);
    case 0x07: case 0x08: case 0x09: case 0x0c: case 0x0d: case 0x10: case 0x12: case 0x14: case 0x15: case 0x18:
    case 0x20: case 0x21: case 0x22: case 0x23: case 0x24: case 0x25: case 0x26:
    case 0x3f: case 0x40: case 0xd2: case 0xd5: case 0xd6:
      r.u32();
      return;
    case 0x0e: {
      const n = r.u32();
      for (let i = 0; i <= n; i++) r.u32();
      return;
    }
    case 0x11: case 0x13:
      r.u32();
      r.u32();
      return;
    case 0x1c: {
      const n = r.u32();
      for (let i = 0; i < n; i++) valtype(r);
      return;
    }
    case 0x1f: {
      blocktype(r);
      const n = r.u32();
      for (let i = 0; i < n; i++) {
        const kind = r.byte();
        if (kind === 0 || kind === 1) r.u32();
        r.u32();
      }
      return;
    }
    case 0x41: case 0x42:
      r.sleb();
      return;
    case 0x43:
      r.skip(4);
      return;
    case 0x44:
      r.skip(8);
      return;
    case 0xd0:
      r.sleb();
      return;
    case 0xfc: {
      const sub = r.u32();
      if (sub <= 7) return;
      if (sub === 8 || sub === 10 || sub === 12 || sub === 14) { r.u32(); r.u32(); return; }
      if (sub === 9 || sub === 11 || sub === 13 || (sub >= 15 && sub <= 17)) { r.u32(); return; }
      break;
    }
    case 0xfd: {
      const sub = r.u32();
      if (sub <= 11 || sub === 92 || sub === 93) return memarg(r);
      if (sub === 12 || sub === 13) return r.skip(16);
      if (sub >= 21 && sub <= 34) return r.skip(1);
      if (sub >= 84 && sub <= 91) { memarg(r); r.skip(1); return; }
      return; // every other SIMD instruction has no immediate
    }
    case 0xfe: {
      const sub = r.u32();
      if (sub === 3) return r.skip(1);
      return memarg(r);
    }
    default:
      if (op >= 0x28 && op <= 0x3e) return memarg(r);
  }
  throw new Error(`wasm-meter: unknown opcode 0x${op.toString(16)} at byte ${at}`);
}

/** fuel -= cost. */
function take(fuel, cost) {
  const g = uleb(fuel);
  return [0x23, ...g, 0x42, ...sleb64(cost), 0x7d, 0x24, ...g]; // global.get; i64.const; i64.sub; global.set
}

/** if fuel < 0: trap. Only where work can repeat (loops, bulk memory): a call's charge is checked at the next loop. */
function check(fuel) {
  return [0x23, ...uleb(fuel), 0x42, 0x00, 0x53, 0x04, 0x40, 0x00, 0x0b]; // global.get; i64.const 0; i64.lt_s; if unreachable end
}

/** Before `memory.copy`/`memory.fill` (length on top of the stack): fuel -= length >> BULK_SHIFT, then the check. */
function bulkCharge(fuel, tmp) {
  const g = uleb(fuel);
  const t = uleb(tmp);
  return [
    0x22, ...t, // local.tee tmp (the length stays on the stack)
    0x23, ...g, // global.get fuel
    0x20, ...t, // local.get tmp
    0xad, // i64.extend_i32_u
    0x42, ...sleb64(BULK_SHIFT), 0x88, // i64.const shift; i64.shr_u
    0x7d, 0x24, ...g, // i64.sub; global.set fuel
    ...check(fuel),
  ];
}

/**
 * Rewrites one function body (without its size prefix). `params`: the function's parameter count;
 * one i32 local is added (the bulk charge's scratch), after the function's own.
 */
function meterBody(body, fuel, params, counts) {
  const r = new Reader(body);
  const nGroups = r.u32();
  let nLocals = 0;
  for (let i = 0; i < nGroups; i++) {
    nLocals += r.u32();
    valtype(r);
  }
  const tmp = params + nLocals;
  const parts = [Uint8Array.from(uleb(nGroups + 1)), body.subarray(new Reader(body).pos + uleb(nGroups).length, r.pos), Uint8Array.from([1, 0x7f])];
  const push = (bytes) => parts.push(bytes);
  const bulk = Uint8Array.from(bulkCharge(fuel, tmp));
  const loopCharge = Uint8Array.from([...take(fuel, LOOP_COST), ...check(fuel)]);
  push(Uint8Array.from(take(fuel, CALL_COST)));
  counts.functions++;
  let from = r.pos;
  while (r.pos < body.length) {
    const at = r.pos;
    const op = r.byte();
    if (op === 0xfc && (body[r.pos] === 10 || body[r.pos] === 11)) {
      push(body.subarray(from, at));
      push(bulk);
      counts.bulk++;
      from = at;
    }
    immediates(r, op, at);
    if (op === 0x03) {
      push(body.subarray(from, r.pos));
      push(loopCharge);
      counts.loops++;
      from = r.pos;
    }
  }
  push(body.subarray(from));
  return concat(parts);
}

function readSections(bytes) {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Error('wasm-meter: not a WebAssembly module');
  if (bytes[4] !== 1 || bytes[5] !== 0 || bytes[6] !== 0 || bytes[7] !== 0) throw new Error('wasm-meter: unsupported WebAssembly version');
  const r = new Reader(bytes, 8);
  const sections = [];
  while (r.pos < bytes.length) {
    const id = r.byte();
    const size = r.u32();
    const start = r.pos;
    r.skip(size);
    let name = null;
    if (id === 0) {
      const nr = new Reader(bytes, start);
      const n = nr.u32();
      name = dec.decode(bytes.subarray(nr.pos, nr.pos + n));
    }
    sections.push({ id, name, payload: bytes.subarray(start, start + size) });
  }
  return sections;
}

function countImportedGlobals(payload) {
  const r = new Reader(payload);
  const n = r.u32();
  let globals = 0;
  for (let i = 0; i < n; i++) {
    r.skip(r.u32()); // module
    r.skip(r.u32()); // name
    const kind = r.byte();
    if (kind === 0x00) r.u32(); // function: type index
    else if (kind === 0x01) { valtype(r); limits(r); } // table
    else if (kind === 0x02) limits(r); // memory
    else if (kind === 0x03) { valtype(r); r.byte(); globals++; } // global
    else if (kind === 0x04) { r.byte(); r.u32(); } // tag
    else throw new Error(`wasm-meter: unknown import kind ${kind}`);
  }
  return globals;
}

/** The parameter count of every defined function, in code-section order. */
function paramCounts(sections) {
  const types = [];
  const ts = sections.find((s) => s.id === 1);
  if (ts) {
    const r = new Reader(ts.payload);
    const n = r.u32();
    for (let i = 0; i < n; i++) {
      const form = r.byte();
      if (form !== 0x60) throw new Error(`wasm-meter: type form 0x${form.toString(16)} is not a plain function type`);
      const np = r.u32();
      for (let k = 0; k < np; k++) valtype(r);
      const nr = r.u32();
      for (let k = 0; k < nr; k++) valtype(r);
      types.push(np);
    }
  }
  const fs = sections.find((s) => s.id === 3);
  if (!fs) return [];
  const r = new Reader(fs.payload);
  const n = r.u32();
  const out = [];
  for (let i = 0; i < n; i++) out.push(types[r.u32()]);
  return out;
}

function limits(r) {
  const flags = r.byte();
  r.u32();
  if (flags & 1) r.u32();
}

/** True when `bytes` is a module this file has metered. */
export function isMetered(bytes) {
  return readSections(bytes).some((s) => s.id === 0 && s.name === METER_SECTION);
}

/**
 * Returns the metered module: a new exported mutable i64 global FUEL_EXPORT (initially 2^62), a
 * charge at every function entry and every loop, and a custom section METER_SECTION recording the
 * costs. Throws on a module it cannot decode (or one already metered).
 */
export function meterWasm(input) {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const sections = readSections(bytes);
  if (sections.some((s) => s.id === 0 && s.name === METER_SECTION)) throw new Error('wasm-meter: the module is already metered');
  const imp = sections.find((s) => s.id === 2);
  const importedGlobals = imp ? countImportedGlobals(imp.payload) : 0;
  const glob = sections.find((s) => s.id === 6);
  const definedGlobals = glob ? new Reader(glob.payload).u32() : 0;
  const fuel = importedGlobals + definedGlobals;
  const params = paramCounts(sections);
  const counts = { functions: 0, loops: 0, bulk: 0 };
  const initial = [0x42, ...sleb64(2 ** 62), 0x0b];
  const newGlobal = [0x7e, 0x01, ...initial];

  const out = [];
  const emit = (id, payload) => {
    out.push(Uint8Array.from([id, ...uleb(payload.length)]), payload);
  };
  const withCount = (payload, extra) => {
    const r = new Reader(payload);
    const n = r.u32();
    return concat([Uint8Array.from(uleb(n + 1)), payload.subarray(r.pos), Uint8Array.from(extra)]);
  };
  let globalWritten = false;
  let exportWritten = false;
  const order = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13 };
  for (const s of sections) {
    const rank = order[s.id] ?? 0;
    if (!globalWritten && rank > order[6] && s.id !== 0) {
      emit(6, Uint8Array.from([1, ...newGlobal]));
      globalWritten = true;
    }
    if (!exportWritten && rank > order[7] && s.id !== 0) {
      emit(7, Uint8Array.from([1, ...nameBytes(FUEL_EXPORT), 0x03, ...uleb(fuel)]));
      exportWritten = true;
    }
    if (s.id === 6) {
      emit(6, withCount(s.payload, newGlobal));
      globalWritten = true;
    } else if (s.id === 7) {
      emit(7, withCount(s.payload, [...nameBytes(FUEL_EXPORT), 0x03, ...uleb(fuel)]));
      exportWritten = true;
    } else if (s.id === 10) {
      const r = new Reader(s.payload);
      const n = r.u32();
      const bodies = [Uint8Array.from(uleb(n))];
      for (let i = 0; i < n; i++) {
        const size = r.u32();
        const body = meterBody(s.payload.subarray(r.pos, r.pos + size), fuel, params[i], counts);
        r.skip(size);
        bodies.push(Uint8Array.from(uleb(body.length)), body);
      }
      emit(10, concat(bodies));
    } else {
      emit(s.id, s.payload);
    }
  }
  if (!globalWritten) emit(6, Uint8Array.from([1, ...newGlobal]));
  if (!exportWritten) emit(7, Uint8Array.from([1, ...nameBytes(FUEL_EXPORT), 0x03, ...uleb(fuel)]));
  const info = enc.encode(JSON.stringify({ version: 1, loopCost: LOOP_COST, callCost: CALL_COST, bulkShift: BULK_SHIFT, export: FUEL_EXPORT, ...counts }));
  emit(0, concat([Uint8Array.from(nameBytes(METER_SECTION)), info]));
  return { bytes: concat([bytes.subarray(0, 8), ...out]), ...counts };
}

function concat(parts) {
  let n = 0;
  for (const p of parts) n += p.length;
  const outBytes = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    outBytes.set(p, o);
    o += p.length;
  }
  return outBytes;
}
