// A decoder of a WebAssembly module's code section, instruction by instruction: enough to find
// every instruction and where its opcode's bytes are, never by searching the bytes (an opcode's
// bytes also occur inside immediates: constants, offsets, v128.const and shuffle lanes).
//
// It knows every instruction our Emscripten 3.1.6 builds can contain: the MVP (control, locals and
// globals, memory with its memarg, numeric), sign extension, reference types, the 0xfc prefix
// (saturating truncation, bulk memory, tables) and the 0xfd prefix (simd128 with its immediates:
// memarg, memarg + lane, 16 bytes of v128.const or shuffle lanes, a lane index; relaxed-simd, and
// LLVM 14's pre-standard relaxed opcodes, which sit in gaps of simd128's numbering). Anything else
// (exceptions, tail calls, GC, threads' atomics, a truncated body) throws with its offset.
//
// walkCode(bytes, visit) calls visit({ prefix, op, at, opStart, opEnd }) for every instruction:
// prefix is 0 for one-byte opcodes, else 0xfc / 0xfd; op the opcode (after the prefix for prefixed
// ones); at the offset of the instruction's first byte; [opStart, opEnd) the bytes of op itself
// (after the prefix: a LEB128 u32 for prefixed opcodes). It returns { functions, instructions }.

const CODE_SECTION = 10;

// simd128 opcodes (after 0xfd) by the immediates they carry; every other number up to 0xff is a
// plain instruction, except the gaps of the standard numbering (pre-standard relaxed-simd below).
const SIMD_MEMARG = new Set([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x5c, 0x5d]);
const SIMD_MEMARG_LANE = new Set([0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x5b]);
const SIMD_BYTES16 = new Set([0x0c, 0x0d]); // v128.const, i8x16.shuffle
const SIMD_LANE = new Set(Array.from({ length: 0x22 - 0x15 + 1 }, (_, i) => 0x15 + i)); // extract/replace_lane
const SIMD_GAPS = new Set([0x9a, 0xa2, 0xa5, 0xa6, 0xaf, 0xb0, 0xb2, 0xb3, 0xb4, 0xbb, 0xc2, 0xc5, 0xc6, 0xcf, 0xd0, 0xd2, 0xd3, 0xd4, 0xe2, 0xee]);
// The standard relaxed-simd opcodes, 0x100 (i8x16.relaxed_swizzle) to 0x113 (i32x4.relaxed_dot_..._add_s).
const RELAXED_FIRST = 0x100;
const RELAXED_LAST = 0x113;

/**
 * LLVM 14's (pre-standard) relaxed-simd opcodes, in the gaps above: what binaryen 108 and LLVM 14
 * print for them. Only f32x4.fma has a standard counterpart we rewrite (relaxed-opcodes.mjs).
 */
export const PRESTANDARD_RELAXED = new Map([
  [0xa2, 'i8x16.relaxed_swizzle'],
  [0xa5, 'i32x4.relaxed_trunc_f32x4_s'],
  [0xa6, 'i32x4.relaxed_trunc_f32x4_u'],
  [0xaf, 'f32x4.fma'],
  [0xb0, 'f32x4.fms'],
  [0xb2, 'i8x16.laneselect'],
  [0xb3, 'i16x8.laneselect'],
  [0xb4, 'f32x4.relaxed_min'],
  [0xc5, 'i32x4.relaxed_trunc_f64x2_s_zero'],
  [0xc6, 'i32x4.relaxed_trunc_f64x2_u_zero'],
  [0xcf, 'f64x2.fma'],
  [0xd0, 'f64x2.fms'],
  [0xd2, 'i32x4.laneselect'],
  [0xd3, 'i64x2.laneselect'],
  [0xd4, 'f64x2.relaxed_min'],
  [0xe2, 'f32x4.relaxed_max'],
  [0xee, 'f64x2.relaxed_max'],
]);

/** A cursor over the bytes; every read checks the end it was given. */
class Reader {
  constructor(bytes, pos, end) {
    this.bytes = bytes;
    this.pos = pos;
    this.end = end;
  }
  fail(message, at = this.pos) {
    throw new Error(`wasm-code: ${message} at byte ${at} (0x${at.toString(16)})`);
  }
  byte() {
    if (this.pos >= this.end) this.fail('unexpected end');
    return this.bytes[this.pos++];
  }
  skip(n) {
    if (this.pos + n > this.end) this.fail(`unexpected end (${n} bytes wanted)`);
    this.pos += n;
  }
  /** LEB128 unsigned, at most 5 bytes (u32). */
  u32() {
    const start = this.pos;
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const b = this.byte();
      value += (b & 0x7f) * 2 ** (7 * i);
      if (!(b & 0x80)) return value;
    }
    return this.fail('LEB128 u32 longer than 5 bytes', start);
  }
  /** LEB128 signed of up to `bits` bits (s32, s33, s64): skipped, only its length matters. */
  signed(bits) {
    const start = this.pos;
    for (let i = 0; i < Math.ceil(bits / 7); i++) if (!(this.byte() & 0x80)) return;
    this.fail(`LEB128 s${bits} too long`, start);
  }
  memarg() {
    const align = this.u32();
    if (align & 0x40) this.u32(); // a memory index (multi-memory)
    this.u32(); // offset
  }
}

/** The immediates of a 0xfd instruction. */
function simdImmediates(r, op, at) {
  if (SIMD_MEMARG.has(op)) r.memarg();
  else if (SIMD_MEMARG_LANE.has(op)) {
    r.memarg();
    r.skip(1);
  } else if (SIMD_BYTES16.has(op)) r.skip(16);
  else if (SIMD_LANE.has(op)) r.skip(1);
  else if (op <= 0xff && SIMD_GAPS.has(op) && !PRESTANDARD_RELAXED.has(op)) r.fail(`unknown simd opcode 0xfd 0x${op.toString(16)}`, at);
  else if (op > 0xff && (op < RELAXED_FIRST || op > RELAXED_LAST)) r.fail(`unknown simd opcode 0xfd ${op}`, at);
}

/** The immediates of a 0xfc instruction. */
function miscImmediates(r, op, at) {
  if (op <= 7) return; // saturating truncations
  switch (op) {
    case 8: // memory.init data, memory
      r.u32();
      r.u32();
      return;
    case 9: // data.drop
    case 13: // elem.drop
    case 15: // table.grow
    case 16: // table.size
    case 17: // table.fill
    case 11: // memory.fill memory
      r.u32();
      return;
    case 10: // memory.copy dst, src
    case 12: // table.init elem, table
    case 14: // table.copy dst, src
      r.u32();
      r.u32();
      return;
    default:
      r.fail(`unknown opcode 0xfc ${op}`, at);
  }
}

/** One instruction at r.pos; returns its visit record and the change of block depth. */
function instruction(r) {
  const at = r.pos;
  const first = r.byte();
  if (first === 0xfc || first === 0xfd) {
    const opStart = r.pos;
    const op = r.u32();
    const opEnd = r.pos;
    if (first === 0xfd) simdImmediates(r, op, at);
    else miscImmediates(r, op, at);
    return [{ prefix: first, op, at, opStart, opEnd }, 0];
  }
  const record = { prefix: 0, op: first, at, opStart: at, opEnd: at + 1 };
  let depth = 0;
  if (first === 0x02 || first === 0x03 || first === 0x04) {
    r.signed(33); // block type: 0x40 (empty), a value type (one byte) or a type index
    depth = 1;
  } else if (first === 0x0b) depth = -1;
  else if (first === 0x00 || first === 0x01 || first === 0x05 || first === 0x0f || first === 0x1a || first === 0x1b || first === 0xd1) {
    // unreachable, nop, else, return, drop, select, ref.is_null: no immediates
  } else if (first === 0x0c || first === 0x0d || first === 0x10 || (first >= 0x20 && first <= 0x26) || first === 0xd2) {
    r.u32(); // br, br_if, call, local.*, global.*, table.get/set, ref.func
  } else if (first === 0x0e) {
    const n = r.u32(); // br_table: n labels and a default
    for (let i = 0; i <= n; i++) r.u32();
  } else if (first === 0x11) {
    r.u32(); // call_indirect type, table
    r.u32();
  } else if (first === 0x1c) {
    const n = r.u32(); // select t*
    r.skip(n);
  } else if (first >= 0x28 && first <= 0x3e) r.memarg();
  else if (first === 0x3f || first === 0x40)
    r.u32(); // memory.size / grow: memory index
  else if (first === 0x41) r.signed(32);
  else if (first === 0x42) r.signed(64);
  else if (first === 0x43) r.skip(4);
  else if (first === 0x44) r.skip(8);
  else if (first === 0xd0)
    r.skip(1); // ref.null reftype
  else if (first >= 0x45 && first <= 0xc4) {
    // numeric and sign extension: no immediates
  } else r.fail(`unknown opcode 0x${first.toString(16)}`, at);
  return [record, depth];
}

/** One function body [start, end): its locals, then instructions up to its final end. */
function walkBody(bytes, start, end, visit) {
  const r = new Reader(bytes, start, end);
  const groups = r.u32();
  for (let i = 0; i < groups; i++) {
    r.u32();
    r.skip(1); // count, valtype
  }
  let depth = 1; // the body is a block closed by its last end
  let count = 0;
  while (depth > 0) {
    const [record, change] = instruction(r);
    visit(record);
    count++;
    depth += change;
  }
  if (r.pos !== end) r.fail(`function body ends at ${r.pos}, its size says ${end}`);
  return count;
}

/** Walks every instruction of every function of the module's code section (see the top). */
export function walkCode(bytes, visit = () => {}) {
  const r = new Reader(bytes, 0, bytes.length);
  const magic = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  for (const b of magic) if (r.byte() !== b) r.fail('not a WebAssembly 1.0 module', 0);
  let functions = 0;
  let instructions = 0;
  while (r.pos < r.end) {
    const id = r.byte();
    const size = r.u32();
    const sectionEnd = r.pos + size;
    if (sectionEnd > r.end) r.fail(`section ${id} runs past the end`);
    if (id === CODE_SECTION) {
      const section = new Reader(bytes, r.pos, sectionEnd);
      const n = section.u32();
      for (let i = 0; i < n; i++) {
        const bodySize = section.u32();
        const bodyEnd = section.pos + bodySize;
        if (bodyEnd > sectionEnd) section.fail(`function ${i} runs past its section`);
        instructions += walkBody(bytes, section.pos, bodyEnd, visit);
        section.pos = bodyEnd;
        functions++;
      }
      if (section.pos !== sectionEnd) section.fail('code section has bytes after its last function');
    }
    r.pos = sectionEnd;
  }
  return { functions, instructions };
}
