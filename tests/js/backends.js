// The two wasm builds every suite runs against (not a test file).
import { expect } from 'vitest';
import { loadAttention } from '../../web/src/index.js';

/** Both wasm builds: every suite runs once per backend (describe.each). */
export const BACKENDS = [
  { simd: true, backend: 'wasm-simd' },
  { simd: false, backend: 'wasm-scalar' },
];

/** Loads the requested build and checks that it is the one that answered. */
export async function loadBackend({ simd, backend }) {
  const attn = await loadAttention({ simd });
  expect(attn.backend).toBe(backend);
  return attn;
}

/**
 * What a leak in wasm memory would change: the heap size, where the next allocation lands, and
 * the C stack pointer. Equal before and after a loop of calls means not one byte stayed behind.
 */
export function heapState(module) {
  const probe = module._malloc(64);
  module._free(probe);
  return { heapBytes: module.HEAPU8.length, nextMalloc: probe, stackPointer: module.stackSave() };
}
