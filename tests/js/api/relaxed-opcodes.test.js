// The relaxed build's post-link step (tools/wasm/relaxed-opcodes.mjs over tools/wasm/wasm-code.mjs):
// it turns LLVM 14's pre-standard f32x4.fma into the standard f32x4.relaxed_madd by decoding the
// code section, leaves every other byte alone, and refuses what it cannot decode. Node only (it
// reads the built modules from disk; the relaxed build itself runs in every suite in Chromium).
import { beforeAll, describe, expect, it } from 'vitest';
import { isNode, relaxedSimdSupported } from '../../../web/src/boundary/loader.js';

// 1 + 2^-12 squared is 1 + 2^-11 + 2^-24: the product alone rounds (a tie, to even) to 1 + 2^-11,
// so mul then add of -(1 + 2^-11) gives 0, and a fused multiply-add, rounding once, gives 2^-24.
const A = 1 + 2 ** -12;
const C = -(1 + 2 ** -11);
const FUSED = 2 ** -24;

describe.runIf(isNode())('relaxed-opcodes: the pre-standard fma becomes f32x4.relaxed_madd', () => {
  let tools;
  let builds;
  beforeAll(async () => {
    const { readFile } = await import('node:fs/promises');
    const [bytes, rewrite, code] = await Promise.all([
      import('../../../web/measure/module-bytes.js'),
      import('../../../tools/wasm/relaxed-opcodes.mjs'),
      import('../../../tools/wasm/wasm-code.mjs'),
    ]);
    tools = { ...bytes, ...rewrite, ...code };
    builds = {};
    for (const name of ['simd', 'relaxed', 'scalar']) {
      builds[name] = new Uint8Array(await readFile(new URL(`../../../web/wasm/attention-${name}.wasm`, import.meta.url)));
    }
  });

  /**
   * f() stores fma(memory[16..32), memory[32..48), memory[48..64)) at memory[0..16) with the
   * pre-standard opcode; a v128.const whose bytes spell that opcode is pushed and dropped first,
   * so a byte search would rewrite the constant too.
   */
  function prestandardModule() {
    const { I32, moduleBytes, op, s32, simd } = tools;
    const load = (offset) => [op.i32_const, ...s32(0), ...simd(0x00), 4, offset]; // v128.load align=16
    const decoy = new Uint8Array(16);
    decoy.set([0xfd, 0xaf, 0x01, 0xfd, 0xaf, 0x01]);
    return moduleBytes({
      memoryPages: 1,
      params: [],
      results: [],
      locals: [[0, I32]],
      body: [
        ...simd(0x0c),
        ...decoy,
        0x1a, // v128.const decoy; drop
        op.i32_const,
        ...s32(0),
        ...load(16),
        ...load(32),
        ...load(48),
        0xfd,
        0xaf,
        0x01, // f32x4.fma (LLVM 14)
        ...simd(0x0b),
        4,
        0, // v128.store align=16 offset=0
      ],
    });
  }

  it('rewrites the fma instruction (and not the same bytes inside a v128.const), after which the module validates and fuses', async () => {
    const before = prestandardModule();
    expect(WebAssembly.validate(before)).toBe(false); // no engine knows the pre-standard opcode
    const { bytes, rewritten, madds } = tools.rewriteRelaxedOpcodes(before);
    expect({ rewritten, madds }).toEqual({ rewritten: 1, madds: 1 });
    const changed = [...bytes.keys()].filter((i) => bytes[i] !== before[i]);
    expect(changed.map((i) => bytes[i])).toEqual([0x85, 0x02]); // 0x105 as LEB128, the same length
    expect(bytes.length).toBe(before.length);
    if (!relaxedSimdSupported()) return; // Node 20 without --experimental-wasm-relaxed-simd
    expect(WebAssembly.validate(bytes)).toBe(true);
    const { instance } = await WebAssembly.instantiate(bytes);
    const memory = new Float32Array(instance.exports.memory.buffer);
    memory.set([A, A, 2, 0.5], 4); // a
    memory.set([A, A, 3, 0.5], 8); // b
    memory.set([C, 0, 1, -0.25], 12); // c
    instance.exports.f();
    // V8 emits vfmadd on x64 with FMA3 (every CPU of the last decade) and fmla on arm64.
    expect(Array.from(memory.subarray(0, 4))).toEqual([FUSED, Math.fround(A * A), 7, 0]);
  });

  it('leaves a module without relaxed instructions byte for byte as it was (the SIMD and scalar builds)', () => {
    for (const name of ['simd', 'scalar']) {
      const { bytes, rewritten, madds } = tools.rewriteRelaxedOpcodes(builds[name]);
      expect({ name, rewritten, madds }).toEqual({ name, rewritten: 0, madds: 0 });
      expect(Buffer.compare(Buffer.from(bytes), Buffer.from(builds[name]))).toBe(0);
    }
  });

  it('decodes every instruction of every function of the three real builds', () => {
    for (const name of ['simd', 'relaxed', 'scalar']) {
      const ops = new Map();
      const { functions, instructions } = tools.walkCode(builds[name], ({ prefix, op }) => {
        const key = `${prefix}:${op}`;
        ops.set(key, (ops.get(key) ?? 0) + 1);
      });
      expect(functions, name).toBeGreaterThan(100);
      expect(instructions, name).toBeGreaterThan(10_000);
      expect(ops.has(`${0xfd}:${0xaf}`), `${name} keeps no pre-standard fma`).toBe(false);
      expect(ops.get(`${0xfd}:${tools.RELAXED_MADD}`) ?? 0, `${name}: relaxed_madd count`).toSatisfy((n) => (name === 'relaxed' ? n > 50 : n === 0));
      if (name === 'scalar')
        expect(
          [...ops.keys()].some((k) => k.startsWith(`${0xfd}:`)),
          'scalar has no simd',
        ).toBe(false);
    }
  });

  it('refuses what it cannot decode: another pre-standard relaxed opcode, an unknown opcode, a cut body', () => {
    const module = prestandardModule();
    const at = module.indexOf(0xaf, module.length - 12);
    const fms = module.slice();
    fms[at] = 0xb0; // LLVM 14's f32x4.fms: no standard rewrite here
    expect(() => tools.rewriteRelaxedOpcodes(fms)).toThrow(/pre-standard f32x4\.fms \(0xfd 0xb0\)/);
    const unknown = module.slice();
    unknown[at] = 0x9a; // a gap of the simd numbering
    expect(() => tools.rewriteRelaxedOpcodes(unknown)).toThrow(/unknown simd opcode 0xfd 0x9a/);
    const tryBlock = module.slice();
    tryBlock[at - 1] = 0x06; // an exception-handling `try` where 0xfd was
    expect(() => tools.rewriteRelaxedOpcodes(tryBlock)).toThrow(/unknown opcode 0x6/);
    expect(() => tools.rewriteRelaxedOpcodes(builds.simd.slice(0, builds.simd.length - 200))).toThrow(/wasm-code:/);
  });
});
