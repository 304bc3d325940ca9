// The relaxed build's post-link step (cpp/bindings/wasm.cmake): LLVM 14 encodes
// __builtin_wasm_fma_f32x4 as the pre-standard 0xfd 0xaf 0x01 ("f32x4.fma"), which no engine
// accepts; the standard f32x4.relaxed_madd is 0xfd 0x85 0x02 (0x105), the same length, with the same
// operands in the same order (a * b + c). Found by walking the code section instruction by
// instruction (wasm-code.mjs), so a 0xfd 0xaf inside a constant or an offset is never touched; any
// other pre-standard relaxed opcode, or anything the walk cannot decode, is an error.
//
// Usage: node tools/wasm/relaxed-opcodes.mjs FILE.wasm   (rewrites FILE in place; fails when the
// module has no relaxed_madd at all, since then the relaxed build did not use relaxed SIMD)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PRESTANDARD_RELAXED, walkCode } from './wasm-code.mjs';

const PRESTANDARD_FMA = 0xaf;
export const RELAXED_MADD = 0x105;

/** value as a LEB128 u32 of exactly `length` bytes (padded with continuation bytes). */
function lebOfLength(value, length) {
  const out = [];
  for (let i = 0; i < length; i++) {
    const b = Math.floor(value / 2 ** (7 * i)) & 0x7f;
    out.push(i < length - 1 ? b | 0x80 : b);
  }
  if (Math.floor(value / 2 ** (7 * length)) !== 0) throw new Error(`relaxed-opcodes: ${value} does not fit ${length} LEB128 bytes`);
  return out;
}

/**
 * -> { bytes, rewritten, madds }: a copy of the module with every pre-standard f32x4.fma made
 * f32x4.relaxed_madd (rewritten of them), and how many relaxed_madd it has in the end (madds).
 * A module without any comes back byte for byte equal.
 */
export function rewriteRelaxedOpcodes(input) {
  const bytes = Uint8Array.from(input);
  let rewritten = 0;
  let madds = 0;
  walkCode(bytes, ({ prefix, op, at, opStart, opEnd }) => {
    if (prefix !== 0xfd) return;
    if (op === RELAXED_MADD) madds++;
    else if (op === PRESTANDARD_FMA) {
      bytes.set(lebOfLength(RELAXED_MADD, opEnd - opStart), opStart);
      rewritten++;
      madds++;
    } else if (PRESTANDARD_RELAXED.has(op)) {
      throw new Error(`relaxed-opcodes: pre-standard ${PRESTANDARD_RELAXED.get(op)} (0xfd 0x${op.toString(16)}) at byte ${at} has no standard rewrite here`);
    }
  });
  return { bytes, rewritten, madds };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node tools/wasm/relaxed-opcodes.mjs FILE.wasm');
    process.exit(2);
  }
  const { bytes, rewritten, madds } = rewriteRelaxedOpcodes(readFileSync(file));
  if (madds === 0) {
    console.error(`relaxed-opcodes: ${file} has no f32x4.fma or relaxed_madd: was it built with -mrelaxed-simd?`);
    process.exit(1);
  }
  writeFileSync(file, bytes);
  console.log(`relaxed-opcodes: ${file}: ${rewritten} f32x4.fma rewritten to f32x4.relaxed_madd (${madds} in all)`);
}
