// The bytes of a WebAssembly module with one exported function "f" (and optionally one exported
// memory "memory"), from its signature, locals and body given as bytes: enough for the ceiling probe
// (ceiling-probe.js: the speed panel's and the bench's) and the relaxed-opcodes tests, which need
// exact instructions that no compiler would keep as written.
//
//   moduleBytes({ params: [I32], results: [F32], locals: [[12, V128]], body: [...], memoryPages: 1 })
//
// body: the instructions without the function's final `end` (added here).

export const I32 = 0x7f;
export const F32 = 0x7d;
export const V128 = 0x7b;
export const op = {
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  br_if: 0x0d,
  void: 0x40,
  local_get: 0x20,
  local_set: 0x21,
  local_tee: 0x22,
  i32_const: 0x41,
  i32_sub: 0x6b,
  simd: 0xfd,
};

/** value as LEB128 u32 bytes. */
export function u32(value) {
  const out = [];
  do {
    let b = value & 0x7f;
    value >>>= 7;
    if (value) b |= 0x80;
    out.push(b);
  } while (value);
  return out;
}

/** value as LEB128 s32 bytes. */
export function s32(value) {
  const out = [];
  for (;;) {
    const b = value & 0x7f;
    value >>= 7;
    if ((value === 0 && !(b & 0x40)) || (value === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
}

/** A simd instruction: 0xfd and its opcode as LEB128. */
export const simd = (opcode) => [op.simd, ...u32(opcode)];

/** v128.const of four floats. */
export const f32x4Const = (values) => [...simd(0x0c), ...new Uint8Array(Float32Array.from(values).buffer)];

const vector = (items) => [...u32(items.length), ...items.flat()];
const section = (id, content) => [id, ...u32(content.length), ...content];
const name = (text) => vector([...new TextEncoder().encode(text)].map((b) => [b]));

export function moduleBytes({ params = [], results = [], locals = [], body, memoryPages = 0 }) {
  const type = [0x60, ...vector(params.map((t) => [t])), ...vector(results.map((t) => [t]))];
  const code = [...vector(locals.map(([count, t]) => [...u32(count), t])), ...body, op.end];
  const exports = [[...name('f'), 0x00, 0x00], ...(memoryPages ? [[...name('memory'), 0x02, 0x00]] : [])];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([type])),
    ...section(3, vector([[0x00]])),
    ...(memoryPages ? section(5, vector([[0x00, ...u32(memoryPages)]])) : []),
    ...section(7, vector(exports)),
    ...section(10, vector([[...u32(code.length), ...code]])),
  ]);
}
